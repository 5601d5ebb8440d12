"""Sessions of the Streamable HTTP transport: one :class:`HTTPSession` per ``Mcp-Session-Id``.

An :class:`HTTPSession` wraps the core :class:`~mcp_sdk.ServerSession` and routes
what it writes: a message about a client request goes to that request's POST
stream; a session-scoped one (``resources/updated``, ``elicitation/complete``,
``list_changed`` broadcasts) to the standalone GET stream. The
:class:`SessionRegistry` finds sessions by id and expires idle ones.
"""

from __future__ import annotations

import collections
import itertools
import logging
import queue
import re
import secrets
import threading
import time
import typing as t

from ..... import json_rpc
from ..streams.event_store import EventStore
from ..streams.sse import QueueItem, Stream

if t.TYPE_CHECKING:
    from .....server import Server
    from ....auth import Principal

logger = logging.getLogger("mcp_sdk.server")

#: The stream id of the standalone GET stream.
STANDALONE = "0"
#: Finished POST streams whose events stay replayable, per session.
RETAINED_STREAMS = 8
#: Seconds a session lives without activity by default (as the Ruby SDK).
DEFAULT_IDLE_TIMEOUT = 30 * 60.0
#: Seconds a session that sent nothing after ``initialize`` lives by default.
UNUSED_TIMEOUT = 30.0
#: Seconds without activity after which a session may be closed to make room when
#: ``max_sessions`` are open: a full registry locks new clients out for no longer.
EVICTABLE_AFTER = 60.0
#: Sessions looked at, oldest first, for one to close to make room.
EVICTION_SCAN = 256

EventStoreFactory = t.Callable[[str], EventStore]


#: The form of every id :func:`new_session_id` makes: 32 characters of URL-safe base64.
SESSION_ID = re.compile(r"[A-Za-z0-9_-]{32}")


def new_session_id() -> str:
    """A cryptographically random session id of visible ASCII (URL-safe base64, 192 bits)."""
    return secrets.token_urlsafe(24)


def is_session_id(value: t.Any) -> bool:
    """Whether ``value`` has the form of an id :func:`new_session_id` makes.

    A shared store checks this before an ``Mcp-Session-Id`` becomes part of a key: an id of
    another form was never issued, and must not name another key (``<id>:evs``).
    """
    return type(value) is str and SESSION_ID.fullmatch(value) is not None


