"""Multi round-trip requests (MCP 2026-07-28, SEP-2322), from the client's side.

A modern server that needs something from the client (a sampling, an
elicitation, the roots) answers ``tools/call``, ``prompts/get`` or
``resources/read`` with an ``input_required`` result. The client answers each
input request with the handler registered for it and sends the original
request again, under a new id, with ``inputResponses`` and the
``requestState`` exactly as received, until the result is complete.

https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
"""

from __future__ import annotations

import typing as t

from .. import error_codes, methods
from ..errors import JSONRPCError
from .exceptions import InputRequiredError, ValidationError
from .wire_2026 import INPUT_REQUIRED

#: The requests a server may answer with ``input_required``.
INPUT_METHODS = frozenset({methods.TOOLS_CALL, methods.PROMPTS_GET, methods.RESOURCES_READ})
#: Which ``on_*`` registration answers each kind of input request (for error messages).
_HANDLERS = {
    methods.SAMPLING_CREATE_MESSAGE: "on_sampling",
    methods.ELICITATION_CREATE: "on_elicitation",
    methods.ROOTS_LIST: "on_roots",
}

Send = t.Callable[[t.Dict[str, t.Any]], t.Dict[str, t.Any]]
Answer = t.Callable[[str, t.Dict[str, t.Any]], t.Any]


def complete(send: Send, answer: Answer, method: str, params: dict[str, t.Any], max_rounds: int) -> dict[str, t.Any]:
    """Send ``params`` and keep answering ``input_required`` results; return the final response.

    :param send: sends one request with the given params (a new id each time) and returns the response.
    :param answer: ``answer(method, params)`` -> the result of one input request (the client's handlers).
    :raises InputRequiredError: a request no handler answers, or more than ``max_rounds`` rounds.
    """
    response = send(params)
    for _ in range(max_rounds):
        result = response.get("result")
        if not isinstance(result, dict) or result.get("resultType") != INPUT_REQUIRED:
            return response
        params = retry_params(params, result, answer_all(result.get("inputRequests"), answer))
        response = send(params)
    result = response.get("result")
    if isinstance(result, dict) and result.get("resultType") == INPUT_REQUIRED:
        raise InputRequiredError(f"{method}: the server still asked for input after {max_rounds} rounds (max_input_rounds)")
    return response


def retry_params(original: dict[str, t.Any], result: dict[str, t.Any], responses: dict[str, t.Any]) -> dict[str, t.Any]:
    """The params of the retry: the original ones, ``inputResponses``, and ``requestState`` when the server sent one."""
    params = {key: value for key, value in original.items() if key not in ("inputResponses", "requestState")}
    if responses:
        params["inputResponses"] = responses
    if "requestState" in result:
        params["requestState"] = result["requestState"]  # byte-exact: never parsed, never rebuilt
    return params


def answer_all(requests: t.Any, answer: Answer) -> dict[str, t.Any]:
    """Each input request's key -> the result its handler gave.

    :raises InputRequiredError: a request no registered handler answers.
    :raises ValidationError: ``inputRequests`` is not an object of requests.
    """
    if requests is None:
        return {}
    if not isinstance(requests, dict):
        raise ValidationError("Response validation failed: inputRequests is not an object")
    responses: dict[str, t.Any] = {}
    for key, request in requests.items():
        method = request.get("method") if isinstance(request, dict) else None
        if not isinstance(method, str):
            raise ValidationError(f"Response validation failed: input request {key!r} has no method")
        params = request.get("params")
        try:
            responses[key] = answer(method, params if isinstance(params, dict) else {})
        except JSONRPCError as error:
            if error.code != error_codes.METHOD_NOT_FOUND:
                raise
            handler = _HANDLERS.get(method)
            hint = f"register one with client.{handler}()" if handler else "this client cannot answer it"
            raise InputRequiredError(f"the server asked for {method} (input {key!r}) and no handler answers it: {hint}",
                                     method) from None
    return responses


__all__ = ["INPUT_METHODS", "complete"]
