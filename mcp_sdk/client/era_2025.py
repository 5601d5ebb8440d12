"""The 2025 era: a session opened with ``initialize``, requests as the 2025 versions send them.

Its class keeps the name the client's API gives this era: *legacy* is every protocol version
negotiated with ``initialize`` (2024-11-05 to 2025-11-25), as in ``Client(mode="legacy")`` and
:attr:`Client.era`; *modern* is 2026-07-28 (:mod:`mcp_sdk.client.era_2026`).

https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
"""

from __future__ import annotations

import typing as t

from .. import methods
from .era import Era, Sender
from .exceptions import ServerError, ValidationError
from .mrtr import Answer, Send
from .request_sender import result_of
from .transport import Message
from .wire_2026 import META_LOG_LEVEL

if t.TYPE_CHECKING:
    from .listen import Subscription


class LegacyEra(Era):
    """The era of ``initialize``: a request carries only the ``_meta`` its caller gives, and
    the client also speaks it before :meth:`Client.connect`.

    :param protocol_version: the version the server chose in its ``InitializeResult``.
    """

    name = "legacy"

    def __init__(self, protocol_version: str | None = None) -> None:
        super().__init__(protocol_version)
        #: The server did not advertise ``logging`` (a stateless server cannot keep a level
        #: between requests), so :attr:`Client.log_level` travels in each request's ``_meta``
        #: (``io.modelcontextprotocol/logLevel``, as 2026-07-28 sends it) instead of
        #: ``logging/setLevel``.
        self.level_per_request = False

    def prepare(
        self, sender: Sender, method: str, params: dict[str, t.Any] | None, meta: dict[str, t.Any] | None
    ) -> tuple[dict[str, t.Any] | None, dict[str, str] | None]:
        if self.level_per_request and sender.log_level is not None:
            meta = {META_LOG_LEVEL: sender.log_level, **(meta or {})}
        if meta:
            params = dict(params or {})
            params["_meta"] = {**(params.get("_meta") or {}), **meta}
        return params, None

    def check_result(self, method: str, response: Message) -> None:
        return None

    def resends_lost(self, method: str) -> bool:
        return False  # a session's request may have run: sending it again could run it twice

    def resends_after(self, response: Message) -> bool:
        return False

    def complete(self, send: Send, answer: Answer, method: str, params: dict[str, t.Any], max_rounds: int) -> Message:
        return send(params)  # a 2025 server asks for input with requests of its own, answered as they come

    def ping(self, sender: Sender, *, meta: dict[str, t.Any] | None, cancellation: t.Any,
             timeout: float | None) -> dict[str, t.Any]:
        return result_of(sender.request(methods.PING, None, era=self, meta=meta, cancellation=cancellation, timeout=timeout))

    def set_logging_level(self, sender: Sender, level: str | None, timeout: float | None) -> dict[str, t.Any]:
        """Send ``logging/setLevel`` (the server judges the level)."""
        sender.log_level = level
        return result_of(sender.request(methods.LOGGING_SET_LEVEL, {"level": level}, era=self, timeout=timeout))

    def carry_log_level(self, sender: Sender, level: str | None, timeout: float | None) -> None:
        """``logging/setLevel``, or, to a server without ``logging``, the level in each request's ``_meta``."""
        if self.level_per_request:
            sender.log_level = level
        else:
            self.set_logging_level(sender, level, timeout)

    def notify_roots_list_changed(self, notify: t.Callable[[str], None]) -> None:
        notify(methods.NOTIFICATIONS_ROOTS_LIST_CHANGED)

    def usable_tools(self, sender: Sender, entries: list[t.Any]) -> list[t.Any]:
        return entries

    def relist_fixes(self, error: ServerError) -> bool:
        return False

    def open_subscription(
        self,
        sender: Sender,
        notifications: dict[str, t.Any],
        callback: t.Callable[[str, dict[str, t.Any]], t.Any] | None,
        listen_timeout: float,
    ) -> Subscription:
        raise ValidationError("listen() needs a 2026-07-28 server; use subscribe_resource() and on_notification() on older ones")


__all__ = ["LegacyEra"]
