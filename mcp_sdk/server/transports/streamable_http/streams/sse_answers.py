"""Requests answered over SSE: the connection place each holds, the pool thread it runs on, the stream it writes.

Both eras use it: a 2025 session's POST (its stream belongs to the session) and
a stateless one (``stateless=True``, or a 2026-07-28 request), whose stream
:class:`SSEAnswers` keeps until the answer is written, so that ``close()`` can
end it and a dropped connection cancels the request.
"""

from __future__ import annotations

import functools
import queue
import threading
import time
import typing as t

from ..... import error_codes, json_rpc
from .....errors import TransportError
from ....session import ServerSession
from ..capacity.thread_capacity import ThreadCapacity
from ..wire.connection import disconnect_probe
from ..wire.http_io import Answer, HTTPRequestError
from ..capacity.limits import StreamLimits
from ..sessions.request_channel import RequestChannel
from ..sessions.http_session import HTTPSession
from .sse import SSE_HEADERS, QueueItem, SSEBody, Stream, give_back
from ..capacity.workers import WorkerPool

if t.TYPE_CHECKING:
    from .....server import Server
    from ....request import Incoming

WSGIEnvironment = t.Dict[str, t.Any]

#: The WSGI threads assumed without a :class:`ThreadCapacity` (waitress's default).
DEFAULT_THREADS = 4
#: Seconds a request's SSE answer waits before its headers go out: a stream that ends by then is
#: written whole, with a Content-Length, in one piece (no chunked encoding).
FIRST_EVENT_WAIT = 0.01
#: Seconds :meth:`SSEAnswers.close_listens` waits, by default, for listen streams to write their final result.
GRACEFUL_CLOSE_WAIT = 1.0
#: Where a request keeps the stream place it took until :meth:`SSEAnswers.watch` hands it to its
#: answer: a request without one, answered without a stream, has nothing to watch.
STREAM_PLACE_KEY = "mcp_sdk.release_stream"


