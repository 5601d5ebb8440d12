"""Who is calling: the :class:`Principal` a request is authenticated as."""

from __future__ import annotations

import typing as t

import attrs


def _scopes(value: t.Iterable[str] | str | None) -> frozenset[str]:
    if value is None:
        return frozenset()
    if isinstance(value, str):
        return frozenset(value.split())
    return frozenset(str(scope) for scope in value)


#: Seconds of clock skew allowed by default on a token's ``exp`` and ``nbf``.
DEFAULT_LEEWAY = 30.0


def audience_claim(value: t.Any) -> tuple[str, ...] | None:
    """The audiences an ``aud`` claim names, or None when it is not a string or a non-empty
    list of strings (RFC 7519 section 4.1.3): ``[]``, ``{}``, ``[1]`` name nobody and are refused."""
    if type(value) is str:
        return (value,)
    if type(value) is list and value and all(type(item) is str for item in value):
        return tuple(value)
    return None


def _audience(value: t.Iterable[str] | str | None) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(str(item) for item in value)


@attrs.frozen(repr=False)
class Principal:
    """An authenticated caller, as handlers see it in ``server_context.auth``; never the raw token.

    :param subject: the user (``sub``), or the client itself for a client-credentials token.
    :param client_id: the OAuth client the token was issued to, if known.
    :param scopes: the granted scopes (an iterable, or one space-separated string).
    :param expires_at: when the token expires (seconds since the epoch), if known.
    :param audience: the audiences (``aud``) the token was issued for; empty when unknown.
    :param issuer: who issued the token (``iss``), if known.
    :param claims: every claim of the token or introspection answer.
    """

    subject: str | None = None
    client_id: str | None = None
    scopes: frozenset[str] = attrs.field(default=frozenset(), converter=_scopes)
    expires_at: float | None = None
    audience: tuple[str, ...] = attrs.field(default=(), converter=_audience)
    issuer: str | None = None
    claims: t.Mapping[str, t.Any] = attrs.field(factory=dict, eq=False)

    @property
    def key(self) -> tuple[str | None, str | None, str | None]:
        """What a session is bound to: the same issuer, subject and client (see :meth:`same_as`)."""
        return (self.issuer, self.subject, self.client_id)

    def same_as(self, other: Principal | None) -> bool:
        """Whether ``other`` is the same caller (issuer, subject, client), whatever its token's scopes.

        :param other: another principal, or None.
        """
        return other is not None and self.key == other.key

    def valid_at(self, now: float, leeway: float = DEFAULT_LEEWAY) -> bool:
        """Whether the token is in force at ``now``: not expired (``exp``) nor not yet valid
        (a numeric ``nbf`` claim), give or take ``leeway`` seconds of clock skew.

        :param now: the time, in seconds since the epoch.
        :param leeway: seconds of clock skew tolerated.
        """
        if self.expires_at is not None and self.expires_at <= now - leeway:
            return False
        not_before: t.Any = self.claims.get("nbf")
        return not (type(not_before) in (int, float) and not_before > now + leeway)

    def has_scopes(self, required: t.Iterable[str]) -> bool:
        """Whether every scope in ``required`` was granted.

        :param required: the scopes to check.
        """
        return self.scopes.issuperset(required)

    def missing_scopes(self, required: t.Iterable[str]) -> list[str]:
        """The scopes of ``required`` not granted, in their order.

        :param required: the scopes to check.
        """
        return [scope for scope in required if scope not in self.scopes]

    def __repr__(self) -> str:  # no claims: they may be personal data
        return f"<Principal subject={self.subject!r} client_id={self.client_id!r} scopes={sorted(self.scopes)!r}>"


#: What a verifier returns for a good token: a :class:`Principal`.
AccessToken = Principal


__all__ = ["AccessToken", "DEFAULT_LEEWAY", "Principal", "audience_claim"]
