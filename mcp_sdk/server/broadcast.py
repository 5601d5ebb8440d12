"""What a server tells every client at once: list changes, resource updates, log messages.

:class:`Broadcast` sends to each open 2025 session and publishes on the subscription bus (2026-07-28
``subscriptions/listen`` streams, and every Redis worker's), reporting a failure per session instead
of letting one broken client stop the rest.
"""

from __future__ import annotations

import typing as t

from .. import methods

if t.TYPE_CHECKING:
    from ..server_session import ServerSession
    from .registry import Registry
    from .subscriptions import SubscriptionBus


class BroadcastHost(t.Protocol):
    """What :class:`Broadcast` needs of its server."""

    registry: Registry
    subscriptions: SubscriptionBus

    @property
    def sessions(self) -> list[ServerSession]:
        """The open sessions (a snapshot)."""

    def report_exception(self, error: BaseException, context: dict[str, t.Any]) -> None:
        """Report a failure to send to one session."""


class Broadcast:
    """Sends a server's notifications to all its clients.

    :param host: the server whose sessions and subscription bus are told.
    """

    def __init__(self, host: BroadcastHost) -> None:
        self.host = host

    def list_changed(self, kind: str, method: str) -> None:
        """Tell every 2025 session (``method``) and every listener (``kind``) that a list changed."""
        self.host.registry.forget_listings()
        for session in self.host.sessions:
            if session.protocol_version is None and session.serves_modern:
                continue  # 2026-07-28 has list_changed only on subscriptions/listen streams
            try:
                session.send_notification(method)
            except Exception as error:
                self.host.report_exception(error, {"notification": f"{kind}_list_changed"})
        self.publish(kind)

    def publish(self, kind: str, uri: str | None = None) -> None:
        """Publish a change of ``kind`` (of ``uri``) to the listeners, on every worker."""
        try:
            self.host.subscriptions.publish(kind, uri)
        except Exception as error:
            self.host.report_exception(error, {"notification": f"{kind}_changed"})

    def log_message(self, data: t.Any, level: str, logger: str | None) -> None:
        """Send ``notifications/message`` to every session whose log level lets ``level`` through.

        :raises ValueError: for a level that is not one of the eight.
        """
        if level not in methods.LOG_SEVERITY:
            raise ValueError(f"log level must be one of {', '.join(methods.LOG_LEVELS)}, not {level!r}")
        for session in self.host.sessions:
            try:
                session.notify_log_message(data=data, level=level, logger=logger)
            except Exception as error:
                self.host.report_exception(error, {"notification": "log_message"})


__all__ = ["Broadcast", "BroadcastHost"]
