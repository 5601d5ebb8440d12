"""The Streamable HTTP transport: a WSGI application serving one MCP endpoint.

https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http

- ``POST`` carries client messages. Notifications and responses get ``202``.
  A request is answered with ``application/json``, or with ``text/event-stream``
  carrying the request's progress, log messages and server-to-client requests
  before its response.
- ``GET`` opens the session's standalone SSE stream (one at a time, else ``409``)
  for session-scoped messages: ``resources/updated``, ``elicitation/complete``,
  ``list_changed`` broadcasts. With ``Last-Event-ID`` it resumes any stream.
- ``DELETE`` ends the session (``204``).

**When the answer is SSE.** Exactly when the request's handler can send
something before its response, and the client accepts SSE (JSON response mode
off): that is, when the tool, prompt, resource or custom handler declares a
``server_context`` parameter (see :mod:`.streamable_http.dispatch`). The choice is
made before the handler runs, so progress and server-to-client requests reach the
client at once. Everything else (``tools/list``, ``ping``, a tool without
``server_context``) is answered with JSON on the WSGI thread. An SSE answer that
is complete within :data:`FIRST_EVENT_WAIT` goes out whole, with a
``Content-Length``; a longer one streams (chunked).

**Threads.** An SSE answer holds the WSGI server's thread for as long as the
request runs, writing events from a queue (a keep-alive comment every
``keepalive_interval`` seconds reveals a vanished client); the request itself
runs on a pool thread of this transport (``max_workers``, named
``mcp-http-worker-N``). A JSON answer runs on the WSGI thread. The standalone GET
stream holds a WSGI thread while it is open. So a WSGI server needs, per client,
one thread for its GET stream and one per request in flight, plus spares to
receive the client's answers to server-to-client requests (examples/README.md,
"Deploying the HTTP transport"). No lock is held while writing to a client.
Open SSE connections are capped in total and per session (sized from
``wsgi_threads``, see :mod:`.streamable_http.limits`), so one client never holds
every thread; a client that vanishes frees its place within a second where the
WSGI server shows the socket (:mod:`.streamable_http.connection`).

**Event ids.** Each SSE event of a session has an id from the session's
:class:`~.streamable_http.EventStore`, ``"<stream>-<n>"`` by default (stream
``0`` is the GET stream, ``1``, ``2``... the POSTs'), so a ``Last-Event-ID`` tells
which stream to resume. For clients of protocol 2025-11-25 each stream starts
with a priming event (an id, ``retry``, empty data); a tool may then free its
connection with ``server_context.close_sse_stream()`` and the client polls the
rest, its response included, with ``GET`` + ``Last-Event-ID`` (SEP-1699).
"""

from __future__ import annotations

import typing as t

from ... import error_codes, json_rpc
from ... import protocol_version as versions
from ...server_session import ServerSession
from ..auth import AuthRefusal, BearerAuth, Principal
from ..auth.request_auth import Authenticate, RequestAuthenticator
from .streamable_http.connection import BodyDeadlines, read_wsgi_body
from .streamable_http.deployment import ENDED, DeploymentCheck
from .streamable_http.dispatch import is_initialize, may_send_first, request_ids
from .streamable_http.event_store import EventStore, InMemoryEventStore
from .streamable_http.http_io import (
    JSON_MIMETYPE,
    PROTOCOL_VERSION_HEADER,
    SESSION_HEADER,
    SESSION_KEY,
    SSE_MIMETYPE,
    VERSION_KEY,
    Answer,
    HTTPRequestError,
    decode_body,
    empty_answer,
    json_answer,
    read_body,
    require_accept,
    require_json_content,
)
from .streamable_http.limits import StreamLimits, streams_for_threads
from .streamable_http.modern_post import ModernPost, no_session_means_modern, request_channel
from .streamable_http.security import RebindingGuard
from .streamable_http.redis_setup import SharedState, share_on_redis
from .streamable_http.resumption import resume
from .streamable_http.sessions import DEFAULT_IDLE_TIMEOUT, UNUSED_TIMEOUT, HTTPSession, SessionRegistry, new_session_id
from .streamable_http.sse import SSE_HEADERS, SSEBody
from .streamable_http.sse_answers import SSEAnswers
from .streamable_http.workers import WorkerPool

