"""Cursor pagination of list results (``tools/list`` and friends).

https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination
The cursor is an opaque string carrying a zero-based offset.
"""

from __future__ import annotations

import typing as t

from ..errors import InvalidParamsError

T = t.TypeVar("T")


def check_list_options(page_size: int | None, ttl_ms: int | None, cache_scope: str | None) -> None:
    """Check the server's options that shape list results (see :class:`mcp_sdk.Server`).

    :param page_size: items per page (None: one page).
    :param ttl_ms: the ``ttlMs`` cache hint (None: the default).
    :param cache_scope: ``"public"``, ``"private"`` or None.
    :raises ValueError: a value out of range.
    """
    if page_size is not None and (isinstance(page_size, bool) or not isinstance(page_size, int) or page_size < 1):
        raise ValueError(f"page_size must be a positive integer or None, not {page_size!r}")
    if ttl_ms is not None and (isinstance(ttl_ms, bool) or not isinstance(ttl_ms, int) or ttl_ms < 0):
        raise ValueError(f"ttl_ms must be a non-negative integer (milliseconds) or None, not {ttl_ms!r}")
    if cache_scope not in (None, "public", "private"):
        raise ValueError(f"cache_scope must be 'public', 'private' or None, not {cache_scope!r}")


def paginate(items: t.Sequence[T], params: t.Any, page_size: int | None) -> tuple[t.Sequence[T], str | None]:
    """The page of ``items`` the request's ``cursor`` asks for, and the next cursor (None on the last page).

    :raises InvalidParamsError: for a cursor that is not one this server issued.
    """
    cursor = params.get("cursor") if type(params) is dict else None
    if cursor is None:
        offset = 0
    else:
        # Bounded length: int() refuses over 4300 digits, and no list holds 10**18 items.
        if type(cursor) is not str or not cursor.isdigit() or not cursor.isascii() or len(cursor) > 18:
            raise InvalidParamsError(f"Invalid cursor: {cursor[:50]!r}" if type(cursor) is str else f"Invalid cursor: {cursor!r}")
        offset = int(cursor)
        if offset >= len(items) and offset != 0:
            raise InvalidParamsError(f"Invalid cursor: {cursor!r}")
    if page_size is None:
        return (items if offset == 0 else items[offset:]), None
    end = offset + page_size
    return items[offset:end], (str(end) if end < len(items) else None)
