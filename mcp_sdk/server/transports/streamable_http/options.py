"""The options of :class:`~mcp_sdk.server.transports.StreamableHTTPTransport`, in three groups.

Each group is a frozen value, validated when built, so one ``Limits(...)`` can
serve several transports (``attrs.evolve(limits, wsgi_threads=32)`` makes a
variant). Every field is also a keyword of the transport itself; a transport is
given a group *or* the keywords of that group, never both (:func:`gather`).
"""

from __future__ import annotations

import enum
import typing as t

import attrs

from ...auth import BearerAuth
from ...auth.request_auth import Authenticate, RequestAuthenticator
from .streams.event_store import EventStore
from .capacity.limits import streams_for_threads
from .sessions.http_session import DEFAULT_IDLE_TIMEOUT, UNUSED_TIMEOUT

#: The largest POST body accepted by default (as the TypeScript SDK).
DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024
#: The WSGI server threads assumed when the server does not tell (waitress's default), which size the stream caps.
DEFAULT_WSGI_THREADS = 4
#: Seconds a 2025-11-25 client's SSE connection is held at most by default before it is closed
#: with a ``retry`` and the client polls (SEP-1699).
DEFAULT_STREAM_HOLD = 10.0
#: Seconds a 2026-07-28 ``subscriptions/listen`` stream holds its WSGI thread at most by default,
#: before it is ended with its result and the client listens again.
DEFAULT_LISTEN_HOLD = 300.0
#: Seconds a client gets to send a request body by default.
DEFAULT_BODY_TIMEOUT = 10.0
#: Requests of one session answered over SSE at once by default (queued or running).
DEFAULT_MAX_REQUESTS_PER_SESSION = 8


class _Unset(enum.Enum):
    UNSET = "UNSET"

    def __repr__(self) -> str:
        return "UNSET"


#: The default of the transport's grouped keywords: "not given, the group's default applies".
#: Typed ``Any`` so that each keyword keeps its own type in the transport's signature.
UNSET: t.Any = _Unset.UNSET

_Group = t.TypeVar("_Group", "Limits", "Security", "Storage")