# Constants that lived here before the transport's parts had modules of their own.
from .streamable_http.resumption import MAX_EVENT_ID_LENGTH as MAX_EVENT_ID_LENGTH
from .streamable_http.sse_answers import FIRST_EVENT_WAIT as FIRST_EVENT_WAIT

if t.TYPE_CHECKING:
    from werkzeug.wrappers import Request, Response

    from ...server import Server

WSGIEnvironment = t.Dict[str, t.Any]
StartResponse = t.Callable[..., t.Any]

#: The largest POST body accepted by default (as the TypeScript SDK).
DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024
#: The first protocol version whose clients expect priming events and resume streams the server closed.
RESUMABLE_VERSION = "2025-11-25"

#: Seconds :meth:`StreamableHTTPTransport.close` waits for listen streams to write their final result.
GRACEFUL_CLOSE_WAIT = 1.0

#: The WSGI server threads assumed by default (waitress's default), which size the stream caps.
DEFAULT_WSGI_THREADS = 4
#: Seconds a client gets to send a request body by default.
DEFAULT_BODY_TIMEOUT = 10.0
#: Requests of one session answered over SSE at once by default (queued or running).
DEFAULT_MAX_REQUESTS_PER_SESSION = 8

_RESUMABLE_FROM = versions.SUPPORTED_VERSIONS.index(RESUMABLE_VERSION)