class SSEAnswers:
    """Runs requests on the pool and answers them with their SSE stream.

    :param server: runs the requests.
    :param pool: the threads they run on.
    :param limits: the caps on open SSE connections.
    :param keepalive_interval: seconds between keep-alive comments on an idle stream.
    :param retry_ms: the SSE ``retry`` field of 2025 streams (None: left out).
    :param max_requests_per_session: requests of one session answered over SSE and not yet finished.
    :param capacity: the WSGI threads, how many are busy, how long a resumable stream is held
        (default: 4 threads, streams held as long as they last).
    :param sizes: ``sizes(threads)`` gives the stream caps ``(total, per_session)`` for a WSGI
        server of ``threads`` threads, when the server tells its count (None: the caps never change).
    """

    def __init__(
        self,
        server: Server,
        pool: WorkerPool,
        limits: StreamLimits,
        *,
        keepalive_interval: float,
        retry_ms: int | None,
        max_requests_per_session: int,
        capacity: ThreadCapacity | None = None,
        sizes: t.Callable[[int], tuple[int, int]] | None = None,
    ) -> None:
        self.server = server
        self._capacity = capacity or ThreadCapacity(DEFAULT_THREADS, detect=False, max_hold=None)
        self._sizes = sizes
        self._capacity.resized = self._resize  # the server told its thread count (the first request)
        self.keepalive_interval = keepalive_interval
        self.retry_ms = retry_ms
        self.max_requests_per_session = max_requests_per_session
        #: Seconds an SSE answer waits before its headers go out (see :data:`FIRST_EVENT_WAIT`).
        self.first_event_wait = FIRST_EVENT_WAIT
        self._pool = pool
        self._limits = limits
        self._closed = False
        #: Stateless requests answering over SSE now: close() cancels them and ends their connections.
        self._stateless: dict[Stream, ServerSession] = {}
        self._lock = threading.Lock()

    # -- connection places -----------------------------------------------------

    def _resize(self, threads: int) -> None:
        if self._sizes is not None:
            self._limits.resize(*self._sizes(threads))

    def hold(
        self, environ: WSGIEnvironment, session: HTTPSession | None, request_id: t.Any = None, *, polled: bool = False
    ) -> float | None:
        """Take a place for one more SSE connection of ``session`` (None: stateless), kept until
        :meth:`watch` hands it on, and say how long the connection may stay open.

        :param polled: the client resumes streams the server closes (protocol 2025-11-25): past a
            cap, or with threads running low, it is not refused but answered at once (it polls).
        :return: seconds the connection may stay open (None: as long as its stream lasts).
        :raises HTTPRequestError: 429 or 503 with ``Retry-After`` past a cap (only when not ``polled``).
        """
        if session is None:
            environ[STREAM_PLACE_KEY] = self._limits.acquire(object(), request_id)
            return None
        if request_id is not None and session.running_requests >= self.max_requests_per_session:
            raise HTTPRequestError(
                429,
                f"Too Many Requests: this session has {session.running_requests} requests running "
                f"(the most is {self.max_requests_per_session})",
                headers={"Retry-After": "1"},
                request_id=request_id,
            )
        if not polled:
            environ[STREAM_PLACE_KEY] = self._limits.acquire(session.id, request_id)
            return None
        try:
            environ[STREAM_PLACE_KEY] = self._limits.acquire(session.id, request_id)
        except HTTPRequestError:
            return 0.0  # no place to hold it: what is pending, and a retry
        return self._capacity.hold()

    def admit_listen(self, environ: WSGIEnvironment, channel: ServerSession, owner: t.Hashable, request_id: t.Any) -> None:
        """Take a place for a 2026-07-28 ``subscriptions/listen`` stream (kept until :meth:`watch`
        hands it on), and give its connection what ends it gracefully (the bound in
        :attr:`ThreadCapacity.listens`: a listen of a client holding more may be ended to make room).

        :param owner: who holds it: a principal's key, or an anonymous client's address.
        :raises HTTPRequestError: 429 with ``Retry-After`` for one owner past its share.
        """
        channel.graceful_end, environ[STREAM_PLACE_KEY] = self._capacity.listens.admit(owner, request_id)

    def watch(self, environ: WSGIEnvironment, answer: Answer, leave: t.Callable[[], None] | None) -> Answer:
        """Tie the stream place the request took (if any) and its count in flight (``leave()`` ends
        it, see :meth:`ThreadCapacity.enter`) to its SSE answer, and watch for the client leaving.

        An SSE answer known whole (see :meth:`SSEBody.prefetch`) goes out as one piece, as a JSON
        answer does: its connection to the stream ends now (:meth:`SSEBody.hand_over`), and its
        place and count in flight are given back at once, as a JSON answer's are.
        """
        release = environ.pop(STREAM_PLACE_KEY, None)
        body = answer.body
        if type(body) is not SSEBody:
            give_back(release, leave)
        elif body.complete:
            answer.body = body.hand_over(release, leave)
        else:
            body.watch(disconnect_probe(environ), release, leave, self._capacity.probe_interval)
        return answer

    # -- stateless streams -----------------------------------------------------

    def open_stateless(
        self, server_session: RequestChannel, ids: t.Sequence[t.Any]
    ) -> tuple[Stream, queue.SimpleQueue[QueueItem]]:
        """The SSE stream of a request with no session (``stateless=True``, or 2026-07-28), which
        :meth:`end_stateless` ends and whose dropped connection cancels the request."""
        stream = server_session.stream = Stream("0", None, ids)
        consumer, _ = stream.attach()
        with self._lock:
            self._stateless[stream] = server_session
        if self._closed:  # close() ran since the transport's check: it did not see this stream
            self.stateless_ended(stream, False)
        return stream, consumer

    def stateless_ended(self, stream: Stream, delivered: bool) -> None:
        """A stateless SSE answer ended; without its answer written, nobody can get it any more: cancel."""
        with self._lock:
            server_session = self._stateless.pop(stream, None)
        if server_session is not None and not delivered:
            server_session.close("The client disconnected" if not self._closed else "Server shutting down")
            stream.close_connection(resumable=False)

    def close_listens(self, wait: float = GRACEFUL_CLOSE_WAIT) -> None:
        """Start closing: open ``subscriptions/listen`` streams get ``wait`` seconds to write their result."""
        self._closed = True
        with self._lock:
            listening = any(stream.listen for stream in self._stateless)
        if not listening:
            return
        self.server.close_subscriptions()
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            with self._lock:
                if not any(stream.listen for stream in self._stateless):
                    return
            time.sleep(0.01)

    def end_stateless(self) -> None:
        """Cancel every stateless request still answering and end its connection."""
        self._closed = True
        with self._lock:
            streams = list(self._stateless)
        for stream in streams:
            self.stateless_ended(stream, False)

    # -- answering -------------------------------------------------------------

    def answer(
        self,
        server_session: ServerSession,
        incoming: Incoming,
        stream: Stream,
        consumer: queue.SimpleQueue[QueueItem],
        preamble: list[bytes],
        finish: t.Callable[[t.Any, str | None], object],
        on_end: t.Callable[[Stream, bool], None] | None,
        *,
        first_event_wait: float | None = None,
        hold: float | None = None,
    ) -> Answer:
        """Run ``incoming`` on the pool and answer with its SSE stream: whole, with a length, if it
        ends within ``first_event_wait`` seconds (default :attr:`first_event_wait`).

        :param incoming: the POST's message, as the transport read it (its era decided, its handler
            routed); the server answers it with :meth:`Server.receive`.
        :param hold: seconds the connection stays open at most (see :class:`SSEBody`); the request runs on.
        """
        retry_ms = None if incoming.modern else self.retry_ms  # 2026-07-28 streams are never resumed
        body = SSEBody(
            stream, consumer, preamble, keepalive=self.keepalive_interval, retry_ms=retry_ms, on_end=on_end, hold=hold
        )
        # The request may wait for a free worker: its token exists from now on, so a
        # notifications/cancelled POSTed meanwhile still reaches it.
        request_id = incoming.id
        if json_rpc.is_valid_id(request_id):
            incoming.cancellation = server_session.accept(request_id)
        try:
            self._pool.submit(  # a partial: no closure cells, no Python frame of its own
                functools.partial(self._run, server_session, incoming, finish), owner=server_session
            )
        except TransportError:
            if incoming.cancellation is not None:
                server_session.forget(request_id)
            finish(None, None)
            body.close()
            raise HTTPRequestError(503, "Service Unavailable: the MCP transport is closed") from None
        length = body.prefetch(self.first_event_wait if first_event_wait is None else first_event_wait)
        if length is None:
            return Answer(200, list(SSE_HEADERS), body)
        return Answer(200, [*SSE_HEADERS, ("Content-Length", str(length))], body)

    def _run(self, server_session: ServerSession, incoming: Incoming, finish: t.Callable[[t.Any, str | None], object]) -> None:
        """On a worker thread: handle the POST's message, then end its stream with the answer."""
        response: t.Any = None
        text: str | None = None
        try:
            response = self.server.receive(incoming, server_session)
            text = server_session.encode(response)
        except Exception as error:  # the core answers errors itself; this is the last resort
            self.server.report_exception(error, {"request": incoming.message})
            response = _internal_errors(incoming)
            text = json_rpc.encode(response)
        finally:
            finish(response, text)


def _internal_errors(incoming: Incoming) -> t.Any:
    """``-32603`` answers to every request of ``incoming`` (when handling it failed outright)."""
    message = incoming.message
    if type(message) is list:
        return [json_rpc.error(request_id, error_codes.INTERNAL_ERROR) for request_id in incoming.request_ids()]
    return json_rpc.error(message.get("id") if type(message) is dict else None, error_codes.INTERNAL_ERROR)


__all__ = ["FIRST_EVENT_WAIT", "GRACEFUL_CLOSE_WAIT", "STREAM_PLACE_KEY", "SSEAnswers"]
