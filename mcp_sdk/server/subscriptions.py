"""``subscriptions/listen`` (2026-07-28): long-lived notification streams, and the bus that feeds them.

https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions

A listen request stays open: the server acknowledges it
(``notifications/subscriptions/acknowledged``), then writes the change
notifications its filter asks for, each tagged with the request's id under
``io.modelcontextprotocol/subscriptionId``, until the client cancels it (closing
the HTTP stream, or ``notifications/cancelled`` on stdio) or the server ends it
with a result (:meth:`SubscriptionBus.close`).

Changes reach listeners through a :class:`SubscriptionBus`. The default,
:class:`InProcessBus`, delivers within this process; a shared bus (Redis, say)
implements the same three methods to reach listeners in other processes.
"""

from __future__ import annotations

import threading
import typing as t

from .. import json_rpc, methods
from ..errors import CancelledError, InvalidParamsError, MissingClientCapabilityError
from .envelope import SUBSCRIPTION_ID_KEY
from .tasks import required_extension

if t.TYPE_CHECKING:
    from ..graceful_end import GracefulEnd
    from .request import Request
    from .tasks import TaskManager

#: The most resource URIs one listen request may subscribe to.
MAX_RESOURCE_SUBSCRIPTIONS = 1000
#: The most task ids one listen request may follow (the tasks extension).
MAX_TASK_SUBSCRIPTIONS = 1000
#: Seconds between checks, while a listen request waits, that its connection is still there.
WAIT_SLICE = 1.0

#: A change: ``"tools"``, ``"prompts"`` or ``"resources"`` (list changed), ``"resource"`` with its
#: URI, ``"task"`` with its task id (the tasks extension); ``"closed"`` tells listeners to end (the server is shutting down).
Event = t.Tuple[str, t.Optional[str]]
CLOSED = "closed"
Deliver = t.Callable[[Event], None]

_LIST_FLAGS = {
    "tools": ("toolsListChanged", methods.NOTIFICATIONS_TOOLS_LIST_CHANGED),
    "prompts": ("promptsListChanged", methods.NOTIFICATIONS_PROMPTS_LIST_CHANGED),
    "resources": ("resourcesListChanged", methods.NOTIFICATIONS_RESOURCES_LIST_CHANGED),
}


class SubscriptionBus(t.Protocol):
    """Carries change events to the listeners of every process sharing it."""

    def publish(self, kind: str, uri: str | None = None) -> None:
        """Announce a change (see :data:`Event`) to every listener."""

    def subscribe(self, deliver: Deliver) -> t.Callable[[], None]:
        """Call ``deliver(event)`` for each change from now on; returns the function that stops it."""

    def close(self) -> None:
        """End every listen request open in this process now, gracefully (with a result)."""