class StreamableHTTPTransport:
    """Serves a :class:`~mcp_sdk.Server` over Streamable HTTP, as a WSGI application.

    Mount it anywhere WSGI goes (werkzeug ``DispatcherMiddleware`` beside a Flask
    app, a Django URL, gunicorn, waitress); it answers every path it is given.
    Sessions live in this process's memory, unless ``redis_url`` is given: then
    any number of processes and hosts share them (see "Running several processes").

    :param server: the server to serve.
    :param stateless: no sessions: every POST is self-contained (a fresh session,
        its protocol version from ``MCP-Protocol-Version``); no GET stream, no
        server-to-client requests. Fits several processes behind a load balancer.
    :param enable_json_response: answer every request with ``application/json``:
        request-scoped progress and log messages are dropped and server-to-client
        requests raise :class:`~mcp_sdk.errors.TransportError`; session-scoped
        messages still flow on the GET stream.
    :param session_idle_timeout: seconds after which a session with no client activity and
        no open stream expires, its running requests cancelled (a ``mcp-http-session-reaper``
        thread); None: never. Default 30 minutes.
    :param unused_session_timeout: seconds a session that sent nothing after ``initialize``
        lives (default 30); None: as long as any other.
    :param event_store: makes each session's event store, called with the session
        id (default :class:`~.streamable_http.InMemoryEventStore`).
    :param allowed_hosts: ``Host`` values accepted beside the loopback names
        (``"mcp.example.com"``, ``"mcp.example.com:8443"``, ``"*"``).
    :param allowed_origins: ``Origin`` values accepted beside same-origin and,
        on a loopback host, loopback origins (``"https://app.example.com"``, ``"*"``).
    :param dns_rebinding_protection: check ``Host`` and ``Origin`` (403 otherwise);
        turn off only behind a proxy that checks them.
    :param max_body_bytes: larger POST bodies get 413.
    :param max_sessions: the most sessions at once; when full, one idle for a minute is
        closed to make room, else ``initialize`` gets 503 with ``Retry-After``; None: no limit.
    :param max_workers: threads running requests answered with SSE, shared in turn between sessions.
    :param wsgi_threads: the WSGI server's thread count (waitress ``threads``, gunicorn
        ``--threads``; default 4, waitress's): sizes the default ``max_streams``.
    :param max_streams: SSE connections open at once in all; past it, 503 with ``Retry-After``.
        Default: ``wsgi_threads`` less a quarter of them and at least two (4 -> 2, 32 -> 24),
        so JSON requests and answers to server-to-client requests always find a thread.
    :param max_streams_per_session: SSE connections of one session at once (its GET stream and
        request streams); past it, 429 with ``Retry-After``. Default: half of ``max_streams``, at least 2.
    :param max_requests_per_session: requests of one session answered over SSE and not yet
        finished (queued or running); past it, 429 with ``Retry-After``.
    :param body_timeout: seconds a client gets to send its request body; past it, 408 and the
        connection's reading side is shut (gunicorn, werkzeug; waitress buffers bodies itself).
        None: no deadline.
    :param keepalive_interval: seconds between keep-alive comments on an idle SSE connection.
    :param retry_interval: seconds a client should wait before reconnecting (the SSE
        ``retry`` field); None leaves it out.
    :param auth: a :class:`~mcp_sdk.server.auth.BearerAuth`: every request needs a valid
        OAuth access token (401/403 with ``WWW-Authenticate`` otherwise).
    :param authenticate: ``fn(environ) -> Principal | None``, the host's own login (a
        Flask-Login user, a Django ``request.user``); None falls back to ``auth``, or 401.
        With either, a session belongs to the principal that created it (404 for anyone
        else) and handlers read the caller as ``server_context.auth``.
    :param redis_url: share sessions, streams, resumption and ``subscriptions/listen`` across
        every process given the same URL (``"redis://host:6379/0"``); needs the ``mcp_sdk[redis]`` extra.
    :param redis: a ``redis.Redis`` client, instead of ``redis_url``.
    :param redis_prefix: prepended to every Redis key and channel (endpoints sharing one Redis differ in it).
    :raises ValueError: for an invalid combination or value.
    :raises ~mcp_sdk.MissingExtraError: ``redis_url`` without redis-py installed.
    """

    def __init__(
        self,
        server: Server,
        *,
        stateless: bool = False,
        enable_json_response: bool = False,
        session_idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT,
        unused_session_timeout: float | None = UNUSED_TIMEOUT,
        event_store: t.Callable[[str], EventStore] | None = None,
        allowed_hosts: t.Iterable[str] | None = None,
        allowed_origins: t.Iterable[str] | None = None,
        dns_rebinding_protection: bool = True,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
        max_sessions: int | None = 10_000,
        max_workers: int = 64,
        keepalive_interval: float = 15.0,
        retry_interval: float | None = 1.0,
        auth: BearerAuth | None = None,
        authenticate: Authenticate | None = None,
        wsgi_threads: int = DEFAULT_WSGI_THREADS,
        max_streams: int | None = None,
        max_streams_per_session: int | None = None,
        max_requests_per_session: int = DEFAULT_MAX_REQUESTS_PER_SESSION,
        body_timeout: float | None = DEFAULT_BODY_TIMEOUT,
        redis_url: str | None = None,
        redis: t.Any = None,
        redis_prefix: str = "mcp:",
    ) -> None:
        for name, value in (("session_idle_timeout", session_idle_timeout), ("unused_session_timeout", unused_session_timeout)):
            if value is not None and value <= 0:
                raise ValueError(f"{name} must be a positive number or None")
        for name, count in (
            ("wsgi_threads", wsgi_threads),
            ("max_streams", 1 if max_streams is None else max_streams),
            ("max_streams_per_session", 1 if max_streams_per_session is None else max_streams_per_session),
            ("max_requests_per_session", max_requests_per_session),
        ):
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise ValueError(f"{name} must be a positive integer, not {count!r}")
        if body_timeout is not None and body_timeout <= 0:
            raise ValueError("body_timeout must be positive or None")
        if isinstance(max_body_bytes, bool) or not isinstance(max_body_bytes, int) or max_body_bytes < 1:
            raise ValueError(f"max_body_bytes must be a positive integer, not {max_body_bytes!r}")
        if max_sessions is not None and max_sessions < 1:
            raise ValueError("max_sessions must be positive or None")
        if keepalive_interval <= 0:
            raise ValueError("keepalive_interval must be positive")
        self.server = server
        self.stateless = stateless
        self.enable_json_response = enable_json_response
        self.session_idle_timeout = session_idle_timeout
        self.max_body_bytes = max_body_bytes
        self._event_store = event_store or InMemoryEventStore
        self._guard = RebindingGuard(allowed_hosts, allowed_origins) if dns_rebinding_protection else None
        self._deployment = DeploymentCheck()
        self._sessions = None if stateless else SessionRegistry(session_idle_timeout, max_sessions, unused_session_timeout)
        self._pool = WorkerPool(max_workers)
        #: What an outage of the shared store raises (requests needing it get 503); none in-process.
        self._outage_errors: tuple[type[BaseException], ...] = ()
        self._shared: SharedState | None = None
        if redis_url is not None or redis is not None:
            self._shared = share_on_redis(
                server,
                redis_url=redis_url,
                client=redis,
                prefix=redis_prefix,
                event_store=event_store,
                stateless=stateless,
                can_send_requests=not enable_json_response,
                idle_timeout=session_idle_timeout,
                max_sessions=max_sessions,
                unused_timeout=unused_session_timeout,
            )
            self._event_store = self._shared.event_store
            self._sessions = self._shared.registry
            self._outage_errors = self._shared.backplane.errors
            self._deployment.shared = True
        total_streams = max_streams if max_streams is not None else streams_for_threads(wsgi_threads)
        self._stream_limits = StreamLimits(
            total_streams, max_streams_per_session if max_streams_per_session is not None else max(2, total_streams // 2)
        )
        self._body_deadlines = BodyDeadlines(body_timeout) if body_timeout is not None else None
        self._allow = "POST" if stateless else "GET, POST, DELETE"
        self._closed = False
        self._auth = RequestAuthenticator(auth, authenticate) if auth is not None or authenticate is not None else None
        # The stream operations both eras share, and the 2026-07-28 POSTs, which use them.
        self._answers = SSEAnswers(
            server,
            self._pool,
            self._stream_limits,
            keepalive_interval=keepalive_interval,
            retry_ms=None if retry_interval is None else max(0, int(retry_interval * 1000)),
            max_requests_per_session=max_requests_per_session,
        )
        self._modern = ModernPost(server, self._answers, stateless=stateless, enable_json_response=enable_json_response)

    @property
    def keepalive_interval(self) -> float:
        """Seconds between keep-alive comments on an idle SSE connection."""
        return self._answers.keepalive_interval

    @keepalive_interval.setter
    def keepalive_interval(self, value: float) -> None:
        self._answers.keepalive_interval = value

    @property
    def retry_ms(self) -> int | None:
        """The SSE ``retry`` field, in milliseconds, of 2025 streams (None: left out)."""
        return self._answers.retry_ms

    @retry_ms.setter
    def retry_ms(self, value: int | None) -> None:
        self._answers.retry_ms = value

    @property
    def first_event_wait(self) -> float:
        """Seconds an SSE answer waits before its headers go out (see :data:`FIRST_EVENT_WAIT`)."""
        return self._answers.first_event_wait

    @first_event_wait.setter
    def first_event_wait(self, value: float) -> None:
        self._answers.first_event_wait = value

    @property
    def max_requests_per_session(self) -> int:
        """Requests of one session answered over SSE and not yet finished (queued or running)."""
        return self._answers.max_requests_per_session

    @max_requests_per_session.setter
    def max_requests_per_session(self, value: int) -> None:
        self._answers.max_requests_per_session = value

    # -- WSGI ----------------------------------------------------------------

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> t.Iterable[bytes]:
        """The WSGI application."""
        answer = self._answers.watch(environ, self._answer(environ, None))
        start_response(answer.status_line, answer.headers)
        return answer.body

    def handle_request(self, request: Request) -> Response:
        """Answer one HTTP request given as a werkzeug (or Flask) ``Request``.

        For a transport used from a view, e.g. one built per request with
        ``stateless=True``; an SSE answer is still streaming when this returns
        (close a per-request transport with ``response.call_on_close(transport.close)``).
        """

        def body(limit: int) -> bytes:
            return read_body(request.stream, request.content_length, limit, until_eof=True)

        return self._answers.watch(request.environ, self._answer(request.environ, body)).to_response()

    def _answer(self, environ: WSGIEnvironment, body: t.Callable[[int], bytes] | None) -> Answer:
        """The answer to one request; ``body(limit)`` reads its body (None: from ``wsgi.input``)."""
        try:
            if self._closed:
                raise HTTPRequestError(503, "Service Unavailable: the MCP transport is closed")
            if self._guard is not None:
                refusal = self._guard.check(environ.get("HTTP_HOST"), environ.get("HTTP_ORIGIN"))
                if refusal is not None:
                    raise HTTPRequestError(403, refusal)
            principal = self._auth.principal(environ) if self._auth is not None else None
            method = environ.get("REQUEST_METHOD")
            if method == "POST":
                return self._post(environ, body or (lambda limit: read_wsgi_body(environ, limit, self._body_deadlines)), principal)
            if method == "GET" and not self.stateless:
                return self._get(environ, principal)
            if method == "DELETE" and not self.stateless:
                return self._delete(environ, principal)
            raise HTTPRequestError(405, f"Method Not Allowed: use {self._allow}", headers={"Allow": self._allow})
        except HTTPRequestError as refusal:
            return refusal.answer()
        except AuthRefusal as refusal:
            return HTTPRequestError(refusal.status, refusal.message, headers=refusal.headers).answer()
        except self._outage_errors as error:
            self.server.report_exception(error, {"shared_store": "unreachable"})
            return HTTPRequestError(
                503, "Service Unavailable: the shared session store (Redis) is unreachable; retry shortly",
                headers={"Retry-After": "1"},
            ).answer()
        except Exception as error:  # a bug here must not take the WSGI server's thread with it
            where = f"{environ.get('REQUEST_METHOD')} {environ.get('SCRIPT_NAME', '')}{environ.get('PATH_INFO', '')}"
            self.server.report_exception(error, {"http_request": where})
            return HTTPRequestError(500, "Internal error", error_codes.INTERNAL_ERROR).answer()

    # -- POST ----------------------------------------------------------------

    def _post(self, environ: WSGIEnvironment, body: t.Callable[[int], bytes], principal: Principal | None) -> Answer:
        if self.enable_json_response:
            require_accept(environ, JSON_MIMETYPE)
        else:
            require_accept(environ, JSON_MIMETYPE, SSE_MIMETYPE)
        require_json_content(environ)
        message = decode_body(body(self.max_body_bytes))
        if self._auth is not None and principal is not None:
            self._auth.check_scopes(self.server, message, principal)
        # The era is decided here, once: every handle_message below says which it is.
        if self._modern.is_modern(environ, message):
            return self._modern.answer(environ, message, principal)
        if self.stateless:
            return self._post_stateless(environ, message, principal)
        if is_initialize(message):
            return self._initialize(environ, message, principal)
        session = self._session(environ, principal)
        self._protocol_version(environ)
        server_session = session.server_session
        assert self._sessions is not None
        message = self._sessions.route(session, message)  # shared sessions: what other processes wait for goes there
        if message is None:
            return empty_answer(202)
        ids = request_ids(message)
        if not ids:
            answer = self._answer_inline(server_session, message)
            self._sessions.commit(session)
            return answer
        if self.enable_json_response or not may_send_first(self.server, message):
            answer = self._answer_json(server_session, message)
            self._sessions.commit(session)
            return answer
        self._answers.hold(environ, session, ids[0])
        stream = session.open_request_stream(ids)
        consumer, _ = stream.attach()
        preamble = [stream.prime(self.retry_ms)] if _resumable(server_session.protocol_version) else []

        def finish(response: t.Any, text: str | None) -> None:
            session.finish_request_stream(stream, response, text)

        return self._answers.answer(
            server_session, message, stream, consumer, preamble, finish, session.stream_ended, modern=False
        )

    def _initialize(self, environ: WSGIEnvironment, message: dict[str, t.Any], principal: Principal | None) -> Answer:
        assert self._sessions is not None
        existing = environ.get(SESSION_KEY)
        if existing:
            found = self._sessions.get(existing)
            if found is not None and found.belongs_to(principal):
                raise HTTPRequestError(400, "Invalid Request: this session is already initialized", request_id=message.get("id"))
            raise self._deployment.unknown_session(existing) if found is None else HTTPRequestError(404, ENDED)
        session = self._sessions.new_session(
            self.server, new_session_id(), self._event_store, can_send_requests=not self.enable_json_response, principal=principal
        )
        self._deployment.issued(session.id)
        self._deployment.limit_single_threaded(environ, session.server_session)
        if not self._sessions.add(session):
            session.close("Too many sessions")
            raise HTTPRequestError(
                503, f"Service Unavailable: {self._sessions.max_sessions} sessions are open", headers={"Retry-After": "60"}
            )
        response = self.server.handle_message(message, session.server_session, modern=False)
        if response is None or "error" in response:  # no session came of it
            self._sessions.remove(session.id, "Initialization failed")
            return empty_answer(202) if response is None else json_answer(json_rpc.encode(response))
        self._sessions.commit(session)
        return json_answer(session.server_session.encode(response) or "", headers=[(SESSION_HEADER, session.id)])

    def _post_stateless(self, environ: WSGIEnvironment, message: t.Any, principal: Principal | None) -> Answer:
        server_session = request_channel(self.server, principal)
        if not is_initialize(message):
            server_session.protocol_version = self._protocol_version(environ)
        ids = request_ids(message)
        if not ids:
            return self._answer_inline(server_session, message)
        if self.enable_json_response or not may_send_first(self.server, message):
            return self._answer_json(server_session, message)
        self._answers.hold(environ, None, ids[0])
        stream, consumer = self._answers.open_stateless(server_session, ids)
        return self._answers.answer(
            server_session, message, stream, consumer, [], stream.finish, self._answers.stateless_ended, modern=False
        )

    def _answer_inline(self, server_session: ServerSession, message: t.Any) -> Answer:
        """Notifications and responses: 202, or 400 with the error for what is not a valid message."""
        text = server_session.encode(self.server.handle_message(message, server_session, modern=False))
        return empty_answer(202) if text is None else json_answer(text, status=400)

    def _answer_json(self, server_session: ServerSession, message: t.Any) -> Answer:
        text = server_session.encode(self.server.handle_message(message, server_session, modern=False))
        return empty_answer(202) if text is None else json_answer(text)  # None: cancelled, no response

    # -- GET -----------------------------------------------------------------

    def _get(self, environ: WSGIEnvironment, principal: Principal | None) -> Answer:
        no_session_means_modern(environ, "GET")
        require_accept(environ, SSE_MIMETYPE)
        session = self._session(environ, principal)
        self._protocol_version(environ)
        last_event_id = environ.get("HTTP_LAST_EVENT_ID")
        if last_event_id:
            self._answers.hold(environ, session)
            return resume(session, last_event_id, keepalive_interval=self.keepalive_interval, retry_ms=self.retry_ms)
        self._deployment.refuse_standalone_stream(environ)
        stream = session.standalone_stream()
        consumer = stream.attach_if_free()  # two GETs at once: exactly one wins
        if consumer is None:
            raise HTTPRequestError(409, "Conflict: this session already has a GET stream open")
        try:
            if not session.claim_standalone():  # held by another process
                raise HTTPRequestError(409, "Conflict: this session already has a GET stream open")
            self._answers.hold(environ, session)
        except BaseException:
            stream.detach(consumer)
            raise
        preamble = [stream.prime(self.retry_ms)] if _resumable(session.server_session.protocol_version) else []
        body = SSEBody(
            stream, consumer, preamble, keepalive=self.keepalive_interval, retry_ms=self.retry_ms, on_end=session.stream_ended
        )
        return Answer(200, list(SSE_HEADERS), body)

    # -- DELETE --------------------------------------------------------------

    def _delete(self, environ: WSGIEnvironment, principal: Principal | None) -> Answer:
        assert self._sessions is not None
        no_session_means_modern(environ, "DELETE")
        session = self._session(environ, principal)
        self._protocol_version(environ)
        self._sessions.remove(session.id)
        return empty_answer(204)

    # -- shared --------------------------------------------------------------

    def _session(self, environ: WSGIEnvironment, principal: Principal | None) -> HTTPSession:
        """The request's session; one another principal created is as unknown as a made-up id (404)."""
        assert self._sessions is not None
        session_id = environ.get(SESSION_KEY)
        if not session_id:
            raise HTTPRequestError(400, f"Bad Request: the {SESSION_HEADER} header is required")
        session = self._sessions.get(session_id)
        if session is None:
            raise self._deployment.unknown_session(session_id)
        if not session.belongs_to(principal):  # another caller's session: never say more than "ended"
            raise HTTPRequestError(404, ENDED)
        session.note_request()
        if principal is not None:
            session.server_session.auth = principal  # the same caller's latest token: its scopes may have grown
        return session

    def _protocol_version(self, environ: WSGIEnvironment) -> str:
        """The ``MCP-Protocol-Version`` of a request after initialization (absent: 2025-03-26).

        Any supported version passes, even one other than the session's.
        """
        version: str | None = environ.get(VERSION_KEY)
        if version is None:
            return versions.DEFAULT_HTTP_VERSION
        if not versions.is_supported(version):
            supported = ", ".join(versions.SUPPORTED_VERSIONS)
            raise HTTPRequestError(
                400, f"Bad Request: unsupported {PROTOCOL_VERSION_HEADER} {version!r} (supported: {supported})"
            )
        return version

    # -- public --------------------------------------------------------------

    @property
    def session_ids(self) -> list[str]:
        """The ids of the open sessions."""
        return [] if self._sessions is None else [session.id for session in self._sessions.snapshot()]

    def close_sse_stream(self, session_id: str, request_id: t.Any) -> bool:
        """End the SSE connection answering ``request_id`` (as ``server_context.close_sse_stream()``)."""
        session = self._sessions.get(session_id) if self._sessions is not None else None
        return session is not None and session.close_request_stream(request_id)

    def close_standalone_sse_stream(self, session_id: str) -> bool:
        """End the session's GET connection; the client reconnects with ``Last-Event-ID``."""
        session = self._sessions.get(session_id) if self._sessions is not None else None
        return session is not None and session.close_standalone_stream()

    def close(self) -> None:
        """Stop: end ``subscriptions/listen`` streams with their result, then every session
        (cancelling its requests and connections) and the transport's threads."""
        self._closed = True
        self._answers.close_listens(GRACEFUL_CLOSE_WAIT)
        if self._sessions is not None:
            self._sessions.close()
        self._answers.end_stateless()
        self._pool.close()
        if self._body_deadlines is not None:
            self._body_deadlines.close()
        if self._shared is not None:
            self._shared.backplane.close()

    def __enter__(self) -> StreamableHTTPTransport:
        return self

    def __exit__(self, *exc_info: t.Any) -> None:
        self.close()


def _resumable(version: str | None) -> bool:
    return version is not None and versions.SUPPORTED_VERSIONS.index(version) >= _RESUMABLE_FROM


__all__ = ["DEFAULT_MAX_BODY_BYTES", "StreamableHTTPTransport"]
