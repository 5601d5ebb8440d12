"""The connection one stateless HTTP request (``stateless=True``, or 2026-07-28) runs on."""

from __future__ import annotations

import typing as t

from ..... import json_rpc, methods
from ....channel import ClientRequest
from .....errors import ClientRequestsUnavailableError
from ....session import ServerSession
from ....envelope import LOG_LEVEL_KEY
from ..streams.sse import Stream

if t.TYPE_CHECKING:
    from .....server import Server

#: Why a 2025 POST served with ``stateless=True`` cannot ask the client anything.
STATELESS_REFUSAL = (
    "this transport is stateless (StreamableHTTPTransport(stateless=True)): the client's answer would "
    "arrive in another request; use sessions or MCP 2026-07-28 input requests"
)


class RequestChannel(ServerSession):
    """The connection one stateless request runs on: it carries what relates to the request on
    the request's own stream, and counts it.

    For a 2025 POST with ``stateless=True`` it is the request's whole session, built afresh for
    every POST: nothing set on it (``logging/setLevel``, the capabilities ``initialize``
    declared) reaches the next request, and it cannot ask the client anything. For a 2026-07-28
    request it only carries the request, whose :class:`~mcp_sdk.server.exchange_2026.ModernExchange`
    holds the rest.
    """

    keeps_log_level = False

    def __init__(self, server: Server) -> None:
        super().__init__(server, self._put)
        #: The request's SSE stream, once it has one.
        self.stream: Stream | None = None
        #: Messages written before the answer.
        self.messages_sent = 0

    def require_capability(self, capability: str, method: str) -> None:
        """Refuse every server-to-client request, saying why: the client may well have declared
        ``capability`` (in an ``initialize`` this channel never saw), but the transport cannot
        carry its answer.

        :raises ClientRequestsUnavailableError: always, where requests cannot be sent.
        """
        if not self.can_send_requests:
            raise ClientRequestsUnavailableError(f"Cannot send {method}: {STATELESS_REFUSAL}")
        super().require_capability(capability, method)

    def ask(self, request: ClientRequest) -> t.Any:
        if not self.can_send_requests:
            raise ClientRequestsUnavailableError(f"Cannot send {request.method}: {STATELESS_REFUSAL}")
        return super().ask(request)

    def _put(self, outgoing: dict[str, t.Any], related_request_id: t.Any) -> None:
        stream = self.stream
        if related_request_id is None or stream is None:
            return  # session-scoped messages have nowhere to go
        try:
            text = json_rpc.encode(outgoing)
        except (TypeError, ValueError) as error:
            self.server.report_exception(error, {"notification": outgoing.get("method")})
            return
        self.messages_sent += 1
        stream.put(outgoing, text)


def requested_log_level(message: t.Any) -> str | None:
    """The log level a stateless 2025 POST asks for in ``params._meta`` under the key 2026-07-28
    uses (``io.modelcontextprotocol/logLevel``), or None: the only way such a request can have
    one, since a ``logging/setLevel`` sent in another POST never reaches it. A value that is not
    one of the eight levels is ignored (2025 gives ``_meta`` no meaning to enforce)."""
    params = message.get("params") if type(message) is dict else None
    meta = params.get("_meta") if type(params) is dict else None
    level = meta.get(LOG_LEVEL_KEY) if type(meta) is dict else None
    return level if type(level) is str and level in methods.LOG_SEVERITY else None


__all__ = ["STATELESS_REFUSAL", "RequestChannel", "requested_log_level"]
