"""The channel a request runs on: what a handler talks to the client through.

Four things play this role, and each is a :class:`Channel`:

- :class:`~mcp_sdk.ServerSession`: one 2025 client connection (stdio, an HTTP session);
- :class:`~mcp_sdk.server.transports.streamable_http.sessions.request_channel.RequestChannel`: the
  connection one stateless HTTP POST runs on;
- :class:`~mcp_sdk.server.exchange_2026.ModernExchange`: one 2026-07-28 request, its state
  read from the request's ``_meta``, carried by the connection it came on;
- :class:`~mcp_sdk.server.task_exchange.TaskExchange`: the work of one task of the tasks extension.

A handler sees ``request.session`` (``server_context.session``) as a channel, whatever
the era: it writes notifications, sends requests to the client, and reads the protocol
version, the client's capabilities and the authenticated caller. The base class holds
that state (set in its ``__init__``, which every channel calls) and what follows from it;
each channel says how it writes, how it asks the client, and how it tracks requests.
"""

from __future__ import annotations

import typing as t

from .. import error_codes, json_rpc, methods
from .. import protocol_version as versions
from ..cancellation import Cancellation
from ..errors import CapabilityError, ValidationError
from ..graceful_end import GracefulEnd

if t.TYPE_CHECKING:
    from .auth import Principal
    from .core import ServerCore


def safe_repr(value: t.Any, limit: int = 1000) -> str:
    """``repr(value)`` cut to ``limit`` characters, for error reports: never raises
    (a result nested past the recursion limit, or a broken ``__repr__``)."""
    try:
        return repr(value)[:limit]
    except Exception as error:  # RecursionError included
        return f"<unrepresentable {type(value).__name__}: {type(error).__name__}>"


class ClientRequest(t.NamedTuple):
    """A request the server sends to the client, as :meth:`Channel.send_request` received it."""

    method: str
    params: t.Any
    #: The client request it is part of (a transport carries it on that request's stream).
    related_request_id: t.Any
    #: The parent request's token: its cancellation ends the wait.
    cancellation: Cancellation | None
    #: Seconds to wait for the answer (None: the configuration's ``server_request_timeout``).
    timeout: float | None


