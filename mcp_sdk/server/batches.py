"""JSON-RPC batches: several messages in one, answered in turn (protocol 2025-03-26 only).

A transport hands a batch to the server like any message (an :class:`~.request.Incoming` of kind
:data:`~.request.BATCH`); the server answers each of its messages as it answers a message of its
own, and gathers the answers here.
"""

from __future__ import annotations

import typing as t

from .. import error_codes, json_rpc, methods
from .. import protocol_version as versions
from .request import Incoming

if t.TYPE_CHECKING:
    from .session import ServerSession

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


def answer_batch(
    batch: Incoming, session: ServerSession, answer: t.Callable[[Incoming, ServerSession], t.Any]
) -> list[dict[str, t.Any]] | dict[str, t.Any] | None:
    """The answers to the messages of ``batch``, each answered by ``answer(message, session)``.

    :param batch: the batch, as the transport read it.
    :param session: the connection it came on.
    :param answer: how the server answers one message.
    :return: the responses (None when there are none), or one error for a batch refused whole.
    """
    version = session.version
    if version not in versions.BATCH_VERSIONS:
        return json_rpc.error(
            None, error_codes.INVALID_REQUEST, f"Invalid Request: batches are not supported in protocol {version}"
        )
    messages: list[t.Any] = batch.message
    if not messages:
        return json_rpc.error(None, error_codes.INVALID_REQUEST, "Invalid Request: empty batch")
    if len(messages) > json_rpc.MAX_BATCH_ITEMS:
        return json_rpc.error(None, error_codes.INVALID_REQUEST, _TOO_MANY_ITEMS)
    responses = []
    answer_bytes = 0
    for message in messages:
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
        item = Incoming(
            message, principal=batch.principal, http_request=batch.http_request,
            make_http_request=None if batch.make_http_request is None else batch.carrier,
        )
        response = answer(item, session)
        if response is not None:
            responses.append(response)
            answer_bytes += _encoded_size(response)
    return responses or None


__all__ = ["answer_batch"]
