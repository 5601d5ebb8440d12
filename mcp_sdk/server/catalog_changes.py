"""Changing what a server serves while it runs: remove, disable, enable, filter by tags.

:class:`CatalogChanges` is an object the server holds: each change goes to the server's
:class:`~.registry.Registry` (see :mod:`.visibility`), then the clients are told that the list
changed, outside the registry's lock. Unknown names raise :class:`~mcp_sdk.errors.NotRegisteredError`.
"""

from __future__ import annotations

import typing as t

if t.TYPE_CHECKING:
    from .registry import Registry


class ChangesHost(t.Protocol):
    """What :class:`CatalogChanges` needs of its server."""

    registry: Registry

    def notify_tools_list_changed(self) -> None:
        """Tell every client the tool list changed."""

    def notify_prompts_list_changed(self) -> None:
        """Tell every client the prompt list changed."""

    def notify_resources_list_changed(self) -> None:
        """Tell every client the resource list changed."""


class CatalogChanges:
    """Removes, disables and enables a server's items, and filters them by tags, telling its clients.

    :param host: the server whose registry changes and whose clients are told.
    """

    def __init__(self, host: ChangesHost) -> None:
        self.host = host

    def remove(self, kind: str, name: str) -> list[t.Any]:
        """Unregister the items of ``kind`` (``"tools"``, ``"prompts"``, ``"resources"``, ``"resourceTemplates"``)
        named ``name``, then tell the clients; returns what was removed.

        :param kind: a key of :data:`.registry.LIST_KINDS`.
        :param name: the tool or prompt name, resource URI or URI template.
        :raises NotRegisteredError: none is registered.
        """
        removed = self.host.registry.remove(kind, name)
        self._notify(kind)
        return removed

    def set_enabled(self, kind: str, name: str, enabled: bool) -> None:
        """Enable or disable the item of ``kind`` named ``name``; the clients are told when that changed anything.

        :param kind: a key of :data:`.registry.LIST_KINDS`.
        :param name: the tool or prompt name, resource URI or URI template.
        :param enabled: True lists and serves it; False neither lists nor serves it.
        :raises NotRegisteredError: none is registered.
        """
        if self.host.registry.set_enabled(kind, name, enabled):
            self._notify(kind)

    def filter_tags(self, include_tags: t.Iterable[str] | None, exclude_tags: t.Iterable[str] | None) -> None:
        """Serve only what the tags let through (see :class:`.visibility.Visibility`), then tell the clients
        every list changed.

        :param include_tags: serve only what carries one of these (None: everything).
        :param exclude_tags: hide what carries any of these.
        :raises TypeError: a tag is not a non-empty string.
        """
        self.host.registry.filter_tags(include_tags, exclude_tags)
        self.host.notify_tools_list_changed()
        self.host.notify_prompts_list_changed()
        self.host.notify_resources_list_changed()

    def _notify(self, kind: str) -> None:
        if kind == "tools":
            self.host.notify_tools_list_changed()
        elif kind == "prompts":
            self.host.notify_prompts_list_changed()
        else:
            self.host.notify_resources_list_changed()


__all__ = ["CatalogChanges", "ChangesHost"]
