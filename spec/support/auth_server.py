"""A loopback authorization server issuing JWT access tokens, for the server-side auth tests.

:class:`JWTAuthorizationServer` extends the OAuth fixture's authorization server
(metadata, dynamic registration, ``/authorize``, ``/token`` with PKCE) so that every
access token it issues is a JWT signed with a key ``cryptography`` generated for
this run (ES256 or RS256). It also serves ``/jwks`` and RFC 7662 ``/introspect``,
rotates keys, and mints tokens with any claims for the refusal tests.
"""

from __future__ import annotations

import base64
import json
import secrets
import time
import typing as t

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from werkzeug.wrappers import Request, Response

from .oauth_fixture import FixtureApp, Served, TokenRecord, _json, _merge

#: The credentials the resource server uses at ``/introspect``.
INTROSPECTION_CLIENT = ("mcp-resource-server", "introspection-secret-" + secrets.token_hex(4))


class SigningKey:
    """A private key made for this run, with its kid and public JWK."""

    def __init__(self, algorithm: str = "ES256") -> None:
        self.algorithm = algorithm
        self.kid = f"{algorithm.lower()}-{secrets.token_hex(4)}"
        if algorithm.startswith("ES"):
            self.private: t.Any = ec.generate_private_key(ec.SECP256R1())
            jwk_json = jwt.algorithms.ECAlgorithm.to_jwk(self.private.public_key())
        else:
            self.private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            jwk_json = jwt.algorithms.RSAAlgorithm.to_jwk(self.private.public_key())
        self.jwk: dict[str, t.Any] = {**json.loads(jwk_json), "kid": self.kid, "alg": algorithm, "use": "sig"}

    def sign(self, claims: dict[str, t.Any], headers: dict[str, t.Any] | None = None) -> str:
        return jwt.encode(claims, self.private, algorithm=self.algorithm, headers={"kid": self.kid, **(headers or {})})


class JWTAuthorizationServer(FixtureApp):
    """An authorization server whose access tokens are JWTs; serve it with :class:`Served`."""

    def __init__(self, algorithm: str = "ES256", subject: str = "alice") -> None:
        super().__init__(authorization_server=True)
        self.keys = [SigningKey(algorithm)]
        #: The ``sub`` of the tokens issued by the authorization-code grant.
        self.subject = subject
        #: Every access token issued: token -> claims (for introspection).
        self.issued: dict[str, dict[str, t.Any]] = {}
        #: Revoked tokens: introspection says inactive.
        self.revoked: set[str] = set()
        #: ``/jwks`` and ``/introspect`` answer 500 while set.
        self.failing = False
        self.clients[INTROSPECTION_CLIENT[0]] = {"client_id": INTROSPECTION_CLIENT[0], "client_secret": INTROSPECTION_CLIENT[1]}

    @property
    def signing_key(self) -> SigningKey:
        return self.keys[-1]

    @property
    def jwks_uri(self) -> str:
        return self.base_url + "/jwks"

    @property
    def introspection_endpoint(self) -> str:
        return self.base_url + "/introspect"

    def metadata(self) -> dict[str, t.Any]:
        document = super().metadata()
        document["jwks_uri"] = self.jwks_uri
        document["introspection_endpoint"] = self.introspection_endpoint
        return document

    def rotate_keys(self, keep_old: bool = False) -> SigningKey:
        """A new signing key; the old one stays in the JWKS only with ``keep_old``."""
        key = SigningKey(self.signing_key.algorithm)
        self.keys = [*self.keys, key] if keep_old else [key]
        return key

    # -- tokens ------------------------------------------------------------------

    def claims(self, **overrides: t.Any) -> dict[str, t.Any]:
        """A valid token's claims for ``resource`` (``aud``), with ``overrides`` (None removes a claim)."""
        now = int(time.time())
        claims: dict[str, t.Any] = {
            "iss": self.issuer,
            "sub": self.subject,
            "aud": overrides.pop("aud", None) or "",
            "client_id": "test-client",
            "scope": "mcp",
            "iat": now,
            "exp": now + self.expires_in,
            "jti": secrets.token_hex(8),
        }
        return _merge(claims, overrides)

    def mint(self, key: SigningKey | None = None, headers: dict[str, t.Any] | None = None, **claims: t.Any) -> str:
        """A signed token (by the current key unless ``key``) for ``claims`` (see :meth:`claims`)."""
        values = self.claims(**claims)
        token = (key or self.signing_key).sign(values, headers)
        self.issued[token] = values
        return token

    def access_token_for(self, record: TokenRecord) -> str:
        return self.mint(aud=record.resource, client_id=record.client_id, scope=record.scope)

    # -- endpoints ---------------------------------------------------------------

    def dispatch(self, request: Request, form: dict[str, str], body: t.Any) -> Response:
        if request.path == "/jwks" and request.method == "GET":
            if self.failing:
                return _json({"error": "server_error"}, 500)
            return _json({"keys": [key.jwk for key in self.keys]})
        if request.path == "/introspect" and request.method == "POST":
            return self.introspect(request, form)
        return super().dispatch(request, form, body)

    def introspect(self, request: Request, form: dict[str, str]) -> Response:
        if self.failing:
            return _json({"error": "server_error"}, 500)
        expected = "Basic " + base64.b64encode(":".join(INTROSPECTION_CLIENT).encode()).decode()
        if request.headers.get("Authorization") != expected:
            return _json({"error": "invalid_client"}, 401)
        token = form.get("token", "")
        claims = self.issued.get(token)
        if claims is None or token in self.revoked or claims.get("exp", 0) <= time.time():
            return _json({"active": False})
        return _json({"active": True, "token_type": "Bearer", **claims})

    def introspection_calls(self) -> int:
        return len(self.requests_to("/introspect", "POST"))

    def jwks_fetches(self) -> int:
        return len(self.requests_to("/jwks", "GET"))


def serve_authorization_server(algorithm: str = "ES256") -> tuple[JWTAuthorizationServer, Served]:
    """A :class:`JWTAuthorizationServer` on 127.0.0.1; close the :class:`Served` when done."""
    app = JWTAuthorizationServer(algorithm)
    return app, Served(app)