class HTTPSession:
    """The transport's state for one session.

    :param server: the server whose session this is.
    :param session_id: the ``Mcp-Session-Id``.
    :param event_store: makes the session's event store when its first stream opens.
    :param can_send_requests: False in JSON response mode (no stream to carry them).
    :param principal: who created the session (None: no authentication); only they may use it.
    """

    def __init__(
        self,
        server: Server,
        session_id: str,
        event_store: EventStoreFactory,
        can_send_requests: bool = True,
        principal: Principal | None = None,
    ) -> None:
        self.id = session_id
        self.principal = principal
        self._event_store_factory = event_store
        self._store: EventStore | None = None
        self._lock = threading.Lock()
        self._streams: dict[str, Stream] = {}
        self._by_request: dict[t.Any, Stream] = {}
        self._numbers = itertools.count(1)
        #: Prepended to the numbers of POST streams (a shared session's streams are unique across processes).
        self.stream_prefix = ""
        self._retained: collections.deque[str] = collections.deque()  # finished streams, oldest first
        self.last_active = time.monotonic()
        #: Whether the client sent anything after ``initialize``.
        self.engaged = False
        #: Requests of this session answered over SSE and not finished (queued or running).
        self.running_requests = 0
        self.closed = False
        self.server_session = server.create_session(self._send, session_id)
        self.server_session.can_send_requests = can_send_requests
        self.server_session.stream_closer = self.close_request_stream
        self.server_session.auth = principal

    def belongs_to(self, principal: Principal | None) -> bool:
        """Whether ``principal`` is the one who created the session (same issuer, subject, client).

        :param principal: the caller of a request, or None when unauthenticated.
        """
        if self.principal is None:
            return principal is None
        return self.principal.same_as(principal)

    # -- streams -------------------------------------------------------------

    @property
    def store(self) -> EventStore:
        """The session's event store (made on first use: idle sessions stay small)."""
        store = self._store
        if store is None:
            created = self._event_store_factory(self.id)  # the user's code: not under our lock
            with self._lock:
                if self._store is None:
                    self._store = created
                store = self._store
        return store

    def open_request_stream(
        self, request_ids: t.Sequence[t.Any], consumer: queue.SimpleQueue[QueueItem] | None = None
    ) -> Stream:
        """A new stream carrying the answers to ``request_ids`` (one POST).

        :param request_ids: the JSON-RPC ids of the POST's requests.
        :param consumer: the queue of the connection that reads the stream from its start (None: none yet).
        """
        store = self.store
        with self._lock:
            stream = Stream(f"{self.stream_prefix}{next(self._numbers)}", store, request_ids, consumer)
            self._streams[stream.stream_id] = stream
            self.running_requests += 1
            for request_id in request_ids:
                # An id still in flight keeps its stream: the duplicate is refused and must change nothing.
                self._by_request.setdefault(request_id, stream)
        return stream

    def finish_request_stream(self, stream: Stream, response: t.Any, text: str | None) -> None:
        """Put the POST's answer (None: none) as the stream's last event."""
        with self._lock:
            self.running_requests -= 1
            for request_id in stream.request_ids:
                if self._by_request.get(request_id) is stream:
                    del self._by_request[request_id]
        if not stream.finish(response, text):  # nobody is reading it: it waits for a resumption, among the retained few
            self._retain(stream)

    def standalone_stream(self) -> Stream:
        """The standalone GET stream, made on first use."""
        store = self.store
        with self._lock:
            stream = self._streams.get(STANDALONE)
            if stream is None:
                stream = self._streams[STANDALONE] = Stream(STANDALONE, store)
        return stream

    def claim_standalone(self) -> bool:
        """Take the session's one GET stream for a connection of this process (in-process: always yes)."""
        return True

    def running_elsewhere(self, stream_id: str) -> bool:
        """Whether ``stream_id`` is still running in another process (in-process: never)."""
        return False

    def find_stream(self, stream_id: str) -> Stream | None:
        """The live stream with this id, if any.

        :param stream_id: the stream's id (the prefix of its event ids).
        """
        with self._lock:
            return self._streams.get(stream_id)

    def stream_ended(self, stream: Stream, delivered: bool) -> None:
        """A connection to ``stream`` ended; ``delivered``: the final answer was written to it.

        :param stream: the stream whose connection ended.
        :param delivered: whether the final answer was written to it (or handed to the WSGI server
            in a body known whole).
        """
        self.touch()
        if delivered:  # the usual end: the stream's answer was written
            if stream.stream_id != STANDALONE:
                self._retain(stream, delivered=True)
            return
        if stream.stream_id == STANDALONE:
            return
        if not stream.done and not stream.primed:
            # The client cannot resume this stream (no priming event): nobody can get the answer.
            for request_id in stream.request_ids:
                with self._lock:
                    mine = self._by_request.get(request_id) is stream
                if mine:
                    self.server_session.cancel_request(request_id, "The client disconnected")
        if stream.done:
            self._retain(stream)

    def _retain(self, stream: Stream, delivered: bool = False) -> None:
        """Keep a finished stream replayable, but only the last :data:`RETAINED_STREAMS` of them.

        A write that "succeeded" may never have reached a client that just vanished, and a
        client may come back for an answer that finished while it was away.

        :param delivered: its answer was written: the stream itself is dropped (its events stay).
        """
        evicted = None
        stream_id = stream.stream_id
        with self._lock:
            if delivered and self._streams.get(stream_id) is stream:
                del self._streams[stream_id]
            retained = self._retained
            if stream_id in retained:
                return
            retained.append(stream_id)
            if len(retained) > RETAINED_STREAMS:
                evicted = retained.popleft()
                old = self._streams.get(evicted)
                if old is not None and not old.attached:
                    del self._streams[evicted]
        store = self._store
        if evicted is not None and store is not None:
            store.forget_stream(evicted)

    def close_request_stream(self, request_id: t.Any) -> bool:
        """End the connection carrying ``request_id``'s answer, if the client can resume it.

        :param request_id: the JSON-RPC id of the request whose answer the connection carries.
        :returns: whether a connection was closed.
        """
        with self._lock:
            stream = self._by_request.get(request_id)
        if stream is None or not stream.primed:
            return False
        return stream.close_connection()

    def close_standalone_stream(self) -> bool:
        """End the standalone GET connection (the client reconnects with ``Last-Event-ID``)."""
        stream = self.find_stream(STANDALONE)
        return stream is not None and stream.close_connection()

    def has_connections(self) -> bool:
        """Whether an SSE connection is open on any stream."""
        with self._lock:
            streams = list(self._streams.values())
        return any(stream.attached for stream in streams)

    # -- routing what the core writes -----------------------------------------

    def _send(self, message: dict[str, t.Any], related_request_id: t.Any) -> None:
        if related_request_id is not None:
            with self._lock:
                stream = self._by_request.get(related_request_id)
            if stream is None:
                return  # no stream for that request (JSON response mode, or it finished): dropped
        else:
            with self._lock:
                stream = self._streams.get(STANDALONE)
            if stream is None:
                return  # the client never opened a GET stream: nothing to resume, dropped
        try:
            text = json_rpc.encode(message)
        except (TypeError, ValueError) as error:
            self.server_session.server.report_exception(error, {"notification": message.get("method")})
            return
        stream.put(message, text)

    # -- lifecycle -----------------------------------------------------------

    def touch(self, now: float | None = None) -> None:
        """Note activity (a request, or a connection ending) for the idle timeout.

        :param now: the ``time.monotonic()`` time of it, when the caller read the clock already.
        """
        self.last_active = time.monotonic() if now is None else now

    def note_request(self) -> None:
        """Note a request of the client after ``initialize``."""
        self.engaged = True
        self.last_active = time.monotonic()

    def idle_for(self, now: float) -> float:
        """Seconds without client activity; 0 while an SSE connection is open.

        Requests still running do not keep a session alive: its client may be gone.

        :param now: the ``time.monotonic()`` time to measure to.
        """
        if self.has_connections():
            return 0.0
        return now - self.last_active

    def expired(self, now: float, idle_timeout: float | None, unused_timeout: float | None) -> bool:
        """Whether the session outlived ``idle_timeout``, or ``unused_timeout`` without a request after ``initialize``.

        :param now: the ``time.monotonic()`` time to judge at.
        :param idle_timeout: seconds without activity a session may last (None: forever).
        :param unused_timeout: seconds a session that sent nothing after ``initialize`` may last (None: forever).
        """
        if idle_timeout is None and (unused_timeout is None or self.engaged):
            return False
        # idle_for(now) is at most the time since the last activity: within the timeouts by that,
        # no need to look at the connections.
        if not self._past(now - self.last_active, idle_timeout, unused_timeout):
            return False
        return self._past(self.idle_for(now), idle_timeout, unused_timeout)

    def _past(self, idle: float, idle_timeout: float | None, unused_timeout: float | None) -> bool:
        """Whether ``idle`` seconds without activity outlast the timeouts (see :meth:`expired`)."""
        if idle_timeout is not None and idle > idle_timeout:
            return True
        return not self.engaged and unused_timeout is not None and idle > unused_timeout

    def expire_events(self) -> None:
        """Let the event store drop what is past its retention (the reaper calls this)."""
        store = self._store
        if store is not None:
            try:
                store.expire()
            except Exception:  # the user's store: one failing must not stop expiry for the others
                logger.exception("MCP event store expire() failed")

    def close(self, reason: str = "Session terminated") -> None:
        """End the session: cancel its requests, end its connections, drop its events.

        :param reason: the reason given to the cancelled requests.
        """
        with self._lock:
            if self.closed:
                return
            self.closed = True
            streams = list(self._streams.values())
            self._streams.clear()
            self._by_request.clear()
        self.server_session.close(reason)
        for stream in streams:
            stream.close_connection(resumable=False)
        store = self._store
        if store is not None:
            store.close()

    def __repr__(self) -> str:
        return f"<HTTPSession {self.id[:8]}... streams={len(self._streams)}>"


