"""MCP Apps (``io.modelcontextprotocol/ui``, SEP-1865): tools whose results a host renders as HTML views.

A server lists a :class:`UIResource` (a ``ui://`` URI served as
``text/html;profile=mcp-app`` with its ``_meta.ui``: ``csp``, ``permissions``,
``domain``, ``prefersBorder``) and points a tool at it with
``meta = tool_meta("ui://...")``. The server then advertises the extension in
its capabilities (``initialize`` and ``server/discover``) and answers
``resources/read`` for the view itself. A handler asks :func:`client_supports_apps`
to fall back to plain text for hosts without Apps.

Spec: https://github.com/modelcontextprotocol/ext-apps, ``specification/2026-01-26/apps.mdx``.
"""

from __future__ import annotations

import typing as t

import attrs

from .errors import MCPError
from .resource import Resource
from .resource.contents import TextContents

#: The extension identifier, the key under ``capabilities.extensions``.
EXTENSION_ID = "io.modelcontextprotocol/ui"
#: The MIME type of an HTML view.
MIME_TYPE = "text/html;profile=mcp-app"
#: Who may call a tool: the model (the agent) and/or the app (the view, same server only).
VISIBILITIES = ("model", "app")
#: The sandbox permissions a view may ask for.
PERMISSIONS = ("camera", "microphone", "geolocation", "clipboardWrite")
#: ``csp`` keys: Python name -> wire name.
CSP_KEYS = {
    "connect_domains": "connectDomains",
    "resource_domains": "resourceDomains",
    "frame_domains": "frameDomains",
    "base_uri_domains": "baseUriDomains",
}

_UI_FIELDS = ("html", "csp", "permissions", "domain", "prefersBorder", "prefers_border")


class InvalidUIMetadataError(MCPError, ValueError):
    """A UI resource or a tool's ``_meta.ui`` breaks the MCP Apps rules."""


def resource_ui_meta(
    *,
    csp: t.Mapping[str, t.Sequence[str]] | None = None,
    permissions: t.Iterable[str] | None = None,
    domain: str | None = None,
    prefers_border: bool | None = None,
) -> dict[str, t.Any]:
    """The ``_meta.ui`` object of a UI resource (only the fields given).

    :param csp: origins the view needs, by kind: ``connect_domains``,
        ``resource_domains``, ``frame_domains``, ``base_uri_domains`` (or their
        camelCase wire names); omitted means the host's restrictive default.
    :param permissions: any of ``camera``, ``microphone``, ``geolocation``, ``clipboardWrite``.
    :param domain: a dedicated sandbox origin (format set by each host).
    :param prefers_border: ask the host for (``True``) or against (``False``) a border.
    :raises InvalidUIMetadataError: for unknown keys or ill-typed values.
    """
    ui: dict[str, t.Any] = {}
    if csp is not None:
        ui["csp"] = _wire_csp(csp)
    if permissions is not None:
        ui["permissions"] = _wire_permissions(permissions)
    if domain is not None:
        if not isinstance(domain, str) or not domain:
            raise InvalidUIMetadataError("domain must be a non-empty string")
        ui["domain"] = domain
    if prefers_border is not None:
        if not isinstance(prefers_border, bool):
            raise InvalidUIMetadataError("prefers_border must be a bool")
        ui["prefersBorder"] = prefers_border
    return ui


def _wire_csp(csp: t.Mapping[str, t.Sequence[str]]) -> dict[str, list[str]]:
    """``csp`` with its keys as the wire names them (``connectDomains``...).

    :raises InvalidUIMetadataError: not a mapping, an unknown key, or origins that are not a list of strings.
    """
    if not isinstance(csp, t.Mapping):
        raise InvalidUIMetadataError("csp must be a mapping of domain lists")
    wire_csp: dict[str, list[str]] = {}
    for key, origins in csp.items():
        wire_key = CSP_KEYS.get(key, key)
        if wire_key not in CSP_KEYS.values():
            raise InvalidUIMetadataError(f"unknown csp key {key!r}: use {', '.join(CSP_KEYS)}")
        if isinstance(origins, str) or not all(isinstance(origin, str) and origin for origin in origins):
            raise InvalidUIMetadataError(f"csp {key} must be a list of origins")
        wire_csp[wire_key] = list(origins)
    return wire_csp


def _wire_permissions(permissions: t.Iterable[str]) -> dict[str, dict[str, t.Any]]:
    """``permissions`` as the wire carries them: ``{name: {}}``.

    :raises InvalidUIMetadataError: a string rather than a list, or an unknown name.
    """
    if isinstance(permissions, str):
        raise InvalidUIMetadataError("permissions must be a list of names, not a string")
    wanted = list(permissions)
    unknown = [name for name in wanted if name not in PERMISSIONS]
    if unknown:
        raise InvalidUIMetadataError(f"unknown permissions {unknown}: use {', '.join(PERMISSIONS)}")
    return {name: {} for name in wanted}


