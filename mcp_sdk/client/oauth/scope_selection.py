"""Which scopes to request (MCP scope selection strategy, SEP-2207)."""

from __future__ import annotations

import typing as t

OFFLINE_ACCESS = "offline_access"


def split(scope: str | None) -> list[str]:
    """``scope`` as a list, without duplicates, in order."""
    result: list[str] = []
    for item in (scope or "").split():
        if item not in result:
            result.append(item)
    return result


def join(scopes: t.Iterable[str]) -> str | None:
    """Space-joined scopes, or ``None`` when there are none."""
    joined = " ".join(split(" ".join(scopes)))
    return joined or None


def union(*scopes: str | None) -> str | None:
    """Every scope of every argument, first occurrence first."""
    return join(item for scope in scopes for item in split(scope))


def select(challenge_scope: str | None, prm_scopes: t.Sequence[str], provider_scope: str | None) -> str | None:
    """The challenge's ``scope``, else the PRM ``scopes_supported``, else the provider's, else none."""
    for candidate in (challenge_scope, join(prm_scopes), provider_scope):
        if split(candidate):
            return join(split(candidate))
    return None


def apply_offline_access(scope: str | None, as_scopes_supported: t.Sequence[str], wants_refresh_token: bool) -> str | None:
    """Request ``offline_access`` exactly when the client wants it and the server offers it.

    SEP-2207: a client that wants refresh tokens (``refresh_token`` among its
    ``grant_types``) asks for ``offline_access`` when the authorization server
    lists it in ``scopes_supported``. Otherwise the scope is removed whatever
    its source (challenge, PRM or provider), so a server never receives a
    scope it did not advertise or a refresh grant the client cannot use.
    """
    scopes = [item for item in split(scope) if item != OFFLINE_ACCESS]
    if wants_refresh_token and OFFLINE_ACCESS in as_scopes_supported:
        scopes.append(OFFLINE_ACCESS)
    return join(scopes)


def covers(granted: str | None, required: str | None) -> bool:
    """Whether every scope in ``required`` is in ``granted``."""
    return set(split(required)) <= set(split(granted))
