"""One page of a ``*/list`` response, as returned by ``Client.list_tools`` and friends.

https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination
"""

from __future__ import annotations

import typing as t

import attrs

from .tool import Tool


@attrs.frozen
class ListToolsResult:
    """A page of ``tools/list``: :attr:`tools` and the cursor of the next page (None on the last)."""

    tools: list[Tool]
    next_cursor: str | None = None
    meta: dict[str, t.Any] | None = None


@attrs.frozen
class ListPromptsResult:
    """A page of ``prompts/list``: :attr:`prompts` (wire dicts) and :attr:`next_cursor`."""

    prompts: list[dict[str, t.Any]]
    next_cursor: str | None = None
    meta: dict[str, t.Any] | None = None


@attrs.frozen
class ListResourcesResult:
    """A page of ``resources/list``: :attr:`resources` (wire dicts) and :attr:`next_cursor`."""

    resources: list[dict[str, t.Any]]
    next_cursor: str | None = None
    meta: dict[str, t.Any] | None = None


@attrs.frozen
class ListResourceTemplatesResult:
    """A page of ``resources/templates/list``: :attr:`resource_templates` (wire dicts) and :attr:`next_cursor`."""

    resource_templates: list[dict[str, t.Any]]
    next_cursor: str | None = None
    meta: dict[str, t.Any] | None = None