def _positive(name: str, value: t.Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer, not {value!r}")


@attrs.frozen(kw_only=True)
class Limits:
    """What one client, and all of them together, may take of the process.

    :param max_body_bytes: larger POST bodies get 413.
    :param body_timeout: seconds a client gets to send its request body; past it, 408 and the
        connection's reading side is shut (gunicorn, werkzeug; waitress buffers bodies itself).
        None: no deadline.
    :param max_sessions: the most sessions at once; when full, one idle for a minute is
        closed to make room, else ``initialize`` gets 503 with ``Retry-After``; None: no limit.
    :param session_idle_timeout: seconds after which a session with no client activity and
        no open stream expires, its running requests cancelled (a ``mcp-http-session-reaper``
        thread); None: never. Default 30 minutes.
    :param unused_session_timeout: seconds a session that sent nothing after ``initialize``
        lives (default 30); None: as long as any other.
    :param max_workers: threads running requests answered with SSE, shared in turn between sessions.
        Under gevent, at least one per connection the server accepts (they are greenlets, and a
        ``subscriptions/listen`` keeps one while it is open).
    :param wsgi_threads: the WSGI server's thread count. Default None: what the server tells
        (waitress ``threads``, gunicorn ``--threads`` of ``gthread`` or ``--worker-connections``
        of ``gevent``), else 4 (waitress's default). Sizes the default ``max_streams`` and how
        long streams are held (``stream_hold``). Under gevent's monkey-patching it counts
        connections, not threads (else 1000), and sizes the caps as
        :mod:`.capacity.greenlet_capacity` says.
    :param max_streams: SSE connections held open at once in all. Past it a client of protocol
        2025-11-25 gets its pending events and a ``retry`` at once (it polls); an older client,
        which cannot resume, gets 503 with ``Retry-After``. Default: ``wsgi_threads`` less a
        quarter of them and at least two (4 -> 2, 32 -> 24), so JSON requests and answers to
        server-to-client requests always find a thread.
    :param max_streams_per_session: SSE connections of one session held at once (its GET stream
        and request streams); past it, as past ``max_streams`` but 429. Default: half of
        ``max_streams``, at least 2.
    :param stream_hold: seconds a 2025-11-25 client's SSE connection (GET stream, resumption,
        answer to a slow request) keeps its thread at most; then it ends after a ``retry`` field
        and the client resumes with ``GET`` + ``Last-Event-ID`` (SEP-1699 polling), while the
        request runs on. Shorter as free threads run low, 0 when the stream would take one of the
        last quarter. None: held as long as the stream lasts. Under gevent, where a stream keeps
        no thread, streams are held as long as they last whatever this says.
    :param listen_hold: seconds a 2026-07-28 ``subscriptions/listen`` stream (which cannot be
        resumed, so holds its WSGI thread while open) stays open at most; then it is ended with
        its ``subscriptions/listen`` result and the client listens again. Listens also share the
        threads beyond a quarter kept for JSON requests (under gevent the connections beyond a
        tenth), one principal or anonymous client address (``REMOTE_ADDR``) at most half of them,
        past it 429. A newcomer past the share ends the oldest listen of a client holding at least
        two more than it would, else is ended at once itself; a request leaving no thread free
        ends the newest listen of the client holding the most. None: no time bound. Not applied
        where streams cost greenlets (gevent).
    :param max_requests_per_session: requests of one session answered over SSE and not yet
        finished (queued or running); past it, 429 with ``Retry-After``.
    :raises ValueError: for a value out of range.
    """

    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    body_timeout: float | None = DEFAULT_BODY_TIMEOUT
    max_sessions: int | None = 10_000
    session_idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT
    unused_session_timeout: float | None = UNUSED_TIMEOUT
    max_workers: int = 64
    wsgi_threads: int | None = None
    max_streams: int | None = None
    max_streams_per_session: int | None = None
    max_requests_per_session: int = DEFAULT_MAX_REQUESTS_PER_SESSION
    stream_hold: float | None = DEFAULT_STREAM_HOLD
    listen_hold: float | None = DEFAULT_LISTEN_HOLD

    def __attrs_post_init__(self) -> None:
        for name, value in (
            ("session_idle_timeout", self.session_idle_timeout),
            ("unused_session_timeout", self.unused_session_timeout),
        ):
            if value is not None and value <= 0:
                raise ValueError(f"{name} must be a positive number or None")
        if self.wsgi_threads is not None:
            _positive("wsgi_threads", self.wsgi_threads)
        if self.stream_hold is not None and self.stream_hold < 0:
            raise ValueError("stream_hold must be a number of seconds (0 or more) or None")
        if self.listen_hold is not None and self.listen_hold <= 0:
            raise ValueError("listen_hold must be a positive number of seconds or None")
        if self.max_streams is not None:
            _positive("max_streams", self.max_streams)
        if self.max_streams_per_session is not None:
            _positive("max_streams_per_session", self.max_streams_per_session)
        _positive("max_requests_per_session", self.max_requests_per_session)
        if self.body_timeout is not None and self.body_timeout <= 0:
            raise ValueError("body_timeout must be positive or None")
        _positive("max_body_bytes", self.max_body_bytes)
        if self.max_sessions is not None and self.max_sessions < 1:
            raise ValueError("max_sessions must be positive or None")

    @property
    def threads(self) -> int:
        """``wsgi_threads``, or :data:`DEFAULT_WSGI_THREADS` until the WSGI server tells its own."""
        return self.wsgi_threads if self.wsgi_threads is not None else DEFAULT_WSGI_THREADS

    @property
    def total_streams(self) -> int:
        """``max_streams``, or the default sized from :attr:`threads`."""
        return self.total_streams_for(self.threads)

    @property
    def streams_per_session(self) -> int:
        """``max_streams_per_session``, or half of :attr:`total_streams` (at least 2)."""
        return self.streams_per_session_for(self.threads)

    def total_streams_for(self, threads: int) -> int:
        """``max_streams``, or the default for a WSGI server of ``threads`` threads.

        :param threads: the WSGI server's threads (``wsgi_threads``).
        """
        return self.max_streams if self.max_streams is not None else streams_for_threads(threads)

    def streams_per_session_for(self, threads: int) -> int:
        """``max_streams_per_session``, or the default for a WSGI server of ``threads`` threads.

        :param threads: the WSGI server's threads (``wsgi_threads``).
        """
        if self.max_streams_per_session is not None:
            return self.max_streams_per_session
        return max(2, self.total_streams_for(threads) // 2)


def _hosts(values: t.Iterable[str] | None) -> tuple[str, ...] | None:
    return None if values is None else tuple(values)


@attrs.frozen(kw_only=True)
class Security:
    """Who may reach the endpoint.

    :param allowed_hosts: ``Host`` values accepted beside the loopback names
        (``"mcp.example.com"``, ``"mcp.example.com:8443"``, ``"*"``).
    :param allowed_origins: ``Origin`` values accepted beside same-origin and,
        on a loopback host, loopback origins (``"https://app.example.com"``, ``"*"``).
    :param dns_rebinding_protection: check ``Host`` and ``Origin`` (403 otherwise);
        turn off only behind a proxy that checks them.
    :param auth: a :class:`~mcp_sdk.server.auth.BearerAuth`: every request needs a valid
        OAuth access token (401/403 with ``WWW-Authenticate`` otherwise).
    :param authenticate: ``fn(environ) -> Principal | None``, the host's own login (a
        Flask-Login user, a Django ``request.user``); None falls back to ``auth``, or 401.
        With either, a session belongs to the principal that created it (404 for anyone
        else) and handlers read the caller as ``server_context.auth``.
    :raises TypeError: ``auth`` is not a ``BearerAuth``, or ``authenticate`` is not callable.
    """

    allowed_hosts: tuple[str, ...] | None = attrs.field(default=None, converter=_hosts)
    allowed_origins: tuple[str, ...] | None = attrs.field(default=None, converter=_hosts)
    dns_rebinding_protection: bool = True
    auth: BearerAuth | None = None
    authenticate: Authenticate | None = None

    def __attrs_post_init__(self) -> None:
        self.authenticator()  # checks auth and authenticate

    def authenticator(self) -> RequestAuthenticator | None:
        """What asks each request for its principal (None: no ``auth`` nor ``authenticate``)."""
        if self.auth is None and self.authenticate is None:
            return None
        return RequestAuthenticator(self.auth, self.authenticate)


@attrs.frozen(kw_only=True)
class Storage:
    """Where sessions and their events live.

    :param event_store: makes each session's event store, called with the session
        id (default :class:`~.InMemoryEventStore`).
    :param redis_url: share sessions, streams, resumption and ``subscriptions/listen`` across
        every process given the same URL (``"redis://host:6379/0"``); needs the ``mcp_sdk[redis]`` extra.
    :param redis: a ``redis.Redis`` client, instead of ``redis_url``.
    :param redis_prefix: prepended to every Redis key and channel (endpoints sharing one Redis differ in it).
    """

    event_store: t.Callable[[str], EventStore] | None = None
    redis_url: str | None = None
    redis: t.Any = None
    redis_prefix: str = "mcp:"

    @property
    def shared(self) -> bool:
        """Whether sessions are shared on Redis."""
        return self.redis_url is not None or self.redis is not None


def gather(kind: type[_Group], group: _Group | None, keyword: str, **given: t.Any) -> _Group:
    """The group a transport uses: ``group``, or one built from the keywords ``given`` (those not
    :data:`UNSET`).

    :param keyword: the transport's keyword for the group (``"limits"``), for messages.
    :raises TypeError: ``group`` is not a ``kind``, or a keyword of the group came with it.
    """
    keywords = {name: value for name, value in given.items() if value is not UNSET}
    if group is None:
        return kind(**keywords)
    if not isinstance(group, kind):
        raise TypeError(f"{keyword} must be a {kind.__name__}, not {type(group).__name__}")
    if keywords:
        names = ", ".join(keywords)
        raise TypeError(
            f"StreamableHTTPTransport got {names} both as a keyword and in {keyword}=; set it in one place "
            f"({keyword}=attrs.evolve({keyword}, ...) changes a field of a group)"
        )
    return group


def gather_groups(
    limits: Limits | None, security: Security | None, storage: Storage | None, keywords: t.Mapping[str, t.Any]
) -> tuple[Limits, Security, Storage]:
    """The three groups a transport uses, each :func:`gather`-ed from the group given and its fields
    among ``keywords`` (the transport's grouped keywords, :data:`UNSET` when not given).

    :param limits: the ``limits=`` given (None: built from its keywords).
    :param security: the ``security=`` given (None: built from its keywords).
    :param storage: the ``storage=`` given (None: built from its keywords).
    :param keywords: keyword -> value, for every grouped keyword of the transport.
    :raises TypeError: a group is not of its class, or came with one of its keywords.
    """

    def fields(kind: type[_Group]) -> dict[str, t.Any]:
        return {field.name: keywords[field.name] for field in attrs.fields(kind) if field.name in keywords}

    return (
        gather(Limits, limits, "limits", **fields(Limits)),
        gather(Security, security, "security", **fields(Security)),
        gather(Storage, storage, "storage", **fields(Storage)),
    )


__all__ = [
    "DEFAULT_BODY_TIMEOUT",
    "DEFAULT_LISTEN_HOLD",
    "DEFAULT_MAX_BODY_BYTES",
    "DEFAULT_MAX_REQUESTS_PER_SESSION",
    "DEFAULT_STREAM_HOLD",
    "DEFAULT_WSGI_THREADS",
    "UNSET",
    "Limits",
    "Security",
    "Storage",
    "gather",
    "gather_groups",
]
