"""Where every message a transport reads enters the server.

Data runs one way: transport -> :class:`Router` -> (the session, or a
2026-07-28 :class:`~.exchange_2026.ModernExchange` built from the request's
envelope) -> :class:`~.dispatch.Dispatcher` -> handler -> response. The
router checks the JSON-RPC shape, hands responses to the session's waiting
server-to-client requests, and sends each request down its era's path; the era
decision itself lives in :mod:`.envelope`.
"""

from __future__ import annotations

import typing as t

from .. import error_codes, json_rpc, methods
from .. import protocol_version as versions
from ..cancellation import Cancellation
from ..server_session import ServerSession
from .dispatch import Dispatcher
from .envelope import is_modern
from .requests_2026 import ModernRequests


_NOT_AN_OBJECT = "Invalid Request: expected a JSON object"
_TOO_MANY_ITEMS = f"Invalid Request: a batch may hold at most {json_rpc.MAX_BATCH_ITEMS} messages"
_ANSWER_TOO_LARGE = (
    f"Internal error: the batch's answer passed {json_rpc.MAX_BATCH_ANSWER_BYTES} bytes; send this request on its own"
)


def _is_request(message: t.Any) -> bool:
    return type(message) is dict and "method" in message and json_rpc.is_valid_id(message.get("id"))


def _encoded_size(response: dict[str, t.Any]) -> int:
    """Bytes of JSON ``response`` takes, about (characters); 0 when it cannot be encoded (it becomes a small error)."""
    try:
        return len(json_rpc.encode(response))
    except (TypeError, ValueError, RecursionError):
        return 0


class Router:
    """Routes decoded JSON-RPC messages of one server (see the module docstring).

    :param dispatcher: runs requests and notifications (2025 sessions).
    :param modern: runs 2026-07-28 requests.
    """

    __slots__ = ("dispatcher", "modern")

    def __init__(self, dispatcher: Dispatcher, modern: ModernRequests) -> None:
        self.dispatcher = dispatcher
        self.modern = modern

    def handle(
        self,
        message: t.Any,
        session: ServerSession,
        cancellation: Cancellation | None = None,
        *,
        modern: bool | None = None,
        http_request: t.Any = None,
    ) -> t.Any:
        """The response to one decoded message or batch (None when there is none).

        :param session: the connection it came on.
        :param cancellation: the token the transport took for this request (see
            :meth:`ServerSession.accept`); by default a new one.
        :param modern: True: a request is served as 2026-07-28 whatever its ``_meta``
            (an HTTP POST with no session); None: decided by its envelope.
        :param http_request: the HTTP request that carried it (see :attr:`ServerContext.request`).
        """
        if type(message) is not dict:
            if type(message) is list:
                return self._handle_batch(message, session, http_request)
            return json_rpc.error(None, error_codes.INVALID_REQUEST, _NOT_AN_OBJECT)
        method = message.get("method")
        has_id = "id" in message
        request_id = message.get("id")
        id_ok = json_rpc.is_valid_id(request_id)
        if method is None:
            if has_id and ("result" in message or "error" in message):
                session.receive_response(message)
                return None
            return json_rpc.error(request_id if id_ok else None, error_codes.INVALID_REQUEST)
        if message.get("jsonrpc") != "2.0":
            return json_rpc.error(
                request_id if id_ok else None, error_codes.INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"'
            )
        if type(method) is not str:
            return json_rpc.error(
                request_id if id_ok else None, error_codes.INVALID_REQUEST, "Invalid Request: method must be a string"
            )
        params = message.get("params")
        if not has_id:
            self.dispatcher.handle_notification(session, method, params, message, http_request)
            return None
        if not id_ok:
            return json_rpc.error(None, error_codes.INVALID_REQUEST, "Invalid Request: id must be a string or an integer")
        if modern is None:
            modern = is_modern(method, params)
        if modern:
            return self.modern.handle(session, request_id, method, params, message, cancellation, http_request)
        return self.dispatcher.handle_request(
            session, request_id, method, params, message, cancellation, http_request=http_request
        )

    def _handle_batch(self, batch: list[t.Any], session: ServerSession, http_request: t.Any) -> t.Any:
        version = session.version
        if version not in versions.BATCH_VERSIONS:
            return json_rpc.error(
                None, error_codes.INVALID_REQUEST, f"Invalid Request: batches are not supported in protocol {version}"
            )
        if not batch:
            return json_rpc.error(None, error_codes.INVALID_REQUEST, "Invalid Request: empty batch")
        if len(batch) > json_rpc.MAX_BATCH_ITEMS:
            return json_rpc.error(None, error_codes.INVALID_REQUEST, _TOO_MANY_ITEMS)
        responses = []
        answer_bytes = 0
        for message in batch:
            if answer_bytes > json_rpc.MAX_BATCH_ANSWER_BYTES and _is_request(message):
                responses.append(json_rpc.error(message["id"], error_codes.INTERNAL_ERROR, _ANSWER_TOO_LARGE))
                continue
            if type(message) is dict and message.get("method") == methods.INITIALIZE:
                responses.append(
                    json_rpc.error(
                        message.get("id") if json_rpc.is_valid_id(message.get("id")) else None,
                        error_codes.INVALID_REQUEST,
                        "Invalid Request: initialize must not be part of a batch",
                    )
                )
                continue
            if type(message) is list:  # an item of a batch is a message, not a batch
                responses.append(json_rpc.error(None, error_codes.INVALID_REQUEST, _NOT_AN_OBJECT))
                continue
            response = self.handle(message, session, http_request=http_request)
            if response is not None:
                responses.append(response)
                answer_bytes += _encoded_size(response)
        return responses or None


__all__ = ["Router"]
