"""What a POST body holds, and whether its answer needs an SSE stream.

A request is answered with SSE (when the client accepts it) exactly when its
handler can send something before its response: progress, a log message, a
server-to-client request. Only a handler that receives a ``server_context``
can, so the choice is made from the handler's signature before it runs
(:meth:`~mcp_sdk.Server.handler_accepts_server_context`). Every
other request (``tools/list``, a tool without ``server_context``...) is answered
with plain JSON on the WSGI thread: no worker thread, one write.
"""

from __future__ import annotations

import typing as t

from .... import error_codes, json_rpc, methods
from .wire.http_io import Answer, empty_answer, json_answer
from .wire.outage import unavailable_answer

if t.TYPE_CHECKING:
    from ....server import Server
    from ....server_session import ServerSession


def is_initialize(message: t.Any) -> bool:
    """Whether the body is an ``initialize`` message."""
    return type(message) is dict and message.get("method") == methods.INITIALIZE


def is_request(message: t.Any) -> bool:
    """Whether ``message`` is a request: a method and a valid id."""
    return type(message) is dict and type(message.get("method")) is str and json_rpc.is_valid_id(message.get("id"))


def request_ids(message: t.Any) -> list[t.Any]:
    """The ids of the requests in a POST body (one message or a batch)."""
    if type(message) is list:
        return [item["id"] for item in message if is_request(item)]
    return [message["id"]] if is_request(message) else []


def may_send_first(server: Server, message: t.Any) -> bool:
    """Whether handling ``message`` (a request or a batch) may send messages before its response."""
    if type(message) is list:
        return any(is_request(item) and _talks(server, item) for item in message)
    return _talks(server, message)


def _talks(server: Server, request: dict[str, t.Any]) -> bool:
    return server.handler_accepts_server_context(request["method"], request.get("params"))


def internal_errors(message: t.Any) -> t.Any:
    """``-32603`` answers to every request in ``message`` (when handling it failed outright)."""
    if type(message) is list:
        return [json_rpc.error(request_id, error_codes.INTERNAL_ERROR) for request_id in request_ids(message)]
    return json_rpc.error(message.get("id") if type(message) is dict else None, error_codes.INTERNAL_ERROR)


def answer_inline(server: Server, server_session: ServerSession, message: t.Any, http_request: t.Any = None) -> Answer:
    """A 2025 POST of notifications and responses: 202, or 400 with the error for what is not a valid message."""
    text = server_session.encode(server.handle_message(message, server_session, modern=False, http_request=http_request))
    return empty_answer(202) if text is None else json_answer(text, status=400)


def answer_json(server: Server, server_session: ServerSession, message: t.Any, http_request: t.Any = None) -> Answer:
    """A 2025 POST answered with plain JSON on the WSGI thread (202 when cancelled: no response; 503
    with ``Retry-After`` when a full store refused it, see :mod:`.wire.outage`)."""
    response = server.handle_message(message, server_session, modern=False, http_request=http_request)
    text = server_session.encode(response)
    if text is None:
        return empty_answer(202)
    return unavailable_answer(response, text) or json_answer(text)


__all__ = ["answer_inline", "answer_json", "internal_errors", "is_initialize", "is_request", "may_send_first", "request_ids"]
