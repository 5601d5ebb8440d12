"""``subscriptions/listen`` (MCP 2026-07-28): a long-lived stream of change notifications.

:meth:`Client.listen` opens one and returns a :class:`Subscription`. Its
notifications reach the client's ``on_notification`` handler (and the
``callback`` given to ``listen``); a dropped stream, or one the server ends
gracefully with its result (a threaded server taking its thread back), is opened
again with backoff and jitter, never in a storm: quick ends in a row and refusals
(429/503, whose ``Retry-After`` is honoured) double the wait. Changes announced
while it was not listening are told once listening again (:meth:`Subscription.receive`).
:meth:`Subscription.close` ends it (on HTTP by closing the stream, on stdio
with ``notifications/cancelled``).

https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
"""

from __future__ import annotations

import itertools
import logging
import random
import threading
import time
import typing as t

from .. import methods
from ..cancellation import Cancellation
from ..errors import CancelledError, MCPError
from .exceptions import ServerBusyError
from .wire_2026 import META_SUBSCRIPTION_ID, NOTIFICATIONS_SUBSCRIPTIONS_ACKNOWLEDGED

logger = logging.getLogger("mcp_sdk.client")

_names = itertools.count(1)
#: Seconds under which a listen the server ended gracefully counts as a quick end: quick ends in a
#: row double the wait before listening again (a server that keeps ending listens is not stormed).
QUICK_END = 5.0
#: The notification each list flag of the filter asks for.
LIST_CHANGED_BY_FLAG = {
    "toolsListChanged": methods.NOTIFICATIONS_TOOLS_LIST_CHANGED,
    "promptsListChanged": methods.NOTIFICATIONS_PROMPTS_LIST_CHANGED,
    "resourcesListChanged": methods.NOTIFICATIONS_RESOURCES_LIST_CHANGED,
}
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
    :param listen: sends one ``subscriptions/listen`` request and blocks until it ends.
    :param new_id: a new JSON-RPC request id for each listen request.
    :param notifications: the filter to ask for (``{"toolsListChanged": True, ...}``).
    :param callback: ``callback(method, params)`` for each notification the subscription receives.
    :param max_reconnects: how many failures in a row end the subscription (a refusal, HTTP 429 or
        503, never does).
    :param reconnect_delay: seconds of the first wait before listening again; each wait doubles.
    :param max_reconnect_delay: the longest wait between two listen requests, in seconds.

    :meth:`Client.listen` makes one; applications do not construct it.
    """

    def __init__(self, listen: Listen, new_id: t.Callable[[], int], notifications: dict[str, t.Any], *,
                 callback: t.Callable[[str, dict[str, t.Any]], t.Any] | None = None,
                 max_reconnects: int = 5, reconnect_delay: float = 1.0, max_reconnect_delay: float = 30.0) -> None:
        self.notifications = notifications
        self.callback = callback
        self.acknowledged: dict[str, t.Any] | None = None
        self.request_id: int | None = None
        self.max_reconnects = max_reconnects
        self.reconnect_delay = reconnect_delay
        self.max_reconnect_delay = max_reconnect_delay
        #: Listen requests sent so far (the first, and each one after an end or a failure).
        self.attempts = 0
        #: Listen requests the server refused for now (HTTP 429 or 503).
        self.refused = 0
        #: ``deliver(method, params)`` routes a notification as if the server sent it (the client's
        #: own handling: cache, handlers, :meth:`receive`); used after listening again (see :meth:`receive`).
        self.deliver: t.Callable[[str, dict[str, t.Any]], None] | None = None
        self._listened = False  # a listen of this subscription was acknowledged before
        self._listen = listen
        self._new_id = new_id
        self._stop = Cancellation()
        self._current: Cancellation | None = None
        self._lock = threading.Lock()
        self._acknowledged = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"mcp-client-listen-{next(_names)}", daemon=True)

    def start(self) -> Subscription:
        """Start keeping the subscription open, on a daemon thread.

        :returns: this subscription, so ``Subscription(...).start()`` reads as one expression.
        """
        self._thread.start()
        return self

    def wait_acknowledged(self, timeout: float) -> bool:
        """Block until the server acknowledges the subscription (True) or ``timeout`` seconds pass (False).

        :param timeout: seconds to wait at most.
        :returns: True once acknowledged.
        """
        return self._acknowledged.wait(timeout)

    @property
    def active(self) -> bool:
        """Whether the subscription is still being kept open."""
        return self._thread.is_alive()

    def close(self, timeout: float = 5.0) -> None:
        """End the subscription and wait (up to ``timeout`` seconds) for its thread. Idempotent.

        :param timeout: seconds to wait for the thread to end.
        """
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
        An acknowledgement after an earlier listen was acknowledged (listening again) is followed
        by one notification per change the agreed filter covers, through :attr:`deliver`.

        :return: whether the notification was for this subscription.
        :param subscription_id: the subscription id the notification carries in its ``_meta``.
        :param method: the notification's method.
        :param params: its params.
        """
        if subscription_id != self.request_id:
            return False
        if method == NOTIFICATIONS_SUBSCRIPTIONS_ACKNOWLEDGED:
            filter_ = params.get("notifications")
            self.acknowledged = filter_ if isinstance(filter_, dict) else {}
            missed, self._listened = self._listened, True
            self._acknowledged.set()
            if missed:
                self._recover(subscription_id, self.acknowledged)
        elif self.callback is not None:
            self.callback(method, params)
        return True

    def _recover(self, subscription_id: t.Any, agreed: dict[str, t.Any]) -> None:
        """Listening again after a gap, in which changes went unannounced (the server keeps no
        subscription state between listens): tell of each change the filter covers once, as if
        it had happened, so that caches are dropped and handlers list or read again."""
        deliver = self.deliver
        if deliver is None:
            return
        tag = {META_SUBSCRIPTION_ID: subscription_id}
        for flag, method in LIST_CHANGED_BY_FLAG.items():
            if agreed.get(flag) is True:
                deliver(method, {"_meta": dict(tag)})
        uris = agreed.get("resourceSubscriptions")
        for uri in uris if isinstance(uris, list) else ():
            if isinstance(uri, str):
                deliver(methods.NOTIFICATIONS_RESOURCES_UPDATED, {"_meta": dict(tag), "uri": uri})

    def _run(self) -> None:
        failures = 0  # attempts in a row that failed (a drop, a refusal)
        quick_ends = 0  # graceful ends in a row soon after the listen opened
        while not self._stop.cancelled():
            cancellation = Cancellation()
            with self._lock:
                self._current = cancellation
                self.request_id = self._new_id()
                request_id = self.request_id
            self._acknowledged.clear()
            if self._stop.cancelled():
                return
            self.attempts += 1
            opened = time.monotonic()
            try:
                self._listen({"notifications": self.notifications}, request_id, cancellation)
            except CancelledError:
                return
            except ServerBusyError as error:  # refused for now: never given up, retried as the server asks
                self.refused += 1
                failures += 1
                delay = max(error.retry_after or 0.0, self._backoff(failures))
                logger.info("subscriptions/listen refused (HTTP %s); listening again in %.1fs", error.status, delay)
            except MCPError as error:
                if self._acknowledged.is_set():
                    failures = 0  # it was open: a drop after that is worth a fresh try
                failures += 1
                if failures > self.max_reconnects:
                    logger.warning("subscriptions/listen given up after %d attempts: %s", failures, error)
                    return
                logger.info("subscriptions/listen dropped (%s); listening again", error)
                delay = self._backoff(failures)
            else:
                # The server ended it gracefully (to take its thread back, past its time, or shutting
                # down): listen again, at once spread over reconnect_delay, later the quicker it ended.
                failures = 0
                quick_ends = quick_ends + 1 if time.monotonic() - opened < QUICK_END else 0
                delay = self._backoff(quick_ends) if quick_ends else random.uniform(0.0, self.reconnect_delay)
                logger.info("subscriptions/listen ended by the server; listening again in %.1fs", delay)
            if self._stop.wait(delay):
                return

    def _backoff(self, attempts: int) -> float:
        """Seconds before attempt ``attempts`` + 1: doubling from ``reconnect_delay`` up to
        ``max_reconnect_delay``, with jitter (between half and all of it) so clients spread out."""
        delay = min(self.max_reconnect_delay, self.reconnect_delay * 2 ** min(attempts - 1, 30))
        return random.uniform(delay / 2, delay)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc_info: t.Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Subscription id={self.request_id!r} notifications={self.notifications!r}>"


