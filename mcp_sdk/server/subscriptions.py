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
    from ..cancellation import Cancellation
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
    agreed = _agreed_lists(requested)
    uris = _subscribed_ids(requested, "resourceSubscriptions", MAX_RESOURCE_SUBSCRIPTIONS)
    if uris is not None:
        agreed["resourceSubscriptions"] = uris
    task_ids = _subscribed_ids(requested, "taskIds", MAX_TASK_SUBSCRIPTIONS)
    if task_ids is not None:
        agreed["taskIds"] = task_ids
    return agreed


def _agreed_lists(requested: dict[str, t.Any]) -> dict[str, t.Any]:
    """The list-changed flags the filter sets to true (``{"toolsListChanged": True}``...).

    :raises InvalidParamsError: a flag that is not a boolean.
    """
    agreed: dict[str, t.Any] = {}
    for flag, _ in _LIST_FLAGS.values():
        value = requested.get(flag)
        if value is not None and type(value) is not bool:
            raise InvalidParamsError(f"Invalid params: notifications.{flag} must be a boolean")
        if value:
            agreed[flag] = True
    return agreed


def _subscribed_ids(requested: dict[str, t.Any], key: str, most: int) -> list[str] | None:
    """The resource URIs or task ids the filter subscribes to under ``key``, each once, in order
    (None: it names none).

    :raises InvalidParamsError: not a list of strings, or more than ``most`` of them.
    """
    ids = requested.get(key)
    if ids is None:
        return None
    if type(ids) is not list or not all(type(one) is str for one in ids):
        raise InvalidParamsError(f"Invalid params: notifications.{key} must be a list of strings")
    if len(ids) > most:
        raise InvalidParamsError(f"Invalid params: at most {most} {key} per listen request")
    return list(dict.fromkeys(ids))


