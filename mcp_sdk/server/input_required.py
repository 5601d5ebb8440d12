"""Multi round-trip requests (MRTR, 2026-07-28): asking the client for input mid-request.

https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr

Two ways for a handler of ``tools/call``, ``prompts/get`` or ``resources/read``:

- **Era-portable** (what existing code does): call
  ``server_context.create_form_elicitation(...)``, ``create_url_elicitation(...)``,
  ``create_sampling_message(...)`` or ``list_roots()``. On a 2025 session these are
  real server-to-client requests. On a 2026-07-28 request the first unanswered ask
  ends the handler with an :class:`InputRequiredResult`; when the client retries
  with the answer, the SDK runs the handler again from the start and the same call
  returns the answer. Code before an ask therefore runs once per round: keep side
  effects after the asks, or make them idempotent.
- **Explicit**: return :class:`InputRequiredResult` yourself and read the answers
  from ``server_context.input_responses`` (and your own ``request_state``) on the
  retry. On a 2025 session the SDK sends your ``input_requests`` to the client as
  real requests and calls the handler again with the answers.
"""

from __future__ import annotations

import typing as t

from .. import methods
from ..deprecations import warn_deprecated


class RoundTripInputs(t.NamedTuple):
    """What the retry of a multi round-trip request brings (MRTR): the client's
    ``inputResponses`` and the handler's own verified ``requestState``."""

    input_responses: dict[str, t.Any] | None
    request_state: str | None


class InputRequiredResult:
    """The result that asks the client for more input before the request can complete.

    :param input_requests: key -> request (``{"method": ..., "params": ...}``); the
        builders :func:`form_elicitation`, :func:`url_elicitation`, :func:`sampling`
        and :func:`roots` make them.
    :param request_state: an opaque string of the handler's own, given back on the retry
        as ``server_context.request_state`` (the SDK signs it: the client cannot change it).
    :raises ValueError: neither is given.
    """

    __slots__ = ("input_requests", "request_state")

    def __init__(
        self, input_requests: t.Mapping[str, dict[str, t.Any]] | None = None, request_state: str | None = None
    ) -> None:
        if not input_requests and request_state is None:
            raise ValueError("an InputRequiredResult needs input_requests, a request_state, or both")
        if request_state is not None and type(request_state) is not str:
            raise TypeError(f"request_state must be a string, not {type(request_state).__name__}")
        requests = dict(input_requests or {})
        for key, request in requests.items():
            if type(key) is not str or not isinstance(request, dict) or type(request.get("method")) is not str:
                raise ValueError(f"input request {key!r} must be a dict with a string 'method'")
        self.input_requests = requests
        self.request_state = request_state

    def __repr__(self) -> str:
        return f"InputRequiredResult(input_requests={list(self.input_requests)!r})"


def form_elicitation(message: str, requested_schema: dict[str, t.Any]) -> dict[str, t.Any]:
    """An ``elicitation/create`` input request in form mode."""
    return {
        "method": methods.ELICITATION_CREATE,
        "params": {"mode": "form", "message": message, "requestedSchema": requested_schema},
    }


def url_elicitation(message: str, url: str) -> dict[str, t.Any]:
    """An ``elicitation/create`` input request in URL mode (the user finishes out of band, then the client retries)."""
    return {"method": methods.ELICITATION_CREATE, "params": {"mode": "url", "message": message, "url": url}}


def sampling(messages: list[dict[str, t.Any]], max_tokens: int, **params: t.Any) -> dict[str, t.Any]:
    """A ``sampling/createMessage`` input request; ``params`` are further wire fields (``systemPrompt=...``).

    Sampling is deprecated as of MCP 2026-07-28 (SEP-2577): warns with :class:`~mcp_sdk.MCPDeprecationWarning`.
    """
    warn_deprecated("sampling")
    return {"method": methods.SAMPLING_CREATE_MESSAGE, "params": {"messages": messages, "maxTokens": max_tokens, **params}}


def roots() -> dict[str, t.Any]:
    """A ``roots/list`` input request.

    Roots are deprecated as of MCP 2026-07-28 (SEP-2577): warns with :class:`~mcp_sdk.MCPDeprecationWarning`.
    """
    warn_deprecated("roots")
    return {"method": methods.ROOTS_LIST}


class InputRequired(BaseException):
    """Raised inside a handler by an era-portable ask on a 2026-07-28 request.

    A ``BaseException``, like ``GeneratorExit``: a handler's ``except Exception``
    must not swallow it, since it ends the handler on purpose.
    """

    def __init__(self, key: str, request: dict[str, t.Any]) -> None:
        super().__init__(key)
        self.key = key
        self.request = request


#: The capability a client must declare for an input request, by method (and mode).
def required_capability(request: dict[str, t.Any]) -> str:
    """The dotted client capability an input request needs (``"elicitation.url"``, ``"sampling"``, ``"roots"``)."""
    method = request.get("method")
    if method == methods.ELICITATION_CREATE:
        params = request.get("params")
        mode = params.get("mode") if isinstance(params, dict) else None
        return "elicitation.url" if mode == "url" else "elicitation.form"
    if method == methods.SAMPLING_CREATE_MESSAGE:
        return "sampling"
    if method == methods.ROOTS_LIST:
        return "roots"
    raise ValueError(f"{method!r} cannot be an input request (use elicitation/create, sampling/createMessage or roots/list)")


__all__ = [
    "InputRequired",
    "InputRequiredResult",
    "RoundTripInputs",
    "form_elicitation",
    "required_capability",
    "roots",
    "sampling",
    "url_elicitation",
]