def tool_meta(resource_uri: str, *, visibility: t.Iterable[str] | None = None, **meta: t.Any) -> dict[str, t.Any]:
    """A tool's ``_meta`` linking it to a view: ``{"ui": {"resourceUri": ..., "visibility": [...]}}``.

    :param resource_uri: the ``ui://`` URI of the :class:`UIResource` that renders its results.
    :param visibility: ``["model", "app"]`` (the default when omitted), ``["model"]``
        or ``["app"]`` (hidden from the agent, callable by the view only).
    :param meta: other ``_meta`` entries to keep beside ``ui``.
    :raises InvalidUIMetadataError: for a URI that is not ``ui://`` or an unknown visibility.
    """
    _check_ui_uri(resource_uri)
    ui: dict[str, t.Any] = {"resourceUri": resource_uri}
    if visibility is not None:
        if isinstance(visibility, str):
            raise InvalidUIMetadataError('visibility must be a list such as ["model", "app"], not a string')
        chosen = list(visibility)
        if not chosen or any(item not in VISIBILITIES for item in chosen) or len(set(chosen)) != len(chosen):
            raise InvalidUIMetadataError('visibility must list "model" and/or "app", each once')
        ui["visibility"] = chosen
    return {**meta, "ui": ui}


def _check_ui_uri(uri: t.Any) -> None:
    if not isinstance(uri, str) or not uri.startswith("ui://") or len(uri) <= len("ui://"):
        raise InvalidUIMetadataError(f"a UI resource URI must start with ui://, not {uri!r}")


@attrs.define
class UIResource(Resource):
    """A view: ``UIResource(uri="ui://...", name=..., html=..., csp=..., prefers_border=...)``.

    Listed like any :class:`~mcp_sdk.Resource` (with ``mimeType``
    ``text/html;profile=mcp-app`` and its ``_meta.ui``); the server answers
    ``resources/read`` for its URI with the HTML and the same ``_meta.ui``
    itself, before any ``resources_read_handler``.

    :raises InvalidUIMetadataError: for a URI that is not ``ui://`` or bad ``_meta.ui`` values.
    """

    html: str = attrs.field(default="", kw_only=True)
    csp: dict[str, list[str]] | None = attrs.field(default=None, kw_only=True)
    permissions: list[str] | None = attrs.field(default=None, kw_only=True)
    domain: str | None = attrs.field(default=None, kw_only=True)
    prefers_border: bool | None = attrs.field(default=None, kw_only=True)

    def __attrs_post_init__(self) -> None:
        _check_ui_uri(self.uri)
        if not isinstance(self.html, str) or not self.html:
            raise InvalidUIMetadataError("a UI resource needs its html (a string)")
        if self.mime_type is None:
            self.mime_type = MIME_TYPE
        elif self.mime_type != MIME_TYPE:
            raise InvalidUIMetadataError(f"a UI resource's mime_type must be {MIME_TYPE!r}")
        ui = self.ui_meta()
        if ui:
            self.meta = {**(self.meta or {}), "ui": ui}

    def ui_meta(self) -> dict[str, t.Any]:
        """The ``_meta.ui`` object (``csp``, ``permissions``, ``domain``, ``prefersBorder`` as set)."""
        return resource_ui_meta(
            csp=self.csp, permissions=self.permissions, domain=self.domain, prefers_border=self.prefers_border
        )

    def contents(self) -> list[TextContents]:
        """What ``resources/read`` answers for this view."""
        ui = self.ui_meta()
        return [TextContents(text=self.html, uri=self.uri, mime_type=MIME_TYPE, meta={"ui": ui} if ui else None)]

    def to_dict(self) -> dict[str, t.Any]:
        """The ``resources/list`` entry (without the HTML)."""
        entry = super().to_dict()
        for key in _UI_FIELDS:
            entry.pop(key, None)
        return entry

    def __repr__(self) -> str:
        return f"UIResource(uri={self.uri!r}, name={self.name!r}, html=<{len(self.html)} characters>)"


def client_supports_apps(server_context: t.Any) -> bool:
    """Whether the client of this request renders MCP Apps HTML views.

    True when it declared ``capabilities.extensions["io.modelcontextprotocol/ui"]``
    with ``text/html;profile=mcp-app`` among its ``mimeTypes`` (or with no
    ``mimeTypes`` list at all). Use it in a tool to return plain text otherwise.
    """
    session = getattr(server_context, "session", None)
    if session is None or not server_context.client_supports("extensions." + EXTENSION_ID):
        return False
    capabilities = getattr(session, "client_capabilities", None) or {}
    settings = (capabilities.get("extensions") or {}).get(EXTENSION_ID)
    mime_types = settings.get("mimeTypes") if isinstance(settings, dict) else None
    return mime_types is None or (isinstance(mime_types, list) and MIME_TYPE in mime_types)


def client_capabilities() -> dict[str, t.Any]:
    """The capabilities a host that renders views declares: ``client.connect(capabilities=client_capabilities())``."""
    return {"extensions": {EXTENSION_ID: {"mimeTypes": [MIME_TYPE]}}}


def server_uses_apps(tools: t.Iterable[t.Any], resources: t.Iterable[Resource]) -> bool:
    """Whether a server with these tools and resources offers Apps (a view, or a tool linked to one)."""
    if any(isinstance(resource, UIResource) for resource in resources):
        return True
    for tool in tools:
        meta = getattr(tool, "meta", None)
        if isinstance(meta, dict) and isinstance(meta.get("ui"), dict):
            return True
    return False


__all__ = [
    "CSP_KEYS",
    "EXTENSION_ID",
    "InvalidUIMetadataError",
    "MIME_TYPE",
    "PERMISSIONS",
    "UIResource",
    "VISIBILITIES",
    "client_capabilities",
    "client_supports_apps",
    "resource_ui_meta",
    "server_uses_apps",
    "tool_meta",
]
