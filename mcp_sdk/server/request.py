"""A client message from the transport's edge to its handler.

- :class:`Incoming`: one decoded message as a transport hands it to the server, read once where it
  enters: what kind of message it is (a request, a notification, a response, a batch, or not a
  valid message), its id, its era (:func:`is_modern`, from the 2026-07-28 envelope), and what the
  transport knows of it: who sent it, the HTTP request that carried it, the token that cancels it,
  and the handler it resolved to (:class:`~.dispatch.Route`).
- :class:`Request`: the request being handled, made once from an :class:`Incoming`, as middleware
  and handlers see it.

The era of a message is decided here, once, and nowhere else: a request naming a method only
2026-07-28 has, or whose ``params._meta`` carries one of the per-request protocol fields, is
modern (https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning, "Backward
Compatibility"); :mod:`.envelope` then reads the envelope of a modern request.
"""

from __future__ import annotations

import functools
import typing as t

from .. import error_codes, json_rpc, methods
from ..cancellation import Cancellation
from .context import ServerContext
from .input_required import RoundTripInputs

if t.TYPE_CHECKING:
    from .channel import Channel
    from .auth import Principal
    from .dispatch import Route

#: The ``params._meta`` field naming a 2026-07-28 request's protocol version.
PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
#: The ``params._meta`` field carrying a 2026-07-28 request's client capabilities.
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"

#: Methods that exist only in the modern era: they are modern whatever their ``_meta``.
MODERN_ONLY_METHODS = frozenset({methods.SERVER_DISCOVER, methods.SUBSCRIPTIONS_LISTEN})

#: What an :class:`Incoming` is (:attr:`Incoming.kind`).
REQUEST = "request"
NOTIFICATION = "notification"
RESPONSE = "response"
BATCH = "batch"
INVALID = "invalid"

_NOT_AN_OBJECT = "Invalid Request: expected a JSON object"


def is_modern(method: t.Any, params: t.Any) -> bool:
    """Whether a message with this ``method`` and these ``params`` is a 2026-07-28 request: it names
    a modern-only method, or its ``params._meta`` carries one of the per-request protocol fields.

    A message with a malformed envelope (one field of the two) is still modern, so that it gets
    the modern error (-32602) rather than being served as part of a session.
    """
    if method in MODERN_ONLY_METHODS:
        return True
    if type(params) is not dict:
        return False
    meta = params.get("_meta")
    return type(meta) is dict and (PROTOCOL_VERSION_KEY in meta or CLIENT_CAPABILITIES_KEY in meta)


def is_request(item: t.Any) -> bool:
    """Whether ``item`` (a message, or an item of a batch) is a request a transport waits for the
    answer to: it has a method and a valid id (its JSON-RPC version unchecked)."""
    if type(item) is not dict or type(item.get("method")) is not str:
        return False
    kind = type(item.get("id"))
    return kind is str or kind is int


class Incoming:
    """One decoded message (or batch) on its way from a transport to the server, read once.

    Where one is made for every request, its arguments are given by position: a class called with
    keywords builds a dict of them on every call.

    :param message: the decoded JSON-RPC message, or a list of them.
    :param modern: True: a request served as 2026-07-28 whatever its ``_meta`` (an HTTP POST with
        no session); None: its era is read from its envelope.
    :param principal: the authenticated caller (None without authentication).
    :param http_request: the HTTP request that carried it, or a zero-argument callable that makes
        it (handlers read it as ``server_context.request``); None on stdio.
    :param make_http_request: instead of ``http_request``: makes it when first asked for (most
        requests never are).
    :param cancellation: the token the transport took for it (see :meth:`ServerSession.accept`).

    :ivar kind: :data:`REQUEST`, :data:`NOTIFICATION`, :data:`RESPONSE`, :data:`BATCH` or
        :data:`INVALID` (then :attr:`error` is the answer).
    :ivar modern: whether it is a 2026-07-28 message (always False for a batch).
    :ivar route: the handler the server resolved it to, once (see :meth:`mcp_sdk.Server.route`);
        None until resolved.
    """

    __slots__ = (
        "message", "kind", "method", "params", "id", "modern", "error", "principal", "http_request", "make_http_request",
        "cancellation", "route",
    )

    def __init__(
        self,
        message: t.Any,
        modern: bool | None = None,
        principal: Principal | None = None,
        http_request: t.Any = None,
        make_http_request: t.Callable[[], t.Any] | None = None,
        cancellation: Cancellation | None = None,
    ) -> None:
        self.message = message
        self.principal = principal
        self.http_request = http_request
        self.make_http_request = make_http_request
        self.cancellation = cancellation
        self.route: Route | None = None
        #: The error response to a message that is not a valid one (None otherwise).
        self.error: dict[str, t.Any] | None = None
        # Each field is set once: the common message, an object, sets its own below.
        if type(message) is not dict:
            self.method: t.Any = None
            self.params: t.Any = None
            self.id: t.Any = None
            self.modern = False
            if type(message) is list:
                self.kind = BATCH
            else:
                self._invalid(None, _NOT_AN_OBJECT)
            return
        method = self.method = message.get("method")
        params = self.params = message.get("params")
        request_id = self.id = message.get("id")
        self.modern = is_modern(method, params) if modern is None else modern
        id_type = type(request_id)
        id_ok = id_type is str or id_type is int
        if method is None:
            if "id" in message and ("result" in message or "error" in message):
                self.kind = RESPONSE
            else:
                self._invalid(request_id if id_ok else None)
        elif message.get("jsonrpc") != "2.0":
            self._invalid(request_id if id_ok else None, 'Invalid Request: jsonrpc must be "2.0"')
        elif type(method) is not str:
            self._invalid(request_id if id_ok else None, "Invalid Request: method must be a string")
        elif "id" not in message:
            self.kind = NOTIFICATION
        elif not id_ok:
            self._invalid(None, "Invalid Request: id must be a string or an integer")
        else:
            self.kind = REQUEST

    def _invalid(self, request_id: t.Any, message: str | None = None) -> None:
        self.kind = INVALID
        self.error = json_rpc.error(request_id, error_codes.INVALID_REQUEST, message)

    def carrier(self) -> t.Any:
        """The HTTP request that carried it (see ``http_request``), made once, on first use."""
        http_request = self.http_request
        make = self.make_http_request
        if http_request is None and make is not None:
            http_request = self.http_request = make()
            self.make_http_request = None
        return http_request

    def request_ids(self) -> list[t.Any]:
        """The ids of the requests it holds (a message with a method and a valid id; in a batch, each
        such item), whose answers a transport waits for."""
        message = self.message
        if type(message) is list:
            return [item["id"] for item in message if is_request(item)]
        return [message["id"]] if is_request(message) else []


