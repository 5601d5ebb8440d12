"""What a server tells its clients when what it serves changes, and the changes that cause it.

:class:`Broadcast` tells every client at once: list changes, resource updates, log messages. It
sends to each open 2025 session and publishes on the subscription bus (2026-07-28
``subscriptions/listen`` streams, and every Redis worker's), reporting a failure per session instead
of letting one broken client stop the rest.

:class:`CatalogChanges` changes what the server serves while it runs (remove, disable, enable,
filter by tags): each change goes to the server's :class:`~.registry.Registry` (see
:mod:`.visibility`), then its :class:`Broadcast` tells the clients that the list changed, outside
the registry's lock. Unknown names raise :class:`~mcp_sdk.errors.NotRegisteredError`.

Both are objects the server holds (``server.broadcast``, and the one behind ``server.remove_tool``
and its siblings); each is given what it works with when it is made.
"""

from __future__ import annotations

import typing as t

from .. import methods

if t.TYPE_CHECKING:
    from .session import ServerSession
    from .registry import Registry
    from .subscriptions import SubscriptionBus

#: The notification that tells a 2025 session a list changed, by the kind of list.
LIST_CHANGED_METHODS = {
    "tools": methods.NOTIFICATIONS_TOOLS_LIST_CHANGED,
    "prompts": methods.NOTIFICATIONS_PROMPTS_LIST_CHANGED,
    "resources": methods.NOTIFICATIONS_RESOURCES_LIST_CHANGED,
}

#: ``report(error, context)``: gives an error no client is told of to the server's reporter.
ReportException = t.Callable[[BaseException, t.Dict[str, t.Any]], None]


class Broadcast:
    """Sends a server's notifications to all its clients.

    :param registry: the server's registry, whose cached listings a list change makes stale.
    :param subscriptions: returns the server's subscription bus when it is needed (a transport
        sharing sessions on Redis replaces the bus after the server is made).
    :param sessions: returns the open sessions (a snapshot).
    :param report_exception: gets a failure to tell one session, or to publish.
    """

    def __init__(
        self,
        registry: Registry,
        subscriptions: t.Callable[[], SubscriptionBus],
        sessions: t.Callable[[], list[ServerSession]],
        report_exception: ReportException,
    ) -> None:
        self.registry = registry
        self.subscriptions = subscriptions
        self.sessions = sessions
        self.report_exception = report_exception

    def list_changed(self, kind: str) -> None:
        """Tell every 2025 session and every listener that a list changed.

        :param kind: ``"tools"``, ``"prompts"`` or ``"resources"`` (a key of :data:`LIST_CHANGED_METHODS`).
        """
        method = LIST_CHANGED_METHODS[kind]
        self.registry.forget_listings()
        for session in self.sessions():
            if session.protocol_version is None and session.serves_modern:
                continue  # 2026-07-28 has list_changed only on subscriptions/listen streams
            try:
                session.send_notification(method)
            except Exception as error:
                self.report_exception(error, {"notification": f"{kind}_list_changed"})
        self.publish(kind)

    def publish(self, kind: str, uri: str | None = None) -> None:
        """Publish a change of ``kind`` (of ``uri``) to the listeners, on every worker.

        :param kind: what changed: a list kind, ``"resource"`` (with its ``uri``) or ``"task"``.
        :param uri: the resource's URI (or the task's id), for a change of one item.
        """
        try:
            self.subscriptions().publish(kind, uri)
        except Exception as error:
            self.report_exception(error, {"notification": f"{kind}_changed"})

    def log_message(self, data: t.Any, level: str, logger: str | None) -> None:
        """Send ``notifications/message`` to every session whose log level lets ``level`` through.

        :param data: the message: a string or any JSON value.
        :param level: its level, one of the eight of RFC 5424.
        :param logger: the name of what logged it, if any.
        :raises ValueError: for a level that is not one of the eight.
        """
        if level not in methods.LOG_SEVERITY:
            raise ValueError(f"log level must be one of {', '.join(methods.LOG_LEVELS)}, not {level!r}")
        for session in self.sessions():
            try:
                session.notify_log_message(data=data, level=level, logger=logger)
            except Exception as error:
                self.report_exception(error, {"notification": "log_message"})


class CatalogChanges:
    """Removes, disables and enables a server's items, and filters them by tags, telling its clients.

    :param registry: the registry that changes.
    :param broadcast: tells the clients what changed.
    """

    def __init__(self, registry: Registry, broadcast: Broadcast) -> None:
        self.registry = registry
        self.broadcast = broadcast

    def remove(self, kind: str, name: str) -> list[t.Any]:
        """Unregister the items of ``kind`` (``"tools"``, ``"prompts"``, ``"resources"``, ``"resourceTemplates"``)
        named ``name``, then tell the clients; returns what was removed.

        :param kind: a key of :data:`.registry.LIST_KINDS`.
        :param name: the tool or prompt name, resource URI or URI template.
        :raises NotRegisteredError: none is registered.
        """
        removed = self.registry.remove(kind, name)
        self.broadcast.list_changed(listed_in(kind))
        return removed

    def set_enabled(self, kind: str, name: str, enabled: bool) -> None:
        """Enable or disable the item of ``kind`` named ``name``; the clients are told when that changed anything.

        :param kind: a key of :data:`.registry.LIST_KINDS`.
        :param name: the tool or prompt name, resource URI or URI template.
        :param enabled: True lists and serves it; False neither lists nor serves it.
        :raises NotRegisteredError: none is registered.
        """
        if self.registry.set_enabled(kind, name, enabled):
            self.broadcast.list_changed(listed_in(kind))

    def filter_tags(self, include_tags: t.Iterable[str] | None, exclude_tags: t.Iterable[str] | None) -> None:
        """Serve only what the tags let through (see :class:`.visibility.Visibility`), then tell the clients
        every list changed.

        :param include_tags: serve only what carries one of these (None: everything).
        :param exclude_tags: hide what carries any of these.
        :raises TypeError: a tag is not a non-empty string.
        """
        self.registry.filter_tags(include_tags, exclude_tags)
        for kind in LIST_CHANGED_METHODS:
            self.broadcast.list_changed(kind)


def listed_in(kind: str) -> str:
    """The list whose change clients are told of when an item of registry ``kind`` changes (resource
    templates: the resource list, whose notification covers them).

    :param kind: a key of :data:`.registry.LIST_KINDS`.
    """
    if kind in ("tools", "prompts"):
        return kind
    return "resources"


__all__ = ["Broadcast", "CatalogChanges", "LIST_CHANGED_METHODS", "ReportException", "listed_in"]