def listen(
    request: Request,
    bus: SubscriptionBus,
    tasks: TaskManager | None = None,
    may_see: t.Callable[[str], bool] | None = None,
) -> dict[str, t.Any]:
    """Serve a ``subscriptions/listen`` request until it is cancelled or the bus closes.

    The caller has already refused a filter naming a resource the caller may not read
    (:func:`~mcp_sdk.server.auth.scopes.listen_scopes`).

    :param request: the ``subscriptions/listen`` request.
    :param bus: the server's subscription bus, whose changes the listen hears.
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
    stream = ListenStream(request, _agreed_with_tasks(request, tasks), tasks, may_see)
    # Subscribed before the acknowledgement goes out (a change the client causes right after
    # the ack must reach it); what arrives before the ack is held and written after it.
    stream.open(bus)
    try:
        stream.acknowledge()
        stream.wait_for_end(request.cancellation)
    finally:
        stream.close()
    return {"_meta": dict(stream.tag)}


def _agreed_with_tasks(request: Request, tasks: TaskManager | None) -> dict[str, t.Any]:
    """:func:`agreed_filter` of the request, without ``taskIds`` on a server with no tasks.

    :raises MissingClientCapabilityError: ``taskIds`` from a client that did not declare the tasks extension.
    """
    agreed = agreed_filter(request.params)
    if "taskIds" in agreed:
        if tasks is None:
            del agreed["taskIds"]
        elif not tasks.accepts(request.session):
            raise MissingClientCapabilityError(required_extension())
    return agreed


class ListenStream:
    """One open ``subscriptions/listen`` request: the changes its filter asks for, written to its
    connection as notifications tagged with its id.

    :param request: the listen request.
    :param agreed: the filter the server honours (see :func:`agreed_filter`).
    :param tasks: the server's tasks (None: the filter's ``taskIds`` are not followed).
    :param may_see: ``may_see(uri)``: whether the caller may still be told of a change to ``uri``.
    """

    def __init__(
        self,
        request: Request,
        agreed: dict[str, t.Any],
        tasks: TaskManager | None,
        may_see: t.Callable[[str], bool] | None,
    ) -> None:
        self.session = request.session
        self.subscription_id = request.id
        #: The ``_meta`` of every notification of the stream, and of its result.
        self.tag = {SUBSCRIPTION_ID_KEY: request.id}
        self.agreed = agreed
        self.tasks = tasks
        self.may_see = may_see
        self.lists = {kind: method for kind, (flag, method) in _LIST_FLAGS.items() if agreed.get(flag)}
        self.uris = frozenset(agreed.get("resourceSubscriptions", ()))
        self.task_ids = frozenset(agreed.get("taskIds", ()))
        #: Set when the stream should end: the bus closed, the client cancelled, the transport ended it.
        self.woken = threading.Event()
        # The gate guards _held: the notifications that arrived before the acknowledgement went out
        # (None once it has, and the held ones are written).
        self._gate = threading.Lock()
        self._held: list[dict[str, t.Any]] | None = []
        self._stops: list[t.Callable[[], None]] = []

    def open(self, bus: SubscriptionBus) -> None:
        """Hear the changes ``bus`` carries from now on (held until :meth:`acknowledge`)."""
        self._stops.append(bus.subscribe(self.deliver))

    def deliver(self, event: Event) -> None:
        """Write the notification ``event`` means to this stream, if its filter asks for it."""
        kind, uri = event
        if kind == CLOSED:
            self.woken.set()
            return
        message = self.notification(kind, uri)
        if message is None:
            return
        with self._gate:
            if self._held is not None:
                self._held.append(message)
                return
        self.session.write(message, self.subscription_id)

    def notification(self, kind: str, uri: str | None) -> dict[str, t.Any] | None:
        """The notification a change of ``kind`` (of ``uri``) is to this stream (None: it did not ask for it)."""
        if kind in self.lists:
            return json_rpc.notification(self.lists[kind], {"_meta": self.tag})
        if kind == "resource" and uri is not None and uri in self.uris and (self.may_see is None or self.may_see(uri)):
            return json_rpc.notification(methods.NOTIFICATIONS_RESOURCES_UPDATED, {"_meta": self.tag, "uri": uri})
        if kind == "task" and uri is not None and uri in self.task_ids and self.tasks is not None:
            task = self.tasks.notification_params(uri, self.session)
            if task is None:
                return None
            return json_rpc.notification(methods.NOTIFICATIONS_TASKS, {**task, "_meta": self.tag})
        return None

    def acknowledge(self) -> None:
        """Write ``notifications/subscriptions/acknowledged``, then what was held meanwhile; from then on
        :meth:`deliver` writes at once."""
        self.session.write(
            json_rpc.notification(methods.NOTIFICATIONS_SUBSCRIPTIONS_ACKNOWLEDGED, {"_meta": self.tag, "notifications": self.agreed}),
            self.subscription_id,
        )
        while True:
            with self._gate:
                batch, self._held = self._held, ([] if self._held else None)
            if not batch:
                break
            for message in batch:
                self.session.write(message, self.subscription_id)

    def wait_for_end(self, cancellation: Cancellation | None) -> None:
        """Wait until the bus closes, the client cancels (``cancellation``) or the transport ends the
        listen (the connection's :class:`~mcp_sdk.graceful_end.GracefulEnd`, early or at its deadline).

        :raises CancelledError: the client cancelled.
        """
        if cancellation is not None:
            self._stops.append(cancellation.add_callback(lambda _: self.woken.set()))
        graceful = self.session.graceful_end
        if graceful is not None:
            self._stops.append(graceful.add_callback(self.woken.set))
        while not self.woken.wait(_slice(graceful)):
            if graceful is not None and graceful.ended:
                break
        if cancellation is not None and cancellation.cancelled():
            raise CancelledError(reason=cancellation.reason)

    def close(self) -> None:
        """Stop hearing the bus, and drop the callbacks :meth:`wait_for_end` registered."""
        for stop in self._stops:
            stop()
        self._stops.clear()


def _slice(graceful: GracefulEnd | None) -> float:
    left = graceful.left() if graceful is not None else None
    return WAIT_SLICE if left is None else min(WAIT_SLICE, left)


__all__ = ["InProcessBus", "ListenStream", "MAX_RESOURCE_SUBSCRIPTIONS", "MAX_TASK_SUBSCRIPTIONS", "SubscriptionBus", "agreed_filter", "listen"]
