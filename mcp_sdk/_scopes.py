"""``required_scopes`` of tools, prompts and resources, normalized."""

from __future__ import annotations

import typing as t


def scope_tuple(scopes: t.Iterable[str] | str | None) -> tuple[str, ...]:
    """``required_scopes`` as a tuple of strings (one string is one scope).

    :raises TypeError: for a scope that is not a non-empty string without spaces.
    """
    if scopes is None:
        return ()
    values = (scopes,) if isinstance(scopes, str) else tuple(scopes)
    for scope in values:
        if type(scope) is not str or not scope or any(character.isspace() for character in scope):
            raise TypeError(f"a required scope must be a non-empty string without spaces, not {scope!r}")
    return values
