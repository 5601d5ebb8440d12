"""One page of a ``*/list`` response, as returned by ``Client.list_tools`` and friends.

https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination
"""

from __future__ import annotations

import logging
import typing as t

import attrs

from .exceptions import ValidationError
from .tool import Tool

logger = logging.getLogger("mcp_sdk.client")


@attrs.frozen
class ListToolsResult:
    """A page of ``tools/list``: :attr:`tools` and the cursor of the next page (None on the last).

    :param tools: the page's tools.
    :param next_cursor: the ``nextCursor`` to ask for the next page with; None on the last page.
    :param meta: the result's ``_meta``, if any.
    """

    tools: list[Tool]
    next_cursor: str | None = None
    meta: dict[str, t.Any] | None = None


@attrs.frozen
class ListPromptsResult:
    """A page of ``prompts/list``: :attr:`prompts` (wire dicts) and :attr:`next_cursor`.

    :param prompts: the page's prompts, as wire dicts.
    :param next_cursor: the ``nextCursor`` to ask for the next page with; None on the last page.
    :param meta: the result's ``_meta``, if any.
    """

    prompts: list[dict[str, t.Any]]
    next_cursor: str | None = None
    meta: dict[str, t.Any] | None = None


@attrs.frozen
class ListResourcesResult:
    """A page of ``resources/list``: :attr:`resources` (wire dicts) and :attr:`next_cursor`.

    :param resources: the page's resources, as wire dicts.
    :param next_cursor: the ``nextCursor`` to ask for the next page with; None on the last page.
    :param meta: the result's ``_meta``, if any.
    """

    resources: list[dict[str, t.Any]]
    next_cursor: str | None = None
    meta: dict[str, t.Any] | None = None


@attrs.frozen
class ListResourceTemplatesResult:
    """A page of ``resources/templates/list``: :attr:`resource_templates` (wire dicts) and :attr:`next_cursor`.

    :param resource_templates: the page's resource templates, as wire dicts.
    :param next_cursor: the ``nextCursor`` to ask for the next page with; None on the last page.
    :param meta: the result's ``_meta``, if any.
    """

    resource_templates: list[dict[str, t.Any]]
    next_cursor: str | None = None
    meta: dict[str, t.Any] | None = None


def page_items(result: dict[str, t.Any], key: str) -> list[t.Any]:
    """The ``key`` array of a result.

    :raises ValidationError: it is not an array.
    """
    items = result.get(key, [])
    if not isinstance(items, list):
        raise ValidationError(f"Response validation failed: `{key}` is not an array")
    return items


def page_cursor(result: dict[str, t.Any]) -> str | None:
    """A result's ``nextCursor`` (None on the last page).

    :raises ValidationError: it is not a string.
    """
    cursor = result.get("nextCursor")
    if cursor is not None and not isinstance(cursor, str):
        raise ValidationError("Response validation failed: `nextCursor` is not a string")
    return cursor


def all_pages(max_pages: int, list_page: t.Callable[..., t.Any], attribute: str, cancellation: t.Any,
              timeout: float | None) -> list[t.Any]:
    """The ``attribute`` items of every page ``list_page(cursor, cancellation=, timeout=)`` returns;
    stops at the last page, at a cursor seen before, or after ``max_pages`` pages."""
    items: list[t.Any] = []
    seen: set[str] = set()
    cursor: str | None = None
    for _ in range(max_pages):
        page = list_page(cursor, cancellation=cancellation, timeout=timeout)
        items.extend(getattr(page, attribute))
        cursor = page.next_cursor
        if cursor is None or cursor in seen:
            return items
        seen.add(cursor)
    logger.warning("stopped listing %s after %d pages", attribute, max_pages)
    return items