class Channel:
    """A request's way to the client (see the module docstring).

    Subclasses implement :meth:`write`, :meth:`ask`, the request tracking
    (:meth:`accept`, :meth:`forget`, :meth:`begin`, :meth:`end`, :meth:`cancel_request`,
    :attr:`in_flight_count`) and :meth:`close`; each of those raises
    :class:`NotImplementedError` here.

    :param server: the server the channel belongs to.
    :param session_id: the transport's id for the connection, if it has one.
    :param protocol_version: the protocol version in effect (None: not negotiated yet).
    :param client_info: the client's ``clientInfo``.
    :param client_capabilities: the client's ``capabilities``.
    :param log_level: the lowest level of log messages the client wants (None: none).
    :param initialized: whether the client said ``notifications/initialized`` (or needs not).
    :param can_send_requests: whether the channel can carry requests to the client.
    :param no_requests_reason: said in the error when it cannot.
    :param auth: the authenticated caller (None: no authentication).
    :param serves_modern: whether 2026-07-28 requests run on this channel.
    """

    #: Whether a handler's :class:`~mcp_sdk.InputRequiredResult` goes back to the client as the
    #: answer (2026-07-28, multi round-trip requests); otherwise the SDK asks the client with
    #: real requests and runs the handler again with the answers.
    returns_input_requests: t.ClassVar[bool] = False
    #: Whether a level set by ``logging/setLevel`` reaches the channel's later requests. False on
    #: a stateless HTTP POST (``StreamableHTTPTransport(stateless=True)``), where each request has
    #: a channel of its own: ``initialize`` then does not advertise ``logging`` and
    #: ``logging/setLevel`` is refused, rather than answered and forgotten.
    keeps_log_level: t.ClassVar[bool] = True

    # Per-channel state; __init__ sets what it is given, the rest keeps these defaults.
    #: The transport's id for the connection, if it has one.
    session_id: str | None = None
    #: The negotiated protocol version (None before ``initialize``).
    protocol_version: str | None = None
    #: ``clientInfo`` the client sent.
    client_info: dict[str, t.Any] | None = None
    #: ``capabilities`` the client declared.
    client_capabilities: dict[str, t.Any]
    #: The level set by ``logging/setLevel`` (None: send no log messages).
    log_level: str | None = None
    #: Whether ``notifications/initialized`` arrived.
    initialized: bool = False
    #: False where the channel cannot carry server-to-client requests.
    can_send_requests: bool = False
    #: Said in the error when ``can_send_requests`` is False.
    no_requests_reason: str = ""
    #: The authenticated caller, set by a transport with authentication (None: no authentication).
    auth: Principal | None = None
    #: Whether a 2026-07-28 request arrived on this channel (then, without ``initialize``,
    #: it gets no session broadcasts).
    serves_modern: bool = False
    #: Set by a transport that can end a request's SSE connection early (Streamable HTTP,
    #: SEP-1699): ``fn(request_id) -> bool``; see :meth:`close_sse_stream`.
    stream_closer: t.Callable[[t.Any], bool] | None = None
    #: Ends this channel's ``subscriptions/listen`` request early with its result, set by a
    #: transport that bounds listens (one request per channel: 2026-07-28 over HTTP); else None.
    graceful_end: GracefulEnd | None = None
    _closed: bool = False

    def __init__(
        self,
        server: ServerCore,
        *,
        session_id: str | None = None,
        protocol_version: str | None = None,
        client_info: dict[str, t.Any] | None = None,
        client_capabilities: dict[str, t.Any] | None = None,
        log_level: str | None = None,
        initialized: bool = False,
        can_send_requests: bool = False,
        no_requests_reason: str = "",
        auth: Principal | None = None,
        serves_modern: bool = False,
    ) -> None:
        self.server = server
        self.client_capabilities = client_capabilities if client_capabilities is not None else {}
        # The rest keep the class's defaults (above) unless given: a channel is built for every
        # 2026-07-28 request, and each store costs.
        if session_id is not None:
            self.session_id = session_id
        if protocol_version is not None:
            self.protocol_version = protocol_version
        if client_info is not None:
            self.client_info = client_info
        if log_level is not None:
            self.log_level = log_level
        if initialized:
            self.initialized = True
        if can_send_requests:
            self.can_send_requests = True
        if no_requests_reason:
            self.no_requests_reason = no_requests_reason
        if auth is not None:
            self.auth = auth
        if serves_modern:
            self.serves_modern = True

    # -- state ---------------------------------------------------------------

    @property
    def version(self) -> str:
        """The protocol version in effect: negotiated, or the server's latest before ``initialize``."""
        return self.protocol_version or self.server.configuration.protocol_version

    def supports(self, feature: str) -> bool:
        """Whether the version in effect has ``feature`` (see :func:`mcp_sdk.protocol_version.supports`).

        :param feature: a feature name of :mod:`mcp_sdk.protocol_version` (``"progress_message"``...).
        """
        return versions.supports(self.version, feature)

    def client_supports(self, capability: str) -> bool:
        """Whether the client declared ``capability`` (dotted: ``"sampling.tools"``, ``"elicitation.url"``).

        :param capability: a capability's dotted path.
        """
        capabilities = self.client_capabilities
        if capability == "elicitation.form":
            elicitation = capabilities.get("elicitation")
            # An empty `elicitation` object means form mode (2025-06-18 and the 2025-11-25 default).
            return isinstance(elicitation, dict) and (not elicitation or "form" in elicitation)
        node: t.Any = capabilities
        # Extension ids have dots of their own: "extensions.io.modelcontextprotocol/ui".
        parts = ["extensions", capability[11:]] if capability.startswith("extensions.") else capability.split(".")
        for part in parts:
            if not isinstance(node, dict) or part not in node or node[part] is None:
                return False
            node = node[part]
        return True

    def require_capability(self, capability: str, method: str) -> None:
        """Raise :class:`~mcp_sdk.errors.CapabilityError` unless the client declared ``capability``.

        :param capability: a capability's dotted path.
        :param method: the request that needs it, for the message.
        """
        if not self.client_supports(capability):
            raise CapabilityError(f"Client does not support {capability} (needed for {method})")

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` ended the channel."""
        return self._closed

    # -- encoding ------------------------------------------------------------

    def encode(self, response: t.Any) -> str | None:
        """JSON text of a response; a result JSON cannot represent becomes a ``-32603`` error.

        :param response: a JSON-RPC response, a batch of them, or None.
        :returns: the JSON text, or None for None.
        """
        if response is None:
            return None
        if type(response) is list:  # a batch: only the responses that cannot be encoded become errors
            return "[" + ",".join(self._encode_one(item) for item in response) + "]"
        return self._encode_one(response)

    def _encode_one(self, response: dict[str, t.Any]) -> str:
        try:
            return json_rpc.encode(response)
        except (TypeError, ValueError, RecursionError) as error:
            self.server.report_exception(error, {"response": safe_repr(response)})
            return json_rpc.encode(json_rpc.error(response.get("id"), error_codes.INTERNAL_ERROR))

    # -- outgoing ------------------------------------------------------------

    def write(self, message: dict[str, t.Any], related_request_id: t.Any = None) -> None:
        """Hand a message to the client (how, and whether at all, is the channel's to say)."""
        raise NotImplementedError

    def send_notification(self, method: str, params: t.Any = None, related_request_id: t.Any = None) -> None:
        """Send a notification to this client.

        :param method: the notification's method.
        :param params: its params.
        :param related_request_id: the client request it belongs to (its SSE stream carries it).
        """
        self.write(json_rpc.notification(method, params), related_request_id)

    def notify_log_message(
        self, data: t.Any, level: str, logger: str | None = None, related_request_id: t.Any = None
    ) -> None:
        """Send ``notifications/message`` if ``level`` is at or above the client's log level.

        :raises ValueError: for a level that is not one of the eight.
        :param data: the message: a string or any JSON value.
        :param level: its syslog level: ``"debug"`` to ``"emergency"``.
        :param logger: the name of the logger that produced it, if any.
        :param related_request_id: the client request it belongs to.
        """
        severity = methods.LOG_SEVERITY.get(level)
        if severity is None:
            raise ValueError(f"log level must be one of {', '.join(methods.LOG_LEVELS)}, not {level!r}")
        current = self.log_level
        if current is None or severity < methods.LOG_SEVERITY[current]:
            return
        params: dict[str, t.Any] = {"level": level, "data": data}
        if logger is not None:
            params["logger"] = logger
        self.send_notification(methods.NOTIFICATIONS_MESSAGE, params, related_request_id)

    def send_request(
        self,
        method: str,
        params: t.Any = None,
        *,
        related_request_id: t.Any = None,
        cancellation: Cancellation | None = None,
        timeout: float | None = None,
    ) -> t.Any:
        """Ask the client something (roots, sampling, elicitation) and return its result.

        :param related_request_id: the client request this one is part of.
        :param cancellation: the parent request's token: its cancellation ends the wait
            with :class:`~mcp_sdk.CancelledError`.
        :param timeout: seconds; defaults to the configuration's ``server_request_timeout``.
        :raises JSONRPCError: the client answered with an error.
        :raises RequestTimeoutError: no answer in time.
        :raises TransportError: the channel cannot carry this request.
        :param method: the request's method (``"sampling/createMessage"``...).
        :param params: its params.
        """
        return self.ask(ClientRequest(method, params, related_request_id, cancellation, timeout))

    def ask(self, request: ClientRequest) -> t.Any:
        """How this channel gets the client's answer to ``request`` (see :meth:`send_request`)."""
        raise NotImplementedError

    def ping(
        self, timeout: float | None = None, *, related_request_id: t.Any = None, cancellation: Cancellation | None = None
    ) -> dict[str, t.Any]:
        """Ping the client (``ping`` is a request either side may send); returns ``{}``.

        :raises ValidationError: the client's result is not an object.
        :raises RequestTimeoutError: no answer within ``timeout``.
        :param timeout: seconds to wait for the answer (default: the configuration's ``server_request_timeout``).
        :param related_request_id: the client request this one is part of.
        :param cancellation: the parent request's token: its cancellation ends the wait.
        """
        result = self.send_request(
            methods.PING, None, related_request_id=related_request_id, cancellation=cancellation, timeout=timeout
        )
        if not isinstance(result, dict):
            raise ValidationError(f"ping result must be an object, got {type(result).__name__}")
        return result

    def close_sse_stream(self, request_id: t.Any) -> bool:
        """End the SSE connection carrying ``request_id``'s answer; the client reconnects with
        ``Last-Event-ID`` and receives what follows, the response included (SEP-1699 polling).

        :return: whether a connection was closed (False where the transport cannot resume).
        :param request_id: the id of the client request whose SSE connection to close.
        """
        closer = self.stream_closer
        return closer(request_id) if closer is not None else False

    # -- requests in flight (cancellation) -----------------------------------

    def accept(self, request_id: t.Any) -> Cancellation | None:
        """Note a request a transport took and will run later; returns its cancellation token
        (None when ``request_id`` is already taken or in flight)."""
        raise NotImplementedError

    def forget(self, request_id: t.Any) -> None:
        """Drop what :meth:`accept` noted, for a request that will not be handled."""
        raise NotImplementedError

    def begin(self, request_id: t.Any, cancellation: Cancellation) -> bool:
        """Track a request that starts; False (and nothing tracked) when ``request_id`` is in flight."""
        raise NotImplementedError

    def end(self, request_id: t.Any) -> None:
        """Stop tracking a request that ended.

        :param request_id: the request's JSON-RPC id.
        """
        raise NotImplementedError

    def cancel_request(self, request_id: t.Any, reason: str | None = None) -> bool:
        """Cancel a client request in flight or accepted (as ``notifications/cancelled`` does)."""
        raise NotImplementedError

    @property
    def in_flight_count(self) -> int:
        """Requests running on this channel."""
        raise NotImplementedError

    # -- lifecycle -----------------------------------------------------------

    def close(self, reason: str = "Connection closed") -> None:
        """End the channel: its requests are cancelled, waits on the client fail."""
        raise NotImplementedError


__all__ = ["Channel", "ClientRequest", "safe_repr"]
