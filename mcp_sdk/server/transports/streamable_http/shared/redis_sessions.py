"""Sessions shared by every process through Redis: any worker serves any session's POST, GET and DELETE.

The session's record (protocol version, client info and capabilities, log
level, initialized flag, last activity, owner) lives in Redis and expires after
``session_idle_timeout`` without activity; a sorted set of the live sessions
holds ``max_sessions`` across workers. Each worker keeps a local copy
(:class:`SharedHTTPSession`) of the sessions it serves, reloaded from the record
on each request, and routes what it cannot act on itself through the
:class:`~.redis_backplane.RedisBackplane`:

- a session-scoped message (``resources/updated``, ``elicitation/complete``) goes to the
  worker holding the session's GET stream (a key names it); ``list_changed``
  broadcasts travel on the subscription bus and each worker writes them to the GET
  streams it holds;
- a client's response to a server-to-client request goes to the worker whose tool
  thread waits (the request id starts with that worker's id);
- ``notifications/cancelled`` reaches every worker (only the one running the request acts);
- DELETE ends the session's streams and requests on every worker.

A request's stream is noted in Redis with its worker while it runs: a client
resuming it on another worker gets the stored events, then (SEP-1699 polling) a
``retry`` to come back, or, when that worker's heartbeat stopped, a JSON-RPC
error for each request it lost.
"""

from __future__ import annotations

import itertools
import json
import logging
import re
import time
import typing as t

from ..... import error_codes, json_rpc, methods
from ....._redis import register_script
from .redis_backplane import WORKER_ID, RedisBackplane, text
from .redis_event_store import RedisEventStore
from ..sessions.http_session import EVICTABLE_AFTER, STANDALONE, EventStoreFactory, HTTPSession, SessionRegistry, is_session_id

if t.TYPE_CHECKING:
    from .....server import Server
    from ....auth import Principal

logger = logging.getLogger("mcp_sdk.server")

#: Seconds at most a worker serves its copy of a session without checking the record in Redis.
VERIFY_INTERVAL = 1.0
#: Seconds the key naming a session's GET-stream worker lives without being refreshed.
HOLDER_TTL = 15
#: ``list_changed`` notifications, carried by the subscription bus rather than each session.
LIST_CHANGED = {
    "tools": methods.NOTIFICATIONS_TOOLS_LIST_CHANGED,
    "prompts": methods.NOTIFICATIONS_PROMPTS_LIST_CHANGED,
    "resources": methods.NOTIFICATIONS_RESOURCES_LIST_CHANGED,
}
_LIST_CHANGED_METHODS = frozenset(LIST_CHANGED.values())
#: The id of a server-to-client request: ``<worker id>:<n>`` (``ServerSession.request_id_prefix``).
REQUEST_ID = re.compile(rf"({WORKER_ID.pattern}):[1-9][0-9]{{0,19}}")

_ADD = """
if tonumber(ARGV[2]) > 0 then
  local n = redis.call('ZCARD', KEYS[1])
  if n >= tonumber(ARGV[2]) then
    for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, 255)) do
      if redis.call('EXISTS', ARGV[4] .. id) == 0 then redis.call('ZREM', KEYS[1], id); n = n - 1 end
    end
    if n >= tonumber(ARGV[2]) then return 0 end
  end
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], 'a', ARGV[1], 'e', '0', 'p', ARGV[6])
if tonumber(ARGV[5]) > 0 then redis.call('EXPIRE', KEYS[2], ARGV[5]) end
return 1
"""

_TOUCH = """
local record = redis.call('HGETALL', KEYS[1])
if #record == 0 then redis.call('ZREM', KEYS[2], ARGV[3]) return record end
redis.call('HSET', KEYS[1], 'a', ARGV[1], 'e', '1')
if tonumber(ARGV[2]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[3])
return record
"""


def _principal_key(principal: Principal | None) -> str:
    return "" if principal is None else json.dumps(list(principal.key))


