"""Server capabilities, derived from what is registered."""

from __future__ import annotations

import typing as t

from .. import mcp_apps
from .. import protocol_version as versions
from .tasks import TASKS_EXTENSION

if t.TYPE_CHECKING:
    from .registry import Registry


def derive(server: Registry) -> dict[str, t.Any]:
    """The ``capabilities`` of ``initialize``: tools, prompts, resources, completions, logging and
    the extensions in use (MCP Apps; tasks, when a tool supports them) as registered."""
    capabilities: dict[str, t.Any] = {}
    # What is registered, shown or not: a tool disabled now may be enabled later (list_changed).
    if server.has_registered("tools"):
        capabilities["tools"] = {"listChanged": True}
    if server.has_registered("prompts"):
        capabilities["prompts"] = {"listChanged": True}
    mounted = server.mounted_handlers  # a mounted server's handlers answer for its items (:mod:`.composition`)
    reads = server.handlers.get("resources_read") or "resources_read" in mounted
    if server.has_registered("resources") or server.has_registered("resourceTemplates") or reads:
        resources: dict[str, t.Any] = {"listChanged": True}
        if server.handlers.get("resources_subscribe") or "resources_subscribe" in mounted:
            resources["subscribe"] = True
        capabilities["resources"] = resources
    if server.handlers.get("completion") or "completion" in mounted:
        capabilities["completions"] = {}
    capabilities["logging"] = {}
    if mcp_apps.server_uses_apps(server.tools.values(), server.resources):
        # SEP-1724 extensions; MCP Apps (SEP-1865) declares it in every protocol version.
        capabilities.setdefault("extensions", {})[mcp_apps.EXTENSION_ID] = {}
    if any(tool.task is not None for tool in server.tools.values()):
        capabilities.setdefault("extensions", {})[TASKS_EXTENSION] = {}
    return capabilities


def for_version(capabilities: dict[str, t.Any], version: str, derived: bool) -> dict[str, t.Any]:
    """``capabilities`` without what ``version`` does not define (``derived``: not given by the user,
    whose own capabilities keep the tasks extension in every version)."""
    if not versions.supports(version, "completions") and "completions" in capabilities:
        capabilities = {k: v for k, v in capabilities.items() if k != "completions"}
    extensions = capabilities.get("extensions") or {}
    if not versions.supports(version, "tasks") and derived and TASKS_EXTENSION in extensions:
        # Tasks are 2026-07-28 only; other extensions (MCP Apps) are declared in every version.
        rest = {key: value for key, value in extensions.items() if key != TASKS_EXTENSION}
        capabilities = {k: v for k, v in capabilities.items() if k != "extensions"}
        if rest:
            capabilities["extensions"] = rest
    return capabilities
