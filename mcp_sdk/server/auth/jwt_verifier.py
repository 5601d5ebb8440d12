"""Verifying JWT access tokens against the issuer's JWKS (RFC 9068 profile, RFC 7517 keys).

Signatures are checked by PyJWT with ``cryptography`` (the ``mcp_sdk[auth]`` extra),
imported when the first :class:`JWTVerifier` is made.
"""

from __future__ import annotations

import logging
import threading
import time
import typing as t

from ..._pyjwt import import_jwt
from ._fetch import fetch_json
from .principal import DEFAULT_LEEWAY, AccessToken, audience_claim
from .refusals import AuthorizationServerUnavailable

logger = logging.getLogger("mcp_sdk.server.auth")

#: Asymmetric algorithms only: a public key can never verify an HMAC (``HS256``) token, and ``none`` is never accepted.
ALLOWED_ALGORITHMS = frozenset({"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"})
_KEY_TYPES = {"RS": "RSA", "PS": "RSA", "ES": "EC", "Ed": "OKP"}
#: The most keys kept from one JWKS.
MAX_KEYS = 64


class _Fetch:
    """One JWKS fetch in flight, which other threads wait for."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.error: AuthorizationServerUnavailable | None = None


class JWTVerifier:
    """Verifies signed JWT access tokens; call it with the token: ``verifier(token) -> AccessToken | None``.

    :param jwks_uri: where the issuer publishes its keys (fetched on first use, then cached).
    :param issuer: the exact ``iss`` required.
    :param audience: the ``aud`` required (one or several, any matching); None leaves
        the check to :class:`~mcp_sdk.server.auth.BearerAuth` (against its ``resource``).
    :param algorithms: the signature algorithms accepted (asymmetric only).
    :param leeway: seconds of clock skew allowed on ``exp``, ``nbf`` and ``iat`` (30);
        :class:`~mcp_sdk.server.auth.BearerAuth` re-checks ``exp`` and ``nbf`` with the same leeway.
    :param cache_ttl: seconds a fetched JWKS is used before it is fetched again.
    :param refetch_interval: the least seconds between two fetches caused by an unknown ``kid``
        (key rotation), so forged ``kid`` values cannot make us hammer the issuer.
    :param timeout: seconds allowed for fetching the JWKS.
    :raises ValueError: for an algorithm outside :data:`ALLOWED_ALGORITHMS`.
    :raises ~mcp_sdk.MissingExtraError: without PyJWT and cryptography installed.
    """

    def __init__(
        self,
        *,
        jwks_uri: str,
        issuer: str,
        audience: str | t.Sequence[str] | None = None,
        algorithms: t.Sequence[str] = ("RS256", "ES256"),
        leeway: float = DEFAULT_LEEWAY,
        cache_ttl: float = 300,
        refetch_interval: float = 30,
        timeout: float = 5,
    ) -> None:
        bad = [name for name in algorithms if name not in ALLOWED_ALGORITHMS]
        if bad or not algorithms:
            raise ValueError(f"algorithms must be asymmetric JWS algorithms of {sorted(ALLOWED_ALGORITHMS)}, not {bad or 'none'}")
        self._jwt = import_jwt()
        self.jwks_uri = jwks_uri
        self.issuer = issuer
        self.audience = [audience] if isinstance(audience, str) else (list(audience) if audience is not None else None)
        self.algorithms = tuple(algorithms)
        self.leeway = leeway
        self.cache_ttl = cache_ttl
        self.refetch_interval = refetch_interval
        self.timeout = timeout
        self._lock = threading.Lock()  # guards the four fields below
        self._keys: dict[str | None, t.Any] = {}
        self._fetched_at: float | None = None
        self._fetch: _Fetch | None = None  # the JWKS fetch in flight, if any

    def __call__(self, token: str) -> AccessToken | None:
        """The verified token, or None when it is invalid (bad signature, expired, wrong issuer...).

        :raises AuthorizationServerUnavailable: when the JWKS cannot be fetched.
        """
        jwt = self._jwt
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError:
            return None
        algorithm = header.get("alg")
        kid = header.get("kid")
        if algorithm not in self.algorithms or (kid is not None and type(kid) is not str):
            return None
        key = self._key(kid, algorithm)
        if key is None:
            return None
        options: dict[str, t.Any] = {"require": ["exp", "iss", "aud"], "verify_aud": self.audience is not None}
        try:
            claims = jwt.decode(
                token,
                key,
                algorithms=[algorithm],
                issuer=self.issuer,
                audience=self.audience,
                leeway=self.leeway,
                options=options,
            )
        except jwt.PyJWTError as error:
            logger.debug("JWT access token refused: %s", type(error).__name__)
            return None
        return token_from_claims(claims)

    verify = __call__

    # -- keys ------------------------------------------------------------------

    def _key(self, kid: str | None, algorithm: str) -> t.Any:
        """The public key for ``kid`` fit for ``algorithm``; refetches the JWKS once for an unknown kid."""
        now = time.monotonic()
        with self._lock:
            fresh = self._fetched_at is not None and now - self._fetched_at < self.cache_ttl
            may_refetch = self._fetched_at is None or now - self._fetched_at >= self.refetch_interval
        entry = self._lookup(kid) if fresh else None
        if entry is None and (not fresh or may_refetch):
            self._refresh()
            entry = self._lookup(kid)
        if entry is None:
            return None
        key_type, key_algorithm, key = entry
        if key_type != _KEY_TYPES.get(algorithm[:2]) or (key_algorithm is not None and key_algorithm != algorithm):
            return None
        return key

    def _lookup(self, kid: str | None) -> t.Any:
        with self._lock:
            entry = self._keys.get(kid)
            if entry is None and kid is None and len(self._keys) == 1:  # no kid: only a single-key issuer can be meant
                entry = next(iter(self._keys.values()))
        return entry

    def _refresh(self) -> None:
        """Fetch the JWKS; concurrent callers wait for the one fetch in flight (no lock held across it)."""
        with self._lock:
            if self._fetched_at is not None and time.monotonic() - self._fetched_at < min(self.refetch_interval, 1.0):
                return  # another thread has just fetched
            fetch = self._fetch
            leader = fetch is None
            if fetch is None:
                fetch = self._fetch = _Fetch()
        if not leader:
            if not fetch.done.wait(self.timeout + 1):
                raise AuthorizationServerUnavailable(f"{self.jwks_uri} did not answer in time")
            if fetch.error is not None:
                raise fetch.error
            return
        try:
            keys = self._parse(fetch_json("GET", self.jwks_uri, self.timeout))
            with self._lock:
                self._keys = keys
                self._fetched_at = time.monotonic()
        except AuthorizationServerUnavailable as error:
            fetch.error = error
            raise
        finally:
            with self._lock:
                self._fetch = None
            fetch.done.set()

    def _parse(self, document: dict[str, t.Any]) -> dict[str | None, t.Any]:
        jwt = self._jwt
        entries = document.get("keys")
        if not isinstance(entries, list):
            raise AuthorizationServerUnavailable(f"{self.jwks_uri} is not a JWK Set")
        keys: dict[str | None, t.Any] = {}
        for entry in entries[:MAX_KEYS]:
            if not isinstance(entry, dict) or entry.get("use", "sig") != "sig":
                continue
            try:
                key = jwt.PyJWK(entry).key
            except (jwt.PyJWTError, ValueError, TypeError, KeyError):
                continue  # a key we cannot use (an unknown type, a private key...): skip it
            if entry.get("d") is not None:
                continue
            kid = entry.get("kid")
            keys[kid if type(kid) is str else None] = (entry.get("kty"), entry.get("alg"), key)
        return keys

    def __repr__(self) -> str:
        return f"<JWTVerifier issuer={self.issuer!r} jwks_uri={self.jwks_uri!r}>"


def token_from_claims(claims: t.Mapping[str, t.Any]) -> AccessToken:
    """An :class:`AccessToken` from JWT or introspection claims (RFC 9068 / RFC 7662 names)."""
    scopes: t.Any = claims.get("scope")
    if scopes is None:
        scopes = claims.get("scp")
    if not isinstance(scopes, (str, list, tuple)):
        scopes = None
    subject = claims.get("sub")
    client_id = claims.get("client_id", claims.get("azp"))
    issuer = claims.get("iss")
    expires_at: t.Any = claims.get("exp")
    return AccessToken(
        subject=subject if type(subject) is str else None,
        client_id=client_id if type(client_id) is str else None,
        scopes=scopes,
        expires_at=float(expires_at) if type(expires_at) in (int, float) else None,
        audience=audience_claim(claims.get("aud")),
        issuer=issuer if type(issuer) is str else None,
        claims=dict(claims),
    )


__all__ = ["ALLOWED_ALGORITHMS", "JWTVerifier", "token_from_claims"]