class SharedHTTPSession(HTTPSession):
    """This worker's copy of a session shared through Redis.

    :param registry: the registry of the shared sessions.
    :param server: the server the session belongs to.
    :param session_id: the ``Mcp-Session-Id``.
    :param event_store: makes the session's event store (by session id).
    :param can_send_requests: False in JSON response mode (no server-to-client requests).
    :param principal: the caller who opened the session, if authenticated.

    :class:`RedisSessionRegistry` makes and restores them; applications do not construct them.
    """

    def __init__(
        self,
        registry: RedisSessionRegistry,
        server: Server,
        session_id: str,
        event_store: EventStoreFactory,
        can_send_requests: bool = True,
        principal: Principal | None = None,
    ) -> None:
        super().__init__(server, session_id, event_store, can_send_requests, principal)
        self.registry = registry
        self.backplane = registry.backplane
        self.key = registry.session_key(session_id)
        worker = self.backplane.worker_id
        self.stream_prefix = f"{worker}."
        self._numbers = registry.stream_numbers  # unique in this process, whatever copy of the session
        self.server_session.request_id_prefix = f"{worker}:"
        self.principal_key = _principal_key(principal)
        #: The state as last read from or written to Redis.
        self.saved_state: dict[str, str] = {}
        #: When (monotonic) the copy was last checked against Redis; 0: check at the next request.
        self.verified_at = 0.0
        #: Whether a request came since the last heartbeat (which then marks the session active in Redis).
        self.active = False
        self._noted: set[str] = set()  # running streams noted in Redis (the writer thread's alone)

    def belongs_to(self, principal: Principal | None) -> bool:
        return self.principal_key == _principal_key(principal)

    # -- state ------------------------------------------------------------------

    def state(self) -> dict[str, str]:
        """What of the core session the record keeps."""
        session = self.server_session
        return {
            "v": session.protocol_version or "",
            "ci": "" if session.client_info is None else json.dumps(session.client_info),
            "cc": json.dumps(session.client_capabilities),
            "ll": session.log_level or "",
            "i": "1" if session.initialized else "0",
        }

    def load(self, record: dict[str, str]) -> None:
        """Take the session's state from its Redis record.

        :param record: the session's Redis hash.
        """
        session = self.server_session
        session.protocol_version = record.get("v") or None
        client_info = record.get("ci")
        session.client_info = json.loads(client_info) if client_info else None
        capabilities = record.get("cc")
        session.client_capabilities = json.loads(capabilities) if capabilities else {}
        session.log_level = record.get("ll") or None
        session.initialized = record.get("i") == "1"
        self.saved_state = self.state()

    # -- streams ---------------------------------------------------------------

    def claim_standalone(self) -> bool:
        """Hold the session's GET stream for this worker, unless a live worker holds it."""
        redis, key, worker = self.backplane.redis, f"{self.key}:get", self.backplane.worker_id
        if redis.set(key, worker, nx=True, ex=HOLDER_TTL):
            return True
        holder = redis.get(key)
        if holder is not None and text(holder) != worker and self.backplane.alive(text(holder)):
            return False
        redis.set(key, worker, ex=HOLDER_TTL)  # ours already, or its worker died
        return True

    def stream_ended(self, stream: t.Any, delivered: bool) -> None:
        super().stream_ended(stream, delivered)
        if stream.stream_id == STANDALONE and not stream.attached:
            try:
                key = f"{self.key}:get"
                holder = self.backplane.redis.get(key)
                if holder is not None and text(holder) == self.backplane.worker_id:
                    self.backplane.redis.delete(key)
            except self.backplane.errors:
                pass  # the key expires by itself

    def open_request_stream(self, request_ids: t.Sequence[t.Any], consumer: t.Any = None) -> t.Any:
        stream = super().open_request_stream(request_ids, consumer)
        note = json.dumps({"w": self.backplane.worker_id, "ids": list(request_ids)})
        running, stream_id, ttl = f"{self.key}:run", stream.stream_id, self.registry.record_ttl or 86400

        def write(pipe: t.Any) -> None:
            if stream.done:  # finished before the writer got to it: nothing to note (nor to un-note)
                return
            self._noted.add(stream_id)
            pipe.hset(running, stream_id, note)
            pipe.expire(running, ttl)

        self.backplane.write_behind(write)  # before the stream's events, which follow in order
        return stream

    def finish_request_stream(self, stream: t.Any, response: t.Any, text_: str | None) -> None:
        """Put the POST's answer (None: none) as the stream's last event, and note in Redis that it is done.

        :param stream: the POST's stream.
        :param response: the answer, or None.
        :param text_: the answer's JSON text, when already encoded.
        """
        super().finish_request_stream(stream, response, text_)
        running, stream_id = f"{self.key}:run", stream.stream_id

        def write(pipe: t.Any) -> None:  # after the final event
            if stream_id in self._noted:
                self._noted.discard(stream_id)
                pipe.hdel(running, stream_id)

        self.backplane.write_behind(write)

    def running_elsewhere(self, stream_id: str) -> bool:
        """Whether another live worker runs ``stream_id``; a dead worker's requests get an error event.

        :param stream_id: a stream of this session.
        """
        note = self.backplane.redis.hget(f"{self.key}:run", stream_id)
        if note is None:
            return False
        running = json.loads(text(note))
        if running["w"] == self.backplane.worker_id:
            return False
        if self.backplane.alive(running["w"]):
            return True
        store = self.store
        if self.backplane.redis.hdel(f"{self.key}:run", stream_id) and isinstance(store, RedisEventStore):
            for request_id in running["ids"]:  # one resuming worker writes the errors
                lost = json_rpc.error(
                    request_id, error_codes.INTERNAL_ERROR, "The server process running this request ended; send it again"
                )
                store.append_after_last(stream_id, lost)
        return False

    # -- routing ----------------------------------------------------------------

    def _send(self, message: dict[str, t.Any], related_request_id: t.Any) -> None:
        if related_request_id is not None:
            super()._send(message, related_request_id)  # the request runs here: so does its stream
            return
        if message.get("method") in _LIST_CHANGED_METHODS:
            return  # the subscription bus carries these to every worker's GET streams
        stream = self.find_stream(STANDALONE)
        if stream is not None and stream.attached:
            super()._send(message, None)
            return
        holder = self.backplane.redis.get(f"{self.key}:get")
        if holder is not None and text(holder) != self.backplane.worker_id:
            if self.backplane.send(text(holder), {"k": "note", "s": self.id, "m": message}):
                return
        # Nobody holds the GET stream, or its worker died (its claim outlives it by a heartbeat):
        # kept for the client, which resumes from the store.
        self.store.store_event(STANDALONE, message)

    def put_standalone(self, message: dict[str, t.Any]) -> None:
        """Write a session-scoped message another worker routed here to the GET stream.

        :param message: the JSON-RPC message.
        """
        stream = self.find_stream(STANDALONE)
        if stream is None:
            self.store.store_event(STANDALONE, message)
            return
        try:
            encoded = json_rpc.encode(message)
        except (TypeError, ValueError):
            return
        stream.put(message, encoded)


