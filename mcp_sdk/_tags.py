"""``tags`` of tools, prompts, resources and resource templates, normalized.

Tags are the server's own labels for filtering what it lists (``Server(include_tags=...,
exclude_tags=...)``, as FastMCP's); they are never sent on the wire.
"""

from __future__ import annotations

import typing as t


def tag_set(tags: t.Iterable[str] | str | None) -> frozenset[str]:
    """``tags`` as a frozenset of strings (one string is one tag).

    :raises TypeError: for a tag that is not a non-empty string.
    """
    if tags is None:
        return frozenset()
    values = (tags,) if isinstance(tags, str) else tuple(tags)
    for tag in values:
        if type(tag) is not str or not tag:
            raise TypeError(f"a tag must be a non-empty string, not {tag!r}")
    return frozenset(values)


__all__ = ["tag_set"]
