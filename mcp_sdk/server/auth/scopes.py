"""Per-item scopes: tools, prompts and resources that declare ``required_scopes``.

A principal lacking an item's scopes does not see it in lists and is refused when
calling, getting, reading or subscribing to it (``resources/subscribe``, or naming it in a
``subscriptions/listen`` filter), or completing its arguments. Without a principal (stdio, or an HTTP transport
with no authentication configured) there is nobody to restrict: everything is open.
"""

from __future__ import annotations

import typing as t

from ... import methods
from .principal import Principal
from .refusals import InsufficientScopeError

if t.TYPE_CHECKING:
    from ...prompt import Prompt
    from ...resource import Resource
    from ...tool import Tool


class Catalog(t.Protocol):
    """What the checks read of a server: its registered items (a :class:`~mcp_sdk.Server`
    or its :class:`~mcp_sdk.server.registry.Registry`)."""

    @property
    def tools(self) -> dict[str, type[Tool]]: ...

    @property
    def prompts(self) -> dict[str, type[Prompt]]: ...

    @property
    def resources(self) -> list[Resource]: ...


_LIST_KEYS = {"tools": "name", "prompts": "name", "resources": "uri"}


def _scoped(server: Catalog, kind: str) -> dict[str, t.Sequence[str]]:
    """The items of ``kind`` that declare scopes: name (or uri) -> scopes."""
    if kind == "tools":
        return {name: tool.required_scopes for name, tool in server.tools.items() if tool.required_scopes}
    if kind == "prompts":
        return {name: prompt.required_scopes for name, prompt in server.prompts.items() if prompt.required_scopes}
    if kind == "resources":
        return {resource.uri: resource.required_scopes for resource in server.resources if resource.required_scopes}
    return {}


def visible(server: Catalog, kind: str, listing: list[dict[str, t.Any]], principal: Principal | None) -> list[dict[str, t.Any]]:
    """``listing`` (a cached ``tools/list``-style listing) without what ``principal`` may not use."""
    if principal is None or kind not in _LIST_KEYS:
        return listing
    scoped = _scoped(server, kind)
    if not scoped:
        return listing
    key = _LIST_KEYS[kind]
    return [entry for entry in listing if principal.has_scopes(scoped.get(str(entry.get(key)), ()))]


def required_for(server: Catalog, message: t.Any) -> list[str]:
    """The scopes the requests in ``message`` (one or a batch) need for the items they name."""
    required: dict[str, None] = {}
    for item in message if type(message) is list else [message]:
        if type(item) is not dict or type(item.get("params")) is not dict:
            continue
        required.update(dict.fromkeys(_scopes_named(server, item.get("method"), item["params"])))
    return list(required)


def _scopes_named(server: Catalog, method: t.Any, params: dict[str, t.Any]) -> t.Sequence[str]:
    """The scopes of the one tool, prompt or resource a request names (none for other methods)."""
    if method == methods.TOOLS_CALL:
        tool = server.tools.get(params["name"]) if type(params.get("name")) is str else None
        return tool.required_scopes if tool is not None else ()
    if method == methods.PROMPTS_GET:
        prompt = server.prompts.get(params["name"]) if type(params.get("name")) is str else None
        return prompt.required_scopes if prompt is not None else ()
    if method in (methods.RESOURCES_READ, methods.RESOURCES_SUBSCRIBE):
        return resource_scopes(server, params.get("uri"))
    if method == methods.COMPLETION_COMPLETE:  # completing a hidden prompt's or resource's arguments
        return completion_scopes(server, params.get("ref"))
    if method == methods.SUBSCRIPTIONS_LISTEN:  # 2026-07-28's resources/subscribe
        return listen_scopes(server, params)
    return ()


def listen_scopes(server: Catalog, params: t.Any) -> list[str]:
    """The scopes of every resource a ``subscriptions/listen`` filter names in ``resourceSubscriptions``."""
    notifications = params.get("notifications") if type(params) is dict else None
    uris = notifications.get("resourceSubscriptions") if type(notifications) is dict else None
    if type(uris) is not list:
        return []
    scoped = _scoped(server, "resources")
    required: dict[str, None] = {}
    for uri in uris:
        if type(uri) is str:
            required.update(dict.fromkeys(scoped.get(uri, ())))
    return list(required)


def completion_scopes(server: Catalog, ref: t.Any) -> t.Sequence[str]:
    """The scopes of the prompt or resource a ``completion/complete`` ``ref`` names."""
    if type(ref) is not dict:
        return ()
    if ref.get("type") == "ref/prompt":
        prompt = server.prompts.get(ref["name"]) if type(ref.get("name")) is str else None
        return prompt.required_scopes if prompt is not None else ()
    if ref.get("type") == "ref/resource":
        return resource_scopes(server, ref.get("uri"))
    return ()


def resource_scopes(server: Catalog, uri: t.Any) -> t.Sequence[str]:
    """The ``required_scopes`` of the listed resource ``uri`` (none for an unlisted one)."""
    return next((resource.required_scopes for resource in server.resources if resource.uri == uri), ())


def require_scopes(principal: Principal | None, required: t.Sequence[str] | None) -> None:
    """Raise :class:`InsufficientScopeError` if ``principal`` lacks one of ``required``.

    The handlers' check; the HTTP transport refuses such a request with 403 before it gets here.
    """
    if principal is None or not required:
        return
    missing = principal.missing_scopes(required)
    if missing:
        raise InsufficientScopeError(list(required))


__all__ = ["Catalog", "completion_scopes", "listen_scopes", "require_scopes", "required_for", "resource_scopes", "visible"]
