"""The answer to a request a full shared store refused: its JSON-RPC error, marked "retry later".

A handler that needs a write the shared store refuses (a task's creation, ``tasks/update``,
``tasks/cancel`` on a Redis at ``maxmemory``) raises :class:`~mcp_sdk.errors.StoreFullError`. The
dispatcher answers it as it answers every handler error, -32603 saying which store is full, but
as an :class:`UnavailableResponse`: the same dict on the wire, so stdio and in-process callers see
nothing new, and a transport with a status line can tell the client when to come back (the
Streamable HTTP transport: ``503`` with ``Retry-After``, in ``streamable_http/outage.py``).

The mark is the object's type, which only the server makes: no message a client or an upstream
sends (an error with the same code and ``data``, say) can ask for a 503.
"""

from __future__ import annotations

import typing as t

from .. import json_rpc

if t.TYPE_CHECKING:
    from ..errors import StoreFullError


class UnavailableResponse(t.Dict[str, t.Any]):
    """A JSON-RPC error response whose request may be sent again after :attr:`retry_after` seconds.

    :param response: the error response (``{"jsonrpc": "2.0", "id": ..., "error": {...}}``).
    :param retry_after: seconds the client should wait before sending the request again.
    """

    __slots__ = ("retry_after",)

    def __init__(self, response: dict[str, t.Any], retry_after: int) -> None:
        super().__init__(response)
        self.retry_after = retry_after


def unavailable(request_id: t.Any, error: StoreFullError) -> UnavailableResponse:
    """The answer to the request ``request_id`` that ``error`` refused.

    :param request_id: the request's id.
    :param error: what the store raised.
    :returns: the -32603 error response, marked with the error's ``retry_after``.
    """
    return UnavailableResponse(json_rpc.error(request_id, error.code, error.message, error.data), error.retry_after)


__all__ = ["UnavailableResponse", "unavailable"]
