"""The client's request sender: ids, the era's shaping and checks, the transport call, cancellation.

A :class:`RequestSender` is the narrow face of a :class:`~mcp_sdk.Client` that the
handshake (:mod:`mcp_sdk.client.negotiation`), the eras and a
:class:`~mcp_sdk.client.task_handle.TaskHandle` send through.
"""

from __future__ import annotations

import itertools
import logging
import typing as t

from .. import error_codes, json_rpc, methods
from ..cancellation import Cancellation
from ..errors import CancelledError, RequestTimeoutError, TransportError
from ..version import VERSION
from . import wire_2026
from .exceptions import ServerError, ValidationError
from .headers import ToolHeaders
from .trace_propagation import with_trace_meta
from .transport import Message, Transport, send_through

if t.TYPE_CHECKING:
    from .era import Era

logger = logging.getLogger("mcp_sdk.client")

#: The ``clientInfo`` sent when :meth:`Client.connect` is given none.
DEFAULT_CLIENT_INFO = {"name": "mcp_sdk", "version": VERSION}
#: Requests never followed by ``notifications/cancelled``: the specification never
#: cancels ``initialize``, and a probe is not a request the server knows.
_NEVER_CANCELLED = frozenset({methods.INITIALIZE, wire_2026.SERVER_DISCOVER})
#: ``_meta`` keys of the envelope (reserved for the protocol), left out when a request is sent again.
_RESERVED_META_PREFIX = "io.modelcontextprotocol/"


def result_of(response: Message) -> dict[str, t.Any]:
    """The ``result`` object of a response.

    :raises ValidationError: it has none.
    """
    result = response.get("result")
    if not isinstance(result, dict):
        raise ValidationError("Response validation failed: missing or invalid `result`")
    return result


def check_log_level(level: str | None) -> None:
    """:raises ValueError: ``level`` is not None nor one of the eight syslog levels MCP names."""
    if level is not None and level not in methods.LOG_LEVELS:
        raise ValueError(f"log_level must be one of {', '.join(methods.LOG_LEVELS)}, not {level!r}")


