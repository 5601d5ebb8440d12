"""Verifying opaque access tokens with the authorization server's introspection endpoint (RFC 7662)."""

from __future__ import annotations

import collections
import hashlib
import threading
import time
import typing as t

from ._fetch import fetch_json
from .jwt_verifier import token_from_claims
from .principal import DEFAULT_LEEWAY, AccessToken

#: Introspection answers kept at most.
DEFAULT_CACHE_SIZE = 1024


class IntrospectionVerifier:
    """Asks the authorization server about each token (cached); ``verifier(token) -> AccessToken | None``.

    :param endpoint: the introspection endpoint.
    :param client_id: this resource server's client id at the authorization server.
    :param client_secret: its secret (HTTP Basic); never logged nor shown in ``repr``.
    :param issuer: if given, the ``iss`` an answer must carry (when it carries one).
    :param leeway: seconds of clock skew allowed on the answer's ``exp`` and ``nbf`` (30).
    :param cache_ttl: the most seconds an active answer is reused (never past the token's ``exp`` plus ``leeway``).
    :param negative_ttl: seconds an "inactive" answer is reused, so a client retrying a dead
        token in a loop does not make the server ask each time.
    :param cache_size: the most answers kept (least recently used ones go first).
    :param timeout: seconds allowed for one introspection call.
    """

    def __init__(
        self,
        *,
        endpoint: str,
        client_id: str | None = None,
        client_secret: str | None = None,
        issuer: str | None = None,
        leeway: float = DEFAULT_LEEWAY,
        cache_ttl: float = 60,
        negative_ttl: float = 5,
        cache_size: int = DEFAULT_CACHE_SIZE,
        timeout: float = 5,
    ) -> None:
        self.endpoint = endpoint
        self.client_id = client_id
        self._client_secret = client_secret
        self.issuer = issuer
        self.leeway = leeway
        self.cache_ttl = cache_ttl
        self.negative_ttl = negative_ttl
        self.cache_size = cache_size
        self.timeout = timeout
        self._lock = threading.Lock()
        # sha256(token) -> (answer, monotonic deadline): the raw token is never kept.
        self._cache: collections.OrderedDict[bytes, tuple[AccessToken | None, float]] = collections.OrderedDict()

    def __call__(self, token: str) -> AccessToken | None:
        """The active token, or None when the server says it is inactive (or its answer does not fit).

        :raises ~mcp_sdk.server.auth.AuthorizationServerUnavailable: when the endpoint fails.
        """
        digest = hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()
        now = time.monotonic()
        with self._lock:
            cached = self._cache.get(digest)
            if cached is not None and cached[1] > now:
                self._cache.move_to_end(digest)
                return cached[0]
        auth = (self.client_id, self._client_secret) if self.client_id is not None and self._client_secret is not None else None
        form = {"token": token, "token_type_hint": "access_token"}
        if self.client_id is not None and auth is None:
            form["client_id"] = self.client_id
        answer = fetch_json("POST", self.endpoint, self.timeout, data=form, auth=auth)
        access, lifetime = self._judge(answer)
        with self._lock:
            self._cache[digest] = (access, time.monotonic() + lifetime)
            self._cache.move_to_end(digest)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return access

    def _judge(self, answer: dict[str, t.Any]) -> tuple[AccessToken | None, float]:
        """The token an introspection answer describes (None: not usable), and how long to believe it."""
        if answer.get("active") is not True:
            return None, self.negative_ttl
        access = token_from_claims(answer)
        wall = time.time()
        if (self.issuer is not None and access.issuer is not None and access.issuer != self.issuer) or not access.valid_at(wall, self.leeway):
            return None, self.negative_ttl
        if access.expires_at is None:
            return access, self.cache_ttl
        return access, min(self.cache_ttl, access.expires_at + self.leeway - wall)

    verify = __call__

    def __repr__(self) -> str:
        return f"<IntrospectionVerifier endpoint={self.endpoint!r} client_id={self.client_id!r}>"


__all__ = ["IntrospectionVerifier"]