class InProcessBus:
    """A :class:`SubscriptionBus` within one process. ``deliver`` runs on the publisher's
    thread, outside the bus's lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: dict[int, Deliver] = {}
        self._next = 0

    def publish(self, kind: str, uri: str | None = None) -> None:
        with self._lock:
            listeners = list(self._listeners.values())
        for deliver in listeners:
            deliver((kind, uri))

    def subscribe(self, deliver: Deliver) -> t.Callable[[], None]:
        with self._lock:
            key = self._next
            self._next += 1
            self._listeners[key] = deliver

        def unsubscribe() -> None:
            with self._lock:
                self._listeners.pop(key, None)

        return unsubscribe

    def close(self) -> None:
        self.publish(CLOSED)

    @property
    def listener_count(self) -> int:
        with self._lock:
            return len(self._listeners)


def agreed_filter(params: t.Any) -> dict[str, t.Any]:
    """The part of a listen request's ``notifications`` filter the server honours.

    :raises InvalidParamsError: ``notifications`` is missing or malformed.
    """
    requested = params.get("notifications") if type(params) is dict else None
    if type(requested) is not dict:
        raise InvalidParamsError("Invalid params: subscriptions/listen needs a 'notifications' object")
    agreed: dict[str, t.Any] = {}
    for flag, _ in _LIST_FLAGS.values():
        value = requested.get(flag)
        if value is not None and type(value) is not bool:
            raise InvalidParamsError(f"Invalid params: notifications.{flag} must be a boolean")
        if value:
            agreed[flag] = True
    uris = requested.get("resourceSubscriptions")
    if uris is not None:
        if type(uris) is not list or not all(type(uri) is str for uri in uris):
            raise InvalidParamsError("Invalid params: notifications.resourceSubscriptions must be a list of strings")
        if len(uris) > MAX_RESOURCE_SUBSCRIPTIONS:
            raise InvalidParamsError(
                f"Invalid params: at most {MAX_RESOURCE_SUBSCRIPTIONS} resourceSubscriptions per listen request"
            )
        agreed["resourceSubscriptions"] = list(dict.fromkeys(uris))
    task_ids = requested.get("taskIds")
    if task_ids is not None:
        if type(task_ids) is not list or not all(type(task_id) is str for task_id in task_ids):
            raise InvalidParamsError("Invalid params: notifications.taskIds must be a list of strings")
        if len(task_ids) > MAX_TASK_SUBSCRIPTIONS:
            raise InvalidParamsError(f"Invalid params: at most {MAX_TASK_SUBSCRIPTIONS} taskIds per listen request")
        agreed["taskIds"] = list(dict.fromkeys(task_ids))
    return agreed


def listen(
    request: Request,
    bus: SubscriptionBus,
    tasks: TaskManager | None = None,
    may_see: t.Callable[[str], bool] | None = None,
) -> dict[str, t.Any]:
    """Serve a ``subscriptions/listen`` request until it is cancelled or the bus closes.

    The caller has already refused a filter naming a resource the caller may not read
    (:func:`~mcp_sdk.server.auth.scopes.listen_scopes`).

    :param tasks: the server's tasks, for ``notifications/tasks`` (``taskIds`` in the filter).
    :param may_see: ``may_see(uri)``: whether the caller may still be told of a change to the
        resource ``uri``, asked for each update (a resource needing scopes may be added after
        the request started); None delivers every subscribed update.
    The request's connection may carry a :class:`~mcp_sdk.graceful_end.GracefulEnd`
    (``session.graceful_end``): a transport bounding listens ends it early, or at its deadline,
    with the graceful-close result.

    :return: the graceful-close result (the caller stamps it).
    :raises CancelledError: the client cancelled it (no response is sent).
    :raises MissingClientCapabilityError: ``taskIds`` without the tasks extension declared (-32021).
    """
    agreed = agreed_filter(request.params)
    session = request.session
    wanted_tasks = frozenset(agreed.get("taskIds", ()))
    if "taskIds" in agreed:
        if tasks is None:
            del agreed["taskIds"]
        elif not tasks.accepts(session):
            raise MissingClientCapabilityError(required_extension())
    subscription_id = request.id
    cancellation = request.cancellation
    tag = {SUBSCRIPTION_ID_KEY: subscription_id}
    wanted_lists = {kind: method for kind, (flag, method) in _LIST_FLAGS.items() if agreed.get(flag)}
    wanted_uris = frozenset(agreed.get("resourceSubscriptions", ()))
    wake = threading.Event()
    # Subscribed before the acknowledgement goes out (a change the client causes right after
    # the ack must reach it), but what arrives before the ack is held and written after it.
    gate = threading.Lock()
    held: list[dict[str, t.Any]] | None = []

    def deliver(event: Event) -> None:
        kind, uri = event
        if kind == CLOSED:
            wake.set()
            return
        if kind in wanted_lists:
            message = json_rpc.notification(wanted_lists[kind], {"_meta": tag})
        elif kind == "resource" and uri is not None and uri in wanted_uris and (may_see is None or may_see(uri)):
            message = json_rpc.notification(methods.NOTIFICATIONS_RESOURCES_UPDATED, {"_meta": tag, "uri": uri})
        elif kind == "task" and uri is not None and uri in wanted_tasks and tasks is not None:
            task = tasks.notification_params(uri, session)
            if task is None:
                return
            message = json_rpc.notification(methods.NOTIFICATIONS_TASKS, {**task, "_meta": tag})
        else:
            return
        with gate:
            if held is not None:
                held.append(message)
                return
        session.write(message, subscription_id)

    unsubscribe = bus.subscribe(deliver)
    forget = forget_end = None
    try:
        session.write(
            json_rpc.notification(methods.NOTIFICATIONS_SUBSCRIPTIONS_ACKNOWLEDGED, {"_meta": tag, "notifications": agreed}),
            subscription_id,
        )
        while True:
            with gate:
                batch, held = held, ([] if held else None)
            if not batch:
                break
            for message in batch:
                session.write(message, subscription_id)
        forget = cancellation.add_callback(lambda _: wake.set()) if cancellation is not None else None
        graceful = session.graceful_end  # the transport may end it early, or at a deadline
        forget_end = graceful.add_callback(wake.set) if graceful is not None else None
        while not wake.wait(_slice(graceful)):
            if graceful is not None and graceful.ended:
                break
        if cancellation is not None and cancellation.cancelled():
            raise CancelledError(reason=cancellation.reason)
    finally:
        unsubscribe()
        if forget is not None:
            forget()
        if forget_end is not None:
            forget_end()
    return {"_meta": dict(tag)}


def _slice(graceful: GracefulEnd | None) -> float:
    left = graceful.left() if graceful is not None else None
    return WAIT_SLICE if left is None else min(WAIT_SLICE, left)


__all__ = ["InProcessBus", "MAX_RESOURCE_SUBSCRIPTIONS", "MAX_TASK_SUBSCRIPTIONS", "SubscriptionBus", "agreed_filter", "listen"]