class RequestSender:
    """Sends a client's requests through its transport, as the era in use shapes them. Thread-safe.

    :param transport: a :class:`~mcp_sdk.client.transport.Transport`, or an object with
        the Ruby gem's ``send_request(request:)``.
    :param era: the era to speak until :meth:`Client.connect` picks one.
    :param handler_capabilities: the capabilities the client's registered handlers imply.
    :param answer: ``answer(method, params)``: the client's handlers answering one server request.
    :param timeout: default seconds to wait for a response (None: the transport's default).
    """

    def __init__(
        self,
        transport: t.Any,
        era: Era,
        *,
        handler_capabilities: t.Callable[[], dict[str, t.Any]],
        answer: t.Callable[[str, dict[str, t.Any]], t.Any],
        timeout: float | None = None,
    ) -> None:
        self.transport = transport
        #: The era requests are shaped by (:meth:`Client.connect` sets it).
        self.era = era
        self.timeout = timeout
        self.client_info: dict[str, t.Any] = dict(DEFAULT_CLIENT_INFO)
        #: Capabilities given to :meth:`Client.connect`, merged over the handlers' ones.
        self.extra_capabilities: dict[str, t.Any] = {}
        self.log_level: str | None = None
        self.carries_headers = isinstance(transport, Transport) and transport.carries_headers
        self.tool_headers = ToolHeaders()
        self._handler_capabilities = handler_capabilities
        self._answer = answer
        self._ids = itertools.count(1)

    def next_id(self) -> int:
        """A JSON-RPC id no request of this sender has used."""
        return next(self._ids)

    def capabilities(self) -> dict[str, t.Any]:
        """The capabilities the client declares: its handlers' and :attr:`extra_capabilities`."""
        return {**self._handler_capabilities(), **self.extra_capabilities}

    def answer_input(self, method: str, params: dict[str, t.Any]) -> t.Any:
        """The client's handlers' answer to one input request (``sampling/createMessage``,
        ``elicitation/create``, ``roots/list``).

        :raises JSONRPCError: no handler answers it (``-32601``), or the handler refused.
        """
        return self._answer(method, params)

    def notify(self, method: str, params: dict[str, t.Any] | None = None) -> None:
        """Send a notification.

        :raises TransportError: the transport cannot send notifications.
        """
        send_notification = getattr(self.transport, "send_notification", None)
        if send_notification is None:
            raise TransportError(f"{type(self.transport).__name__} cannot send notifications (it has no send_notification)")
        send_notification(json_rpc.notification(method, params))

    def cancel(self, request_id: str | int, reason: str | None = None) -> None:
        """Send ``notifications/cancelled`` for ``request_id``."""
        params: dict[str, t.Any] = {"requestId": request_id}
        if reason is not None:
            params["reason"] = reason
        self.notify(methods.NOTIFICATIONS_CANCELLED, params)

    def request(
        self,
        method: str,
        params: dict[str, t.Any] | None,
        *,
        era: Era | None = None,
        meta: dict[str, t.Any] | None = None,
        cancellation: Cancellation | None = None,
        timeout: float | None = None,
        request_id: int | None = None,
        raise_errors: bool = True,
    ) -> Message:
        """Send one request and return the response.

        :param era: the era to shape it by (default: :attr:`era`); the handshake tries one before it is chosen.
        :param meta: extra ``_meta`` entries.
        :param timeout: seconds to wait (None: :attr:`timeout`).
        :param request_id: the id to send it under (default: :meth:`next_id`).
        :param raise_errors: raise for an error response (else return it).
        :raises ServerError: the server answered with an error (with ``raise_errors``).
        :raises ValidationError: a response that is not one to this request, or that breaks the era's rules.
        :raises TransportError, RequestTimeoutError, CancelledError: as the transport raises them.
        """
        meta = with_trace_meta(params, meta)  # the caller's OpenTelemetry span, when there is one
        return self._send(era or self.era, method, params, meta, cancellation, timeout, request_id, raise_errors, False)

    def _send(
        self,
        era: Era,
        method: str,
        params: dict[str, t.Any] | None,
        meta: dict[str, t.Any] | None,
        cancellation: Cancellation | None,
        timeout: float | None,
        request_id: int | None,
        raise_errors: bool,
        retried: bool,
    ) -> Message:
        params, headers = era.prepare(self, method, params, meta)
        if request_id is None:
            request_id = self.next_id()
        request = json_rpc.request(request_id, method, params)
        if cancellation is not None:
            cancellation.raise_if_cancelled()
        try:
            response = send_through(self.transport, request, timeout=self.timeout if timeout is None else timeout,
                                    cancellation=cancellation, headers=headers)
        except TransportError:
            if retried or not era.resends_lost(method):
                raise
            logger.info("%s lost with its stream; sending it again", method)
            return self._resend(era, method, params, cancellation, timeout, raise_errors)
        except (CancelledError, RequestTimeoutError) as error:
            self._cancel_abandoned(method, request_id, headers, error)
            raise
        if type(response) is not dict or response.get("id") != request_id:
            raise ValidationError(f"Response validation failed: expected a response to request {request_id}, got {response!r:.200}")
        if not retried and era.resends_after(response):
            return self._resend(era, method, params, cancellation, timeout, raise_errors)
        era.check_result(method, response)
        if "error" in response and raise_errors:
            raise _server_error(response["error"])
        return response

    def _resend(self, era: Era, method: str, params: dict[str, t.Any] | None, cancellation: Cancellation | None,
                timeout: float | None, raise_errors: bool) -> Message:
        """Send a request again under a new id, with a fresh envelope and the caller's own ``_meta``."""
        plain = {key: value for key, value in (params or {}).items() if key != "_meta"}
        user_meta = {k: v for k, v in (params or {}).get("_meta", {}).items() if not k.startswith(_RESERVED_META_PREFIX)}
        return self._send(era, method, plain, user_meta, cancellation, timeout, None, raise_errors, True)

    def _cancel_abandoned(
        self, method: str, request_id: int, headers: t.Mapping[str, str] | None, error: CancelledError | RequestTimeoutError
    ) -> None:
        """Tell the server to stop request ``request_id``, which its caller gave up on (``error``),
        unless ``method`` is never cancelled or the transport cancelled it already."""
        # On 2026-07-28 HTTP the transport cancelled by closing the request's stream.
        closed = headers is not None and self.carries_headers and self.transport.cancels_by_closing_stream
        if method not in _NEVER_CANCELLED and not closed:
            reason = error.reason if isinstance(error, CancelledError) else "Request timed out"
            self._cancel_quietly(request_id, reason)

    def _cancel_quietly(self, request_id: int, reason: str | None) -> None:
        try:
            self.cancel(request_id, reason)
        except Exception as error:  # the caller is already leaving with the real error
            logger.debug("could not send notifications/cancelled for %s: %s", request_id, error)

    def __repr__(self) -> str:
        return f"<RequestSender {self.era!r}>"


def _server_error(body: t.Any) -> ValidationError | ServerError:
    """The error to raise for a response's ``error`` member ``body``."""
    if not isinstance(body, dict):
        return ValidationError(f"Response validation failed: malformed error {body!r:.200}")
    code = body.get("code")
    return ServerError(str(body.get("message", "")), code if type(code) is int else error_codes.INTERNAL_ERROR, body.get("data"))


__all__ = ["DEFAULT_CLIENT_INFO", "RequestSender", "check_log_level", "result_of"]
