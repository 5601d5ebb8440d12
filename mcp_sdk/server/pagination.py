"""Cursor pagination of list results (``tools/list`` and friends).

https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination
The cursor is an opaque string carrying a zero-based offset.
"""

from __future__ import annotations

import typing as t

from ..errors import InvalidParamsError

T = t.TypeVar("T")


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
