"""The 2026-07-28 era: no session; every request carries the envelope, every result its ``resultType``.

What the era's values and checks are lives in :mod:`mcp_sdk.client.wire_2026`; this
is the strategy the client speaks it through. Its class keeps the name the client's API gives
this era: *modern* is 2026-07-28, as in ``Client(mode="modern")`` and :attr:`Client.era`;
*legacy* is every version negotiated with ``initialize`` (:mod:`mcp_sdk.client.era_2025`).

https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
"""

from __future__ import annotations

import typing as t

from .. import error_codes, methods
from . import mrtr, task_handle, wire_2026
from .era import Era, Sender
from .exceptions import ServerError
from .headers import standard_headers
from .listen import Subscription
from .mrtr import Answer, Send
from .request_sender import check_log_level, result_of
from .transport import Message

#: Requests never sent twice: a probe is not a request the server knows, and a
#: dropped listen stream is opened again by its subscription.
_NOT_RESENT = frozenset({wire_2026.SERVER_DISCOVER, wire_2026.SUBSCRIPTIONS_LISTEN})


class ModernEra(Era):
    """The era of ``server/discover``: the version, capabilities, identity and log level travel
    in each request's ``_meta``, and over HTTP in its headers too.

    :param protocol_version: the 2026-07-28 version spoken; a request answered
        ``UnsupportedProtocolVersion`` moves it to one the server names.
    """

    name = "modern"
    protocol_version: str

    def __init__(self, protocol_version: str) -> None:
        super().__init__(protocol_version)

    def prepare(
        self, sender: Sender, method: str, params: dict[str, t.Any] | None, meta: dict[str, t.Any] | None
    ) -> tuple[dict[str, t.Any] | None, dict[str, str] | None]:
        version = self.protocol_version
        params = dict(params or {})
        capabilities = sender.capabilities()
        if method in task_handle.DECLARING_METHODS:
            capabilities = task_handle.declare(capabilities)  # per request: a tool call may become a task
        envelope = wire_2026.envelope(version, capabilities, sender.client_info, sender.log_level)
        params["_meta"] = {**(params.get("_meta") or {}), **(meta or {}), **envelope}
        headers: dict[str, str] | None = None
        if sender.carries_headers:
            headers = standard_headers(method, params, version)
            if method == methods.TOOLS_CALL:
                headers.update(sender.tool_headers.for_call(params))
        return params, headers

    def check_result(self, method: str, response: Message) -> None:
        result = response.get("result")
        if isinstance(result, dict) and not (method == methods.TOOLS_CALL and task_handle.is_task(result)):
            wire_2026.result_type(result, method, input_allowed=method in mrtr.INPUT_METHODS)

    def resends_lost(self, method: str) -> bool:
        return method not in _NOT_RESENT  # a broken stream loses the request; no session remembers it

    def resends_after(self, response: Message) -> bool:
        """Whether ``response`` is ``UnsupportedProtocolVersion`` naming another version this client speaks (now in use)."""
        if wire_2026.error_code(response) != error_codes.UNSUPPORTED_PROTOCOL_VERSION:
            return False
        chosen = wire_2026.pick_version(wire_2026.supported_versions(response))
        if chosen is None or chosen == self.protocol_version:
            return False
        self.protocol_version = chosen
        return True

    def complete(self, send: Send, answer: Answer, method: str, params: dict[str, t.Any], max_rounds: int) -> Message:
        """Answer ``input_required`` results with the handlers until the result is complete (SEP-2322)."""
        return mrtr.complete(send, answer, method, params, max_rounds)

    def ping(self, sender: Sender, *, meta: dict[str, t.Any] | None, cancellation: t.Any,
             timeout: float | None) -> dict[str, t.Any]:
        """Ask ``server/discover``: this era has no ``ping``."""
        result_of(sender.request(wire_2026.SERVER_DISCOVER, None, era=self, meta=meta, cancellation=cancellation,
                                 timeout=timeout))
        return {}

    def set_logging_level(self, sender: Sender, level: str | None, timeout: float | None) -> dict[str, t.Any]:
        """Nothing to send: every request carries the level from now on."""
        check_log_level(level)
        sender.log_level = level
        return {}

    def notify_roots_list_changed(self, notify: t.Callable[[str], None]) -> None:
        return None  # a server asks for the roots with each request that needs them

    def usable_tools(self, sender: Sender, entries: list[t.Any]) -> list[t.Any]:
        """Over HTTP, all but the tools whose ``x-mcp-header`` annotations are unusable (SEP-2243)."""
        return sender.tool_headers.usable(entries) if sender.carries_headers else entries

    def relist_fixes(self, error: ServerError) -> bool:
        """A header mismatch: the tool's ``x-mcp-header`` annotations may have changed (SEP-2243)."""
        return error.code == error_codes.HEADER_MISMATCH

    def open_subscription(
        self,
        sender: Sender,
        notifications: dict[str, t.Any],
        callback: t.Callable[[str, dict[str, t.Any]], t.Any] | None,
        listen_timeout: float,
    ) -> Subscription:
        def listen(params: dict[str, t.Any], request_id: int, cancellation: t.Any) -> dict[str, t.Any]:
            return sender.request(wire_2026.SUBSCRIPTIONS_LISTEN, params, cancellation=cancellation, request_id=request_id,
                                  timeout=listen_timeout)

        return Subscription(listen, sender.next_id, notifications, callback=callback)


__all__ = ["ModernEra"]