class SessionRegistry:
    """The open sessions by id, bounded in number, with a reaper thread expiring idle ones.

    :param idle_timeout: seconds without activity after which a session expires (None: never).
    :param max_sessions: the most sessions open at once (None: no limit). When full, a
        session idle for :data:`EVICTABLE_AFTER` seconds is closed to make room.
    :param unused_timeout: seconds a session that sent nothing after ``initialize`` lives (None: no limit).
    """

    def __init__(
        self, idle_timeout: float | None = None, max_sessions: int | None = None, unused_timeout: float | None = None
    ) -> None:
        self.idle_timeout = idle_timeout
        self.max_sessions = max_sessions
        self.unused_timeout = unused_timeout
        self._lock = threading.Lock()
        self._sessions: dict[str, HTTPSession] = {}  # least recently used first
        self._stop = threading.Event()
        self._reaper: threading.Thread | None = None  # runs while there are sessions to expire
        timeouts = [timeout for timeout in (idle_timeout, unused_timeout) if timeout is not None]
        self._interval = min(max(min(timeouts) / 4, 0.05), 30.0) if timeouts else None

    def __len__(self) -> int:
        return len(self._sessions)

    def new_session(
        self,
        server: Server,
        session_id: str,
        event_store: EventStoreFactory,
        can_send_requests: bool = True,
        principal: Principal | None = None,
    ) -> HTTPSession:
        """A new session of this registry's kind (not yet added).

        :param server: the server the session belongs to.
        :param session_id: the ``Mcp-Session-Id``.
        :param event_store: makes the session's event store (by session id).
        :param can_send_requests: False in JSON response mode (no server-to-client requests).
        :param principal: the caller who opened the session, if authenticated.
        """
        return HTTPSession(server, session_id, event_store, can_send_requests, principal)

    def route(self, session: HTTPSession, message: t.Any) -> t.Any:
        """What of a POSTed ``message`` this process handles (a shared registry forwards the rest).

        :param session: the session the POST is for.
        :param message: the POSTed message or batch.
        """
        return message

    def commit(self, session: HTTPSession) -> None:
        """Save what a request changed in the session's state (in-process: nothing to do).

        :param session: the session a request used.
        """

    def _expired(self, session: HTTPSession, now: float) -> bool:
        return session.expired(now, self.idle_timeout, self.unused_timeout)

    def add(self, session: HTTPSession) -> bool:
        """Register ``session``; False when ``max_sessions`` are open and none can make room.

        :param session: a session from :meth:`new_session`.
        """
        while True:
            with self._lock:
                if self.max_sessions is None or len(self._sessions) < self.max_sessions:
                    self._keep(session)
                    return True
                victim = self._evictable()
                if victim is None:
                    return False
                del self._sessions[victim.id]
            victim.close("Session expired")  # outside the lock: cancels requests, ends connections

    def _keep(self, session: HTTPSession) -> None:
        """Hold ``session`` as the most recently used, starting the reaper if need be (under the lock)."""
        self._sessions[session.id] = session
        if self._reaper is None and self._interval is not None and not self._stop.is_set():
            self._reaper = threading.Thread(target=self._reap_loop, name="mcp-http-session-reaper", daemon=True)
            self._reaper.start()

    def _evictable(self) -> HTTPSession | None:
        """The least recently used session that is expired or idle long enough to make room (under the lock)."""
        now = time.monotonic()
        for session in itertools.islice(self._sessions.values(), EVICTION_SCAN):
            if self._expired(session, now) or session.idle_for(now) > EVICTABLE_AFTER:
                return session
            if now - session.last_active <= EVICTABLE_AFTER and not session.has_connections():
                break  # the rest were used more recently still
        return None

    def get(self, session_id: str) -> HTTPSession | None:
        """The open session with this id, marked active; an expired one is closed and not returned.

        The check and the mark happen under the registry's lock, as the reaper's
        re-check does: a session handed to a request is never reaped under it.

        :param session_id: the ``Mcp-Session-Id`` a request sent.
        """
        with self._lock:
            session = self._sessions.get(session_id)
            if session is None:
                return None
            now = time.monotonic()
            expired = self._expired(session, now)
            del self._sessions[session_id]
            if not expired:
                self._sessions[session_id] = session  # now the most recently used
                session.touch(now)
        if expired:
            session.close("Session expired")
            return None
        return session

    def remove(self, session_id: str, reason: str = "Session terminated") -> HTTPSession | None:
        """Take the session out and close it.

        :param session_id: the session's id.
        :param reason: the reason given to its cancelled requests.
        :returns: the session, or None when there was none.
        """
        with self._lock:
            session = self._sessions.pop(session_id, None)
        if session is not None:
            session.close(reason)
        return session

    def snapshot(self) -> list[HTTPSession]:
        """The sessions this process holds right now, as a list (a copy: it does not change as sessions come and go)."""
        with self._lock:
            return list(self._sessions.values())

    def reap(self) -> int:
        """Close the expired sessions, and let the others' event stores drop old events; returns how many closed."""
        now = time.monotonic()
        candidates = []
        for session in self.snapshot():
            if self._expired(session, now):
                candidates.append(session)
            else:
                session.expire_events()
        reaped = 0
        for session in candidates:
            with self._lock:
                # A request may have taken the session since the snapshot: look again.
                if self._sessions.get(session.id) is not session or not self._expired(session, time.monotonic()):
                    continue
                del self._sessions[session.id]
            session.close("Session expired")
            reaped += 1
        return reaped

    def _reap_loop(self) -> None:
        assert self._interval is not None
        while not self._stop.wait(self._interval):
            try:
                self.reap()
            except Exception:  # keep reaping; one bad session must not stop expiry for all
                logger.exception("MCP session reaper failed")
            with self._lock:
                if not self._sessions:  # nothing left to expire: the next session starts a new reaper
                    self._reaper = None
                    return

    def close(self, timeout: float = 5.0) -> None:
        """Stop the reaper and close every session.

        :param timeout: seconds to wait for the reaper thread.
        """
        self._stop.set()
        with self._lock:
            reaper = self._reaper
        if reaper is not None and reaper is not threading.current_thread():
            reaper.join(timeout)
        with self._lock:
            sessions = list(self._sessions.values())
            self._sessions.clear()
        for session in sessions:
            session.close("Server shutting down")


__all__ = ["DEFAULT_IDLE_TIMEOUT", "EVICTABLE_AFTER", "HTTPSession", "STANDALONE", "SessionRegistry", "UNUSED_TIMEOUT", "is_session_id", "new_session_id"]