class RedisSessionRegistry(SessionRegistry):
    """The sessions of every worker, in Redis; this worker's copies in memory.

    :param backplane: the link to Redis and the other workers.
    :param server: the server the sessions belong to.
    :param event_store: makes a session's event store (by session id).
    :param can_send_requests: False in JSON response mode.
    :param idle_timeout: seconds without activity after which a session expires (None: never).
    :param max_sessions: the most sessions open at once (None: no limit).
    :param unused_timeout: seconds a session that sent nothing after ``initialize`` lives (None: no limit).
    """

    def __init__(
        self,
        backplane: RedisBackplane,
        server: Server,
        event_store: EventStoreFactory,
        can_send_requests: bool,
        idle_timeout: float | None = None,
        max_sessions: int | None = None,
        unused_timeout: float | None = None,
    ) -> None:
        super().__init__(idle_timeout, max_sessions, unused_timeout)
        self.backplane = backplane
        self.server = server
        self.event_store = event_store
        self.can_send_requests = can_send_requests
        #: Numbers of request streams in this process (after the worker id: unique across processes).
        self.stream_numbers = itertools.count(1)
        #: Seconds a used session's record outlives its last activity (None: for ever).
        self.record_ttl = None if idle_timeout is None else max(1, int(idle_timeout))
        timeouts = [timeout for timeout in (idle_timeout, unused_timeout) if timeout is not None]
        #: Seconds this worker keeps an idle copy of a session.
        self.local_idle = min(timeouts) if timeouts else 300.0
        #: Seconds a copy is trusted without asking Redis (a DELETE or a state change elsewhere
        #: tells the other workers at once; this bounds staleness if that message is lost).
        self.verify_interval = min(VERIFY_INTERVAL, self.local_idle / 4)
        redis = backplane.redis
        self._add_script = register_script(redis, _ADD)
        self._touch_script = register_script(redis, _TOUCH)
        backplane.on("resp", self._on_response)
        backplane.on("note", self._on_note)
        backplane.on("cancel", self._on_cancel)
        backplane.on("end", self._on_end)
        backplane.on("bus", self._on_bus)
        backplane.on("state", self._on_state)
        backplane.every_beat(self._refresh)

    def session_key(self, session_id: str) -> str:
        """The Redis key holding the shared state of the session ``session_id``.

        :param session_id: the ``Mcp-Session-Id``.
        :returns: the key, under the backplane's prefix.
        """
        return self.backplane.key("s", session_id)

    @property
    def _index(self) -> str:
        return self.backplane.key("sessions")

    def new_session(
        self,
        server: Server,
        session_id: str,
        event_store: EventStoreFactory,
        can_send_requests: bool = True,
        principal: Principal | None = None,
    ) -> HTTPSession:
        return SharedHTTPSession(self, server, session_id, event_store, can_send_requests, principal)

    def _local(self, session_id: str) -> SharedHTTPSession | None:
        with self._lock:
            return t.cast("SharedHTTPSession | None", self._sessions.get(session_id))

    # -- the registry in Redis ----------------------------------------------------

    def add(self, session: HTTPSession) -> bool:
        """Register ``session`` in Redis; False when ``max_sessions`` are open everywhere and none can make room.

        :param session: a session from :meth:`new_session`.
        """
        assert isinstance(session, SharedHTTPSession)
        ttl = self.unused_timeout or self.idle_timeout
        for attempt in range(2):
            added = self._add_script(
                keys=[self._index, session.key],
                args=[time.time(), self.max_sessions or 0, session.id, self.session_key(""), int(ttl or 0), session.principal_key],
            )
            if added:
                break
            victims = self.backplane.redis.zrangebyscore(self._index, "-inf", time.time() - EVICTABLE_AFTER, start=0, num=1)
            if attempt or not victims:
                return False
            self.remove(text(victims[0]), "Session expired")
        with self._lock:
            self._keep(session)
        return True

    def get(self, session_id: str) -> HTTPSession | None:
        """The session, marked active everywhere; this worker's copy, made or refreshed from Redis.

        None for an id :func:`~mcp_sdk.server.transports.streamable_http.sessions.http_session.new_session_id` could not have made: it never reaches Redis.

        :param session_id: the ``Mcp-Session-Id`` a request sent.
        """
        if not is_session_id(session_id):
            return None
        local = self._local(session_id)
        now = time.monotonic()
        if local is not None and not local.closed and now - local.verified_at < self.verify_interval:
            local.engaged = local.active = True
            local.touch()
            return local
        flat = self._touch_script(
            keys=[self.session_key(session_id), self._index], args=[time.time(), self.record_ttl or 0, session_id]
        )
        local = self._local(session_id)
        if not flat:
            if local is not None:
                self._drop_local(session_id, "Session expired")
            return None
        record = {text(flat[i]): text(flat[i + 1]) for i in range(0, len(flat), 2)}
        if local is None:
            made = SharedHTTPSession(self, self.server, session_id, self.event_store, self.can_send_requests)
            made.principal_key = record.get("p", "")
            with self._lock:
                found = self._sessions.get(session_id)
                local = t.cast(SharedHTTPSession, found) if found is not None else made
                self._keep(local)
            if local is not made:
                made.close("Duplicate copy")
        local.load(record)
        local.engaged = True
        local.verified_at = now
        local.touch()
        return local

    def commit(self, session: HTTPSession) -> None:
        """Write what changed in the session's state to its record.

        :param session: the session a request used.
        """
        if not isinstance(session, SharedHTTPSession) or session.closed:
            return
        state = session.state()
        if state != session.saved_state:
            self.backplane.redis.hset(session.key, mapping=state)
            session.saved_state = state
            self.backplane.broadcast({"k": "state", "s": session.id})

    def remove(self, session_id: str, reason: str = "Session terminated") -> HTTPSession | None:
        """End the session everywhere: its record and events go, every worker closes its copy.

        :param session_id: the session's id.
        :param reason: the reason given to its cancelled requests.
        :returns: this worker's copy of the session, or None.
        """
        key = self.session_key(session_id)
        pipe = self.backplane.redis.pipeline()
        pipe.delete(key, f"{key}:get", f"{key}:run")
        pipe.zrem(self._index, session_id)
        pipe.execute()
        RedisEventStore(self.backplane, key).drop()
        self.backplane.broadcast({"k": "end", "s": session_id, "r": reason})
        return self._drop_local(session_id, reason)

    def _drop_local(self, session_id: str, reason: str) -> HTTPSession | None:
        with self._lock:
            session = self._sessions.pop(session_id, None)
        if session is not None:
            session.close(reason)
        return session

    def _expired(self, session: HTTPSession, now: float) -> bool:
        """Whether this worker's copy may go (the session itself expires in Redis)."""
        return session.running_requests == 0 and session.idle_for(now) > self.local_idle

    # -- messages from other workers ------------------------------------------------

    def route(self, session: HTTPSession, message: t.Any) -> t.Any:
        """Forward the responses other workers wait for, and broadcast cancellations; return the rest.

        :param session: the session the POST is for.
        :param message: the POSTed message or batch.
        """
        batch = message if type(message) is list else [message]
        kept = [item for item in batch if not self._forwarded(session, item)]
        if type(message) is list:
            return kept or None
        return kept[0] if kept else None

    def _forwarded(self, session: HTTPSession, item: t.Any) -> bool:
        if type(item) is not dict:
            return False
        if item.get("method") == methods.NOTIFICATIONS_CANCELLED:
            self.backplane.broadcast({"k": "cancel", "s": session.id, "m": item})
            return False  # and handled here too, where it may be running
        response_id = item.get("id")
        if "method" in item or type(response_id) is not str or ":" not in response_id:
            return False
        worker = response_id.partition(":")[0]
        if worker == self.backplane.worker_id:
            return False
        # Only an id this SDK issued names a worker; a made-up one, or one naming a worker that is
        # gone, answers nothing anyone waits for: dropped, never published.
        if REQUEST_ID.fullmatch(response_id) is None or not self.backplane.alive(worker):
            logger.debug("MCP Redis sessions: a response with id %.64r names no live worker; dropped", response_id)
            return True
        self.backplane.send(worker, {"k": "resp", "s": session.id, "m": item})
        return True

    def _on_response(self, message: dict[str, t.Any]) -> None:
        local = self._local(str(message.get("s")))
        if local is not None and type(message.get("m")) is dict and "id" in message["m"]:
            local.server_session.receive_response(message["m"])

    def _on_note(self, message: dict[str, t.Any]) -> None:
        local = self._local(str(message.get("s")))
        if local is not None and type(message.get("m")) is dict:
            local.put_standalone(message["m"])

    def _on_cancel(self, message: dict[str, t.Any]) -> None:
        if message.get("o") == self.backplane.worker_id:
            return
        local = self._local(str(message.get("s")))
        if local is not None and type(message.get("m")) is dict:
            self.server.handle_message(message["m"], local.server_session, modern=False)  # a 2025 session's POST

    def _on_state(self, message: dict[str, t.Any]) -> None:
        """Another worker changed the session's state: reload it at the next request."""
        local = self._local(str(message.get("s")))
        if local is not None and message.get("o") != self.backplane.worker_id:
            local.verified_at = 0.0

    def _on_end(self, message: dict[str, t.Any]) -> None:
        if message.get("o") != self.backplane.worker_id:
            self._drop_local(str(message.get("s")), str(message.get("r") or "Session terminated"))

    def _on_bus(self, message: dict[str, t.Any]) -> None:
        """A list changed: tell the sessions whose GET stream this worker holds."""
        event = message.get("e")
        method = LIST_CHANGED.get(event[0]) if type(event) is list and event else None
        if method is None:
            return
        notification = json_rpc.notification(method)
        for session in self.snapshot():
            stream = session.find_stream(STANDALONE)
            if stream is not None and stream.attached and isinstance(session, SharedHTTPSession):
                session.put_standalone(notification)

    def _refresh(self) -> None:
        """At each heartbeat: sessions with a connection open here stay alive, and so do the GET-stream keys held here."""
        now = time.time()
        pipe = self.backplane.redis.pipeline()
        for session in self.snapshot():
            if not isinstance(session, SharedHTTPSession):
                continue
            active, session.active = session.active, False
            if not active and not session.has_connections():
                continue
            if self.record_ttl is not None:
                pipe.expire(session.key, self.record_ttl)
            pipe.zadd(self._index, {session.id: now}, xx=True)
            stream = session.find_stream(STANDALONE)
            if stream is not None and stream.attached:
                pipe.set(f"{session.key}:get", self.backplane.worker_id, ex=HOLDER_TTL)
        pipe.execute()


__all__ = ["HOLDER_TTL", "RedisSessionRegistry", "SharedHTTPSession"]