class Subscriptions:
    """The open :class:`Subscription` objects of one client: the notifications of each reach it,
    :meth:`close` ends them all."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: list[Subscription] = []

    def add(self, subscription: Subscription, wait: float | None) -> Subscription:
        """Keep ``subscription`` and start it; returns it.

        :param subscription: a subscription not yet started.
        :param wait: seconds to wait for the server's acknowledgement (None: do not wait).
        """
        with self._lock:
            self._open.append(subscription)
        subscription.start()
        if wait is not None:
            subscription.wait_acknowledged(wait)
        return subscription

    def receive(self, subscription_id: t.Any, method: str, params: dict[str, t.Any]) -> None:
        """Give a notification carrying ``subscription_id`` to every open subscription (each keeps its own).

        :param subscription_id: the notification's ``_meta`` subscription id.
        :param method: the notification's method.
        :param params: its ``params``.
        """
        with self._lock:
            subscriptions = list(self._open)
        for subscription in subscriptions:
            subscription.receive(subscription_id, method, params)

    def close(self) -> None:
        """End every subscription kept (each closes its stream)."""
        with self._lock:
            subscriptions, self._open = self._open, []
        for subscription in subscriptions:
            subscription.close()


__all__ = ["Subscription", "Subscriptions", "notification_filter"]
