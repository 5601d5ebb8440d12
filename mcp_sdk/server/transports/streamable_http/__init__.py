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
``server_context`` parameter: the server resolves the request's handler once
(:meth:`~mcp_sdk.Server.route`) and says whether it may talk first. The choice is
made before the handler runs, so progress and server-to-client requests reach the
client at once. Everything else (``tools/list``, ``ping``, a tool without
``server_context``) is answered with JSON on the WSGI thread. An SSE answer that
is complete within :data:`~.streams.sse_answers.FIRST_EVENT_WAIT` goes out whole, with a
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
``wsgi_threads``, see :mod:`.capacity.limits`), so one client never holds
every thread; a client that vanishes frees its place within a second where the
WSGI server shows the socket (:mod:`.wire.connection`).

**Event ids.** Each SSE event of a session has an id from the session's
:class:`~.EventStore`, ``"<stream>-<n>"`` by default (stream
``0`` is the GET stream, ``1``, ``2``... the POSTs'), so a ``Last-Event-ID`` tells
which stream to resume. For clients of protocol 2025-11-25 each stream starts
with a priming event (an id, ``retry``, empty data); a tool may then free its
connection with ``server_context.close_sse_stream()`` and the client polls the
rest, its response included, with ``GET`` + ``Last-Event-ID`` (SEP-1699).

**The package's parts**, by what they are about:

- :mod:`.options`: the transport's option groups, :class:`Limits`, :class:`Security` and :class:`Storage`.
- :mod:`.post_2026`: the 2026-07-28 POSTs (the 2025 ones are answered here).
- :mod:`.wire`: the HTTP edge: header checks, bounded body reads, JSON-RPC shaped HTTP errors
  (:mod:`.wire.http_io`), the 2026-07-28 request headers, ``Host`` / ``Origin`` checks against DNS
  rebinding (:mod:`.wire.security`), what the WSGI server shows of the client's socket
  (:mod:`.wire.connection`), the client's address, the HTTP request handlers get
  (:mod:`.wire.carrying_request`; :data:`FRAMEWORK_REQUEST_KEY` for a framework's own request), and
  the ``503`` of a store that cannot serve (:mod:`.wire.outage`).
- :mod:`.streams`: the SSE wire format and the streams that carry a session's messages
  (:mod:`.streams.sse`), requests answered over SSE (:mod:`.streams.sse_answers`), :class:`EventStore`
  and :class:`InMemoryEventStore` (:mod:`.streams.event_store`), ``GET`` with ``Last-Event-ID``
  (:mod:`.streams.resumption`).
- :mod:`.capacity`: the WSGI threads (or greenlets) the transport may hold, the caps on open SSE
  connections, the pool of threads running requests answered with SSE, the bound on
  ``subscriptions/listen`` streams.
- :mod:`.sessions`: per-session routing and the idle-session reaper (:mod:`.sessions.http_session`),
  the connection a stateless request runs on, and the deployment mistakes the transport can see.
- :mod:`.shared`: sessions, routing, events and ``subscriptions/listen`` shared across processes on
  Redis (``redis_url=``; redis-py is imported only then).

Why one module: it is the WSGI application, :class:`StreamableHTTPTransport`, with its options'
keywords; what it decides itself (reading a POST once, which era it is, whether its answer is JSON
or a stream, which session it belongs to) reads top to bottom here, and every part with an idea
of its own lives in the sub-packages above.
"""

from __future__ import annotations

import functools
import queue
import typing as t

from .... import error_codes, json_rpc, methods
from ....errors import StoreFullError
from ....protocol_version import SUPPORTED_VERSIONS
from ...auth import AuthRefusal, BearerAuth, Principal
from ...auth.request_auth import Authenticate
from ...envelope import INPUT_REQUIRED_METHODS
from ...request import Incoming
from .capacity.limits import StreamLimits
from .capacity.stream_capacity import stream_capacity
from .capacity.workers import WorkerPool
from .options import UNSET, Limits, Security, Storage, gather_groups
from .post_2026 import ModernPost, no_session_means_modern, request_channel
from .sessions.deployment import ENDED, NOT_A_VIEW, DeploymentCheck
from .sessions.http_session import HTTPSession, SessionRegistry, new_session_id
from .sessions.request_channel import requested_log_level
from .shared.redis_backplane import RedisBackplane
from .shared.redis_bus import RedisSubscriptionBus
from .shared.redis_event_store import RedisEventStore
from .shared.redis_sessions import RedisSessionRegistry, SharedHTTPSession
from .shared.redis_setup import shared_storage
from .streams.event_store import EventStore, InMemoryEventStore
from .streams.resumption import resumable, resume, sse_answer
from .streams.sse import SSE_HEADERS, QueueItem, SSEBody
from .streams.sse_answers import STREAM_PLACE_KEY, SSEAnswers
from .wire.carrying_request import FRAMEWORK_REQUEST_KEY, CarryingRequest
from .wire.connection import BodyDeadlines, read_wsgi_body
from .wire.http_io import (
    JSON_MIMETYPE,
    SESSION_HEADER,
    SESSION_KEY,
    SSE_MIMETYPE,
    VERSION_KEY,
    Answer,
    HTTPRequestError,
    decode_body,
    empty_answer,
    json_answer,
    protocol_version,
    read_body,
    require_accept,
    require_json_content,
    response_answer,
)
from .wire.outage import outage_refusal
from .wire.security import RebindingGuard

if t.TYPE_CHECKING:
    from werkzeug.wrappers import Request, Response

    from ....server import Server
    from ...session import ServerSession

WSGIEnvironment = t.Dict[str, t.Any]
StartResponse = t.Callable[..., t.Any]


class StreamableHTTPTransport:
    """Serves a :class:`~mcp_sdk.Server` over Streamable HTTP, as a WSGI application.

    Mount it anywhere WSGI goes (werkzeug ``DispatcherMiddleware`` beside a Flask app, a Django URL,
    gunicorn, waitress); it answers every path it is given. Sessions live in this process's memory,
    unless ``redis_url`` is given: then any number of processes and hosts share them. Give the WSGI
    server's thread count as ``wsgi_threads`` so that open SSE streams never take every thread:

    .. code-block:: python

        import threading
        from werkzeug.serving import make_server
        from mcp_sdk import Client, Server
        from mcp_sdk.client import HTTP
        from mcp_sdk.server.transports import StreamableHTTPTransport

        server = Server(name="calculator")
        server.define_tool(name="add", handler=lambda a, b: a + b)
        app = StreamableHTTPTransport(server, wsgi_threads=8)  # any WSGI server; here werkzeug's, threaded
        httpd = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        with Client(transport=HTTP(url=f"http://127.0.0.1:{httpd.port}/mcp")) as client:
            client.connect()
            assert client.call_tool(name="add", arguments={"a": 2, "b": 3})["result"]["content"][0]["text"] == "5"
        httpd.shutdown()

    Options come in three groups, each a frozen value validated when built (its class documents every
    field); each field is also a keyword of the transport, so ``StreamableHTTPTransport(server,
    wsgi_threads=32)`` is ``StreamableHTTPTransport(server, limits=Limits(wsgi_threads=32))``:

    - ``limits=`` :class:`~.Limits`: ``max_body_bytes``, ``body_timeout``,
      ``max_sessions``, ``session_idle_timeout``, ``unused_session_timeout``, ``max_workers``,
      ``wsgi_threads``, ``max_streams``, ``max_streams_per_session``, ``max_requests_per_session``.
    - ``security=`` :class:`~.Security`: ``allowed_hosts``, ``allowed_origins``,
      ``dns_rebinding_protection``, ``auth``, ``authenticate``.
    - ``storage=`` :class:`~.Storage`: ``event_store``, ``redis_url``, ``redis``, ``redis_prefix``.

    A group given replaces all of its keywords: passing ``limits=`` and ``wsgi_threads=`` together is a
    :class:`TypeError` (``attrs.evolve(limits, wsgi_threads=32)`` changes one field of a group).
    The classes are also ``StreamableHTTPTransport.Limits``, ``.Security`` and ``.Storage``.

    :param server: the server to serve.
    :param stateless: no sessions: every POST is self-contained (a fresh session, its protocol version
        from ``MCP-Protocol-Version``); no GET stream, no server-to-client requests
        (:class:`~mcp_sdk.errors.ClientRequestsUnavailableError`), no ``logging/setLevel`` (a level in a
        request's ``_meta`` instead), and ``notifications/cancelled`` cancels nothing (closing the
        connection does). Fits several processes behind a load balancer.
    :param enable_json_response: answer every request with ``application/json``: request-scoped progress
        and log messages are dropped and server-to-client requests raise
        :class:`~mcp_sdk.errors.TransportError`; session-scoped messages still flow on the GET stream.
    :param keepalive_interval: seconds between keep-alive comments on an idle SSE connection.
    :param retry_interval: seconds a client should wait before reconnecting (the SSE ``retry`` field); None: none.
    :param limits: caps and timeouts (default ``Limits()``, or built from its keywords).
    :param security: ``Host``/``Origin`` checks and authorization (default ``Security()``, or built from its keywords).
    :param storage: where sessions and events live (default ``Storage()``, in memory, or built from its keywords).
    :param max_body_bytes: of ``limits``: larger POST bodies get 413.
    :param body_timeout: of ``limits``: seconds a client gets to send its request body (408 past it).
    :param max_sessions: of ``limits``: the most sessions at once (None: no limit).
    :param session_idle_timeout: of ``limits``: seconds after which a session with no activity expires (None: never).
    :param unused_session_timeout: of ``limits``: seconds a session that sent nothing after ``initialize`` lives.
    :param max_workers: of ``limits``: threads running the requests answered with SSE.
    :param wsgi_threads: of ``limits``: the WSGI server's thread count, which sizes the stream caps.
    :param max_streams: of ``limits``: SSE connections held open at once in all.
    :param max_streams_per_session: of ``limits``: SSE connections of one session held open at once.
    :param max_requests_per_session: of ``limits``: requests of one session answered over SSE and not yet finished.
    :param allowed_hosts: of ``security``: ``Host`` values accepted beside the loopback names.
    :param allowed_origins: of ``security``: ``Origin`` values accepted beside same-origin ones.
    :param dns_rebinding_protection: of ``security``: check ``Host`` and ``Origin`` (403 otherwise).
    :param auth: of ``security``: a :class:`~mcp_sdk.server.auth.BearerAuth` every request must pass.
    :param authenticate: of ``security``: ``fn(environ) -> Principal | None``, the host's own login.
    :param event_store: of ``storage``: makes each session's :class:`~.EventStore`.
    :param redis_url: of ``storage``: share sessions, streams and listens across processes through this Redis.
    :param redis: of ``storage``: a ``redis.Redis`` client, instead of ``redis_url``.
    :param redis_prefix: of ``storage``: prepended to every Redis key and channel.
    :raises ValueError: for an invalid combination or value.
    :raises TypeError: a group and one of its keywords both given; a group of the wrong class;
        ``auth`` not a :class:`~mcp_sdk.server.auth.BearerAuth`; ``authenticate`` not callable.
    :raises ~mcp_sdk.MissingExtraError: ``redis_url`` without redis-py installed.
    """

    Limits: t.TypeAlias = Limits
    Security: t.TypeAlias = Security
    Storage: t.TypeAlias = Storage

    def __init__(  # noqa: size (31 lines are the signature, the public keywords; the rest stores the option groups and builds the parts in the order they need one another)
        self,
        server: Server,
        *,
        stateless: bool = False,
        enable_json_response: bool = False,
        keepalive_interval: float = 15.0,
        retry_interval: float | None = 1.0,
        limits: Limits | None = None,
        security: Security | None = None,
        storage: Storage | None = None,
        # The keywords of the groups: UNSET means "not given" (the group's default applies).
        session_idle_timeout: float | None = UNSET,
        unused_session_timeout: float | None = UNSET,
        event_store: t.Callable[[str], EventStore] | None = UNSET,
        allowed_hosts: t.Iterable[str] | None = UNSET,
        allowed_origins: t.Iterable[str] | None = UNSET,
        dns_rebinding_protection: bool = UNSET,
        max_body_bytes: int = UNSET,
        max_sessions: int | None = UNSET,
        max_workers: int = UNSET,
        auth: BearerAuth | None = UNSET,
        authenticate: Authenticate | None = UNSET,
        wsgi_threads: int = UNSET,
        max_streams: int | None = UNSET,
        max_streams_per_session: int | None = UNSET,
        max_requests_per_session: int = UNSET,
        body_timeout: float | None = UNSET,
        redis_url: str | None = UNSET,
        redis: t.Any = UNSET,
        redis_prefix: str = UNSET,
    ) -> None:
        limits, security, storage = gather_groups(limits, security, storage, dict(
            session_idle_timeout=session_idle_timeout, unused_session_timeout=unused_session_timeout, event_store=event_store,
            allowed_hosts=allowed_hosts, allowed_origins=allowed_origins, dns_rebinding_protection=dns_rebinding_protection,
            max_body_bytes=max_body_bytes, max_sessions=max_sessions, max_workers=max_workers, auth=auth, authenticate=authenticate,
            wsgi_threads=wsgi_threads, max_streams=max_streams, max_streams_per_session=max_streams_per_session,
            max_requests_per_session=max_requests_per_session, body_timeout=body_timeout, redis_url=redis_url, redis=redis,
            redis_prefix=redis_prefix,
        ))
        if keepalive_interval <= 0:
            raise ValueError("keepalive_interval must be positive")
        self.server = server
        self.stateless = stateless
        self.enable_json_response = enable_json_response
        #: The option groups in use (given, or built from their keywords).
        self.limits, self.security, self.storage = limits, security, storage
        self.session_idle_timeout = limits.session_idle_timeout
        self.max_body_bytes = limits.max_body_bytes
        self._event_store = storage.event_store or InMemoryEventStore
        self._guard = (
            RebindingGuard(security.allowed_hosts, security.allowed_origins) if security.dns_rebinding_protection else None
        )
        self._deployment = DeploymentCheck()
        self._sessions = (
            None if stateless else SessionRegistry(limits.session_idle_timeout, limits.max_sessions, limits.unused_session_timeout)
        )
        capacity = stream_capacity(limits)  # threads, or gevent's greenlets: what an open stream costs
        #: Counts the requests in flight, each holding a WSGI thread (a greenlet under gevent).
        self._capacity = capacity.capacity
        self._pool = WorkerPool(capacity.pool_size)
        #: What an outage of the shared store raises (requests needing it get 503); in-process, a full store of the user's.
        self._outage_errors: tuple[type[BaseException], ...] = (StoreFullError,)
        self._shared = shared_storage(server, storage, limits, stateless=stateless, can_send_requests=not enable_json_response)
        if self._shared is not None:
            self._event_store = self._shared.event_store
            self._sessions = self._shared.registry
            self._outage_errors = (StoreFullError, *self._shared.backplane.errors)
            self._deployment.shared = True
        self._stream_limits = StreamLimits(*capacity.caps)
        self._body_deadlines = BodyDeadlines(limits.body_timeout) if limits.body_timeout is not None else None
        self._allow = "POST" if stateless else "GET, POST, DELETE"
        self._closed = False
        self._lifespan_generation = -1  # the server's lifespan not entered yet (see _answer)
        self._auth = security.authenticator()
        # The stream operations both eras share, and the 2026-07-28 POSTs, which use them.
        self._answers = SSEAnswers(
            server,
            self._pool,
            self._stream_limits,
            keepalive_interval=keepalive_interval,
            retry_ms=None if retry_interval is None else max(0, int(retry_interval * 1000)),
            max_requests_per_session=limits.max_requests_per_session,
            capacity=capacity.capacity,
            sizes=capacity.sizing(self._pool),
        )
        self._modern = ModernPost(server, self._answers, enable_json_response=enable_json_response)

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
        """Seconds an SSE answer waits before its headers go out (see :data:`~.streams.sse_answers.FIRST_EVENT_WAIT`)."""
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

    #: Django's CSRF middleware skips views with this attribute: a transport routed as a Django view
    #: (a mistake) then reaches :meth:`__call__`, which names the fix, and serves nothing.
    csrf_exempt: t.ClassVar[bool] = True

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse | None = None) -> t.Iterable[bytes]:
        """The WSGI application.

        :raises TypeError: called as a view, with a request and no ``start_response``.
        """
        if start_response is None:
            raise TypeError(NOT_A_VIEW)
        answer = self._served(environ, None)
        start_response(answer.status_line, answer.headers)
        return answer.body

    def handle_request(self, request: Request) -> Response:
        """Answer one HTTP request given as a werkzeug (or Flask) ``Request``.

        For a transport used from a view, e.g. one built per request with
        ``stateless=True``; an SSE answer is still streaming when this returns
        (close a per-request transport with ``response.call_on_close(transport.close)``).

        :param request: the request.
        """

        def body(limit: int) -> bytes:
            return read_body(request.stream, request.content_length, limit, until_eof=True)

        return self._served(request.environ, body).to_response()

    def _served(self, environ: WSGIEnvironment, body: t.Callable[[int], bytes] | None) -> Answer:
        """The answer to one request, counted in flight (it holds a WSGI thread) until it ends: a
        plain answer at once, an SSE answer (or one that took a stream place) when its stream does."""
        leave = self._capacity.enter(environ)
        answer = self._answer(environ, body)
        if type(answer.body) is SSEBody or STREAM_PLACE_KEY in environ:
            return self._answers.watch(environ, answer, leave)
        leave()
        return answer

    def _answer(self, environ: WSGIEnvironment, body: t.Callable[[int], bytes] | None) -> Answer:
        """The answer to one request; ``body(limit)`` reads its body (None: from ``wsgi.input``)."""
        try:
            if self._closed:
                raise HTTPRequestError(503, "Service Unavailable: the MCP transport is closed")
            lifespan = self.server.lifespan
            generation = lifespan.generation
            if generation != self._lifespan_generation:  # once per process: the first request (after a fork)
                lifespan.enter(self)
                self._lifespan_generation = generation
            if self._guard is not None:
                refusal = self._guard.check(environ.get("HTTP_HOST"), environ.get("HTTP_ORIGIN"))
                if refusal is not None:
                    raise HTTPRequestError(403, refusal)
            principal = self._auth.principal(environ) if self._auth is not None else None
            method = environ.get("REQUEST_METHOD")
            if method == "POST":
                return self._post(environ, body, principal)
            if method == "GET" and not self.stateless:
                return self._get(environ, principal)
            if method == "DELETE" and not self.stateless:
                return self._delete(environ, principal)
            raise HTTPRequestError(405, f"Method Not Allowed: use {self._allow}", headers={"Allow": self._allow})
        except HTTPRequestError as refusal:
            return refusal.answer()
        except AuthRefusal as refusal:
            return HTTPRequestError(refusal.status, refusal.message, headers=refusal.headers).answer()
        except self._outage_errors as error:  # the session store, or a store a handler needed: 503
            return outage_refusal(self.server, error).answer()
        except Exception as error:  # a bug here must not take the WSGI server's thread with it
            where = f"{environ.get('REQUEST_METHOD')} {environ.get('SCRIPT_NAME', '')}{environ.get('PATH_INFO', '')}"
            self.server.report_exception(error, {"http_request": where})
            return HTTPRequestError(500, "Internal error", error_codes.INTERNAL_ERROR).answer()

    # -- POST ----------------------------------------------------------------

    def _read_message(self, environ: WSGIEnvironment, body: t.Callable[[int], bytes] | None, principal: Principal | None) -> t.Any:
        """The POST's decoded message, once its headers, body and the caller's scopes allow it."""
        if self.enable_json_response:
            require_accept(environ, JSON_MIMETYPE)
        else:
            require_accept(environ, JSON_MIMETYPE, SSE_MIMETYPE)
        require_json_content(environ)
        limit = self.max_body_bytes
        message = decode_body(read_wsgi_body(environ, limit, self._body_deadlines) if body is None else body(limit))
        if self._auth is not None and principal is not None:
            self._auth.check_scopes(self.server, message, principal)
        return message

    def _post(self, environ: WSGIEnvironment, body: t.Callable[[int], bytes] | None, principal: Principal | None) -> Answer:
        message = self._read_message(environ, body, principal)
        # The message is read once, here: its era, its ids, and the carrier handlers get, made only
        # when one asks (``server_context.request``).
        carrier = functools.partial(CarryingRequest, environ)
        incoming = Incoming(message, None, principal, None, carrier)  # by position: see Incoming
        if incoming.modern or self._no_session_means_2026(environ, incoming):
            incoming.modern = True
            return self._post_2026(environ, incoming)
        if self.stateless:
            return self._post_stateless(environ, incoming)
        if incoming.method == methods.INITIALIZE:
            return self._initialize(environ, incoming)
        session = self._session(environ, principal)
        protocol_version(environ)
        server_session = session.server_session
        sessions = self._sessions
        assert sessions is not None
        shared = self._shared is not None  # in-process sessions route everything here and have nothing to commit
        if shared:
            routed = sessions.route(session, message)  # what other processes wait for goes there
            if routed is None:
                return empty_answer(202)
            if routed is not message:
                incoming = Incoming(routed, principal=principal, make_http_request=incoming.carrier)
        ids = incoming.request_ids()
        if not ids or self.enable_json_response or not self.server.route(incoming).talks_first:
            answer = self._plain_answer(incoming, server_session, bool(ids))
            if shared:
                sessions.commit(session)
            return answer
        polled = resumable(server_session.protocol_version)
        hold = self._answers.hold(environ, session, ids[0], polled=polled)
        consumer: queue.SimpleQueue[QueueItem] = queue.SimpleQueue()
        stream = session.open_request_stream(ids, consumer)  # read from its start by this connection
        preamble = [stream.prime(self._answers.retry_ms)] if polled else []
        finish = functools.partial(session.finish_request_stream, stream)  # finish(response, text)
        return self._answers.answer(server_session, incoming, stream, consumer, preamble, finish, session.stream_ended, hold=hold)

    def _no_session_means_2026(self, environ: WSGIEnvironment, incoming: Incoming) -> bool:
        """Whether a POST without the envelope is still a 2026-07-28 request: outside stateless mode,
        a request with no session that does not open one (nor names a 2025 version)."""
        if self.stateless or environ.get(SESSION_KEY):  # a session's request (the usual one): asked first
            return False
        if type(incoming.message) is not dict or "method" not in incoming.message or incoming.method == methods.INITIALIZE:
            return False
        header = environ.get(VERSION_KEY)
        return header is None or header not in SUPPORTED_VERSIONS

    def _post_2026(self, environ: WSGIEnvironment, incoming: Incoming) -> Answer:
        """A 2026-07-28 POST (see :mod:`.post_2026`), once the ``requestState`` keys it may need are known."""
        keys_set = self.server.configuration.request_state_keys is not None
        self._deployment.warn_several_processes(environ, keys_set or self._shared is not None)
        if self._shared is not None and not keys_set and type(incoming.message) is dict and incoming.method in INPUT_REQUIRED_METHODS:
            self._shared.request_state_keys()  # read from Redis once (503 while it cannot be), then kept
        return self._modern.answer(environ, incoming)

    def _plain_answer(self, incoming: Incoming, server_session: ServerSession, has_requests: bool) -> Answer:
        """A 2025 POST answered on the WSGI thread: with JSON (202 when cancelled: no response; 503
        with ``Retry-After`` when a full store refused it), or, when it holds no request (notifications,
        responses), 202, or 400 with the error for what is not a valid message."""
        response = self.server.receive(incoming, server_session)
        text = server_session.encode(response)
        if text is None:
            return empty_answer(202)
        if has_requests:
            return response_answer(response, text)
        return json_answer(text, status=400)

    def _initialize(self, environ: WSGIEnvironment, incoming: Incoming) -> Answer:
        assert self._sessions is not None
        existing = environ.get(SESSION_KEY)
        principal = incoming.principal
        if existing:
            found = self._sessions.get(existing)
            if found is not None and found.belongs_to(principal):
                raise HTTPRequestError(400, "Invalid Request: this session is already initialized", request_id=incoming.id)
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
        response = self.server.receive(incoming, session.server_session)
        if response is None or "error" in response:  # no session came of it
            self._sessions.remove(session.id, "Initialization failed")
            return empty_answer(202) if response is None else json_answer(json_rpc.encode(response))
        self._sessions.commit(session)
        return json_answer(session.server_session.encode(response) or "", headers=[(SESSION_HEADER, session.id)])

    def _post_stateless(self, environ: WSGIEnvironment, incoming: Incoming) -> Answer:
        server_session = request_channel(self.server, incoming.principal)
        server_session.log_level = requested_log_level(incoming.message)  # a setLevel in another POST never reaches it
        if incoming.method != methods.INITIALIZE:
            server_session.protocol_version = protocol_version(environ)
        ids = incoming.request_ids()
        if not ids or self.enable_json_response or not self.server.route(incoming).talks_first:
            return self._plain_answer(incoming, server_session, bool(ids))
        self._answers.hold(environ, None, ids[0])
        stream, consumer = self._answers.open_stateless(server_session, ids)
        return self._answers.answer(server_session, incoming, stream, consumer, [], stream.finish, self._answers.stateless_ended)

    # -- GET -----------------------------------------------------------------

    def _get(self, environ: WSGIEnvironment, principal: Principal | None) -> Answer:
        no_session_means_modern(environ, "GET")
        require_accept(environ, SSE_MIMETYPE)
        session = self._session(environ, principal)
        protocol_version(environ)
        last_event_id = environ.get("HTTP_LAST_EVENT_ID")
        polled = resumable(session.server_session.protocol_version)
        if last_event_id:
            hold = self._answers.hold(environ, session, polled=polled)
            return resume(session, last_event_id, keepalive_interval=self.keepalive_interval, retry_ms=self.retry_ms, hold=hold)
        self._deployment.refuse_standalone_stream(environ)
        stream = session.standalone_stream()
        consumer = stream.attach_if_free()  # two GETs at once: exactly one wins
        if consumer is None:
            raise HTTPRequestError(409, "Conflict: this session already has a GET stream open")
        try:
            if not session.claim_standalone():  # held by another process
                raise HTTPRequestError(409, "Conflict: this session already has a GET stream open")
            hold = self._answers.hold(environ, session, polled=polled)
        except BaseException:
            stream.detach(consumer)
            raise
        preamble = [stream.prime(self.retry_ms)] if polled else []
        body = SSEBody(
            stream, consumer, preamble, keepalive=self.keepalive_interval, retry_ms=self.retry_ms,
            on_end=session.stream_ended, hold=hold,
        )
        return sse_answer(body, hold)

    # -- DELETE --------------------------------------------------------------

    def _delete(self, environ: WSGIEnvironment, principal: Principal | None) -> Answer:
        assert self._sessions is not None
        no_session_means_modern(environ, "DELETE")
        session = self._session(environ, principal)
        protocol_version(environ)
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
        if not session.engaged:  # get() marked it active: only its first request after initialize is news
            session.note_request()
        if principal is not None:
            session.server_session.auth = principal  # the same caller's latest token: its scopes may have grown
        return session

    # -- public --------------------------------------------------------------

    @property
    def session_ids(self) -> list[str]:
        """The ids of the open sessions."""
        return [] if self._sessions is None else [session.id for session in self._sessions.snapshot()]

    def close_sse_stream(self, session_id: str, request_id: t.Any) -> bool:
        """End the SSE connection answering ``request_id`` (as ``server_context.close_sse_stream()``);
        returns whether there was one.

        :param session_id: the session's ``Mcp-Session-Id``.
        :param request_id: the JSON-RPC id of the request.
        """
        session = self._sessions.get(session_id) if self._sessions is not None else None
        return session is not None and session.close_request_stream(request_id)

    def close_standalone_sse_stream(self, session_id: str) -> bool:
        """End the session's GET connection (the client reconnects with ``Last-Event-ID``);
        returns whether there was one.

        :param session_id: the session's ``Mcp-Session-Id``.
        """
        session = self._sessions.get(session_id) if self._sessions is not None else None
        return session is not None and session.close_standalone_stream()

    def close(self) -> None:
        """Stop: end ``subscriptions/listen`` streams with their result, then every session
        (cancelling its requests and connections) and the transport's threads."""
        self._closed = True
        self._answers.close_listens()
        if self._sessions is not None:
            self._sessions.close()
        self._answers.end_stateless()
        self._pool.close()
        if self._body_deadlines is not None:
            self._body_deadlines.close()
        if self._shared is not None:
            self._shared.backplane.close()
        self.server.lifespan.leave(self)

    def __enter__(self) -> StreamableHTTPTransport:
        return self

    def __exit__(self, *exc_info: t.Any) -> None:
        self.close()

__all__ = [
    "FRAMEWORK_REQUEST_KEY",
    "CarryingRequest",
    "EventStore",
    "HTTPRequestError",
    "InMemoryEventStore",
    "Limits",
    "RebindingGuard",
    "RedisBackplane",
    "RedisEventStore",
    "RedisSessionRegistry",
    "RedisSubscriptionBus",
    "Security",
    "SharedHTTPSession",
    "Storage",
    "StreamableHTTPTransport",
]