def _handler_request(make_http_request: t.Callable[[], t.Any]) -> t.Any:
    """What ``server_context.request`` gives for a request whose HTTP request is made on first use."""
    http_request = make_http_request()
    return http_request() if callable(http_request) else http_request


class Request:
    """The request being handled: its channel (``session``), params, cancellation token and instrumentation data.

    :param make_http_request: makes :attr:`http_request` on first use, when ``http_request`` is None
        (a transport's carrier, which most requests never need); it should make one object however
        often called (as :meth:`Incoming.carrier` does), which ``server_context.request`` then shares.
    """

    __slots__ = (
        "session", "id", "method", "params", "message", "cancellation", "inputs", "data",
        "_http_request", "_make_http_request", "_context",
    )

    def __init__(
        self,
        session: Channel,
        request_id: t.Any,
        method: str,
        params: t.Any,
        message: dict[str, t.Any],
        cancellation: Cancellation | None,
        inputs: RoundTripInputs | None = None,
        http_request: t.Any = None,
        make_http_request: t.Callable[[], t.Any] | None = None,
    ) -> None:
        self.session = session
        self.id = request_id
        self.method = method
        self.params = params
        #: The raw JSON-RPC message, for the exception reporter.
        self.message = message
        self.cancellation = cancellation
        #: On the retry of a multi round-trip request: the answers and the handler's state.
        self.inputs = inputs
        self._http_request = http_request
        self._make_http_request = None if http_request is not None else make_http_request
        #: What ``around_request`` and ``instrumentation_callback`` see.
        self.data: dict[str, t.Any] = {"method": method}
        self._context: ServerContext | None = None

    @property
    def http_request(self) -> t.Any:
        """The HTTP request that carried it (the framework's request object; None on stdio)."""
        make = self._make_http_request
        if make is not None:
            self._make_http_request = None
            self._http_request = make()
        return self._http_request

    @property
    def principal(self) -> Principal | None:
        """The authenticated caller (None without authentication)."""
        return self.session.auth

    @property
    def meta(self) -> dict[str, t.Any] | None:
        params = self.params
        if type(params) is dict:
            meta = params.get("_meta")
            if isinstance(meta, dict):
                return meta
        return None

    def server_context(self) -> ServerContext:
        """The :class:`ServerContext` handlers receive (built once, on first use)."""
        context = self._context
        if context is None:
            meta = self.meta
            # Not made yet: made when the handler asks (``server_context.request``). What makes it is
            # passed, not this request: the context it keeps would make a cycle, left to the collector.
            make = self._make_http_request
            context = self._context = ServerContext(
                self.session.server.server_context,
                session=self.session,
                request_id=self.id,
                progress_token=meta.get("progressToken") if meta else None,
                cancellation=self.cancellation,
                meta=meta,
                inputs=self.inputs,
                http_request=self._http_request if make is None else functools.partial(_handler_request, make),
            )
        return context


__all__ = [
    "BATCH",
    "CLIENT_CAPABILITIES_KEY",
    "INVALID",
    "MODERN_ONLY_METHODS",
    "NOTIFICATION",
    "PROTOCOL_VERSION_KEY",
    "REQUEST",
    "RESPONSE",
    "Incoming",
    "Request",
    "RoundTripInputs",
    "is_modern",
    "is_request",
]
