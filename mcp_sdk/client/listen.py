"""``subscriptions/listen`` (MCP 2026-07-28): a long-lived stream of change notifications.

:meth:`Client.listen` opens one and returns a :class:`Subscription`. Its
notifications reach the client's ``on_notification`` handler (and the
``callback`` given to ``listen``); a dropped stream is opened again, and
:meth:`Subscription.close` ends it (on HTTP by closing the stream, on stdio
with ``notifications/cancelled``).

https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
"""

from __future__ import annotations

import itertools
import logging
import threading
import typing as t

from ..cancellation import Cancellation
from ..errors import CancelledError, MCPError
from .modern import NOTIFICATIONS_SUBSCRIPTIONS_ACKNOWLEDGED

logger = logging.getLogger("mcp_sdk.client")

_names = itertools.count(1)
#: Sends the listen request (params, id, cancellation) and returns its final response.
Listen = t.Callable[[t.Dict[str, t.Any], int, Cancellation], t.Dict[str, t.Any]]


def notification_filter(
    *, tools: bool = False, prompts: bool = False, resources: bool = False, resource_uris: t.Iterable[str] = ()
) -> dict[str, t.Any]:
    """The ``notifications`` filter of a listen request."""
    wanted: dict[str, t.Any] = {}
    if tools:
        wanted["toolsListChanged"] = True
    if prompts:
        wanted["promptsListChanged"] = True
    if resources:
        wanted["resourcesListChanged"] = True
    uris = list(resource_uris)
    if uris:
        wanted["resourceSubscriptions"] = uris
    return wanted


class Subscription:
    """One open ``subscriptions/listen``; a named thread keeps it open until :meth:`close`.

    :ivar notifications: the filter asked for.
    :ivar acknowledged: the filter the server agreed to (None until it acknowledges).
    :ivar request_id: the JSON-RPC id of the current listen request (its subscription id).
    """

    def __init__(self, listen: Listen, new_id: t.Callable[[], int], notifications: dict[str, t.Any], *,
                 callback: t.Callable[[str, dict[str, t.Any]], t.Any] | None = None,
                 max_reconnects: int = 5, reconnect_delay: float = 1.0) -> None:
        self.notifications = notifications
        self.callback = callback
        self.acknowledged: dict[str, t.Any] | None = None
        self.request_id: int | None = None
        self.max_reconnects = max_reconnects
        self.reconnect_delay = reconnect_delay
        self._listen = listen
        self._new_id = new_id
        self._stop = Cancellation()
        self._current: Cancellation | None = None
        self._lock = threading.Lock()
        self._acknowledged = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"mcp-client-listen-{next(_names)}", daemon=True)

    def start(self) -> Subscription:
        self._thread.start()
        return self

    def wait_acknowledged(self, timeout: float) -> bool:
        """Block until the server acknowledges the subscription (True) or ``timeout`` seconds pass (False)."""
        return self._acknowledged.wait(timeout)

    @property
    def active(self) -> bool:
        """Whether the subscription is still being kept open."""
        return self._thread.is_alive()

    def close(self, timeout: float = 5.0) -> None:
        """End the subscription and wait (up to ``timeout`` seconds) for its thread. Idempotent."""
        self._stop.cancel("subscription closed")
        with self._lock:
            current = self._current
        if current is not None:
            current.cancel("subscription closed")
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout)

    def receive(self, subscription_id: t.Any, method: str, params: dict[str, t.Any]) -> bool:
        """Take a notification the server tagged with ``subscription_id`` (its ``_meta`` subscription id).

        The client calls this for every tagged notification. One for this subscription's
        current request either acknowledges it (``notifications/subscriptions/acknowledged``:
        :attr:`acknowledged` is set and :meth:`wait_acknowledged` returns) or goes to ``callback``.

        :return: whether the notification was for this subscription.
        """
        if subscription_id != self.request_id:
            return False
        if method == NOTIFICATIONS_SUBSCRIPTIONS_ACKNOWLEDGED:
            filter_ = params.get("notifications")
            self.acknowledged = filter_ if isinstance(filter_, dict) else {}
            self._acknowledged.set()
        elif self.callback is not None:
            self.callback(method, params)
        return True

    def _run(self) -> None:
        failures = 0
        while not self._stop.cancelled():
            cancellation = Cancellation()
            with self._lock:
                self._current = cancellation
                self.request_id = self._new_id()
                request_id = self.request_id
            self._acknowledged.clear()
            if self._stop.cancelled():
                return
            try:
                self._listen({"notifications": self.notifications}, request_id, cancellation)
                return  # the server ended the subscription gracefully
            except CancelledError:
                return
            except MCPError as error:
                if self._acknowledged.is_set():
                    failures = 0  # it was open: a drop after that is worth a fresh try
                failures += 1
                if failures > self.max_reconnects:
                    logger.warning("subscriptions/listen given up after %d attempts: %s", failures, error)
                    return
                logger.info("subscriptions/listen dropped (%s); listening again", error)
            if self._stop.wait(self.reconnect_delay * failures):
                return

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc_info: t.Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Subscription id={self.request_id!r} notifications={self.notifications!r}>"


__all__ = ["Subscription", "notification_filter"]
