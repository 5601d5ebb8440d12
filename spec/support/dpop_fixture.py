"""A DPoP-enforcing authorization server and resource server (RFC 9449) for the client tests.

Proofs are checked here with PyJWT directly, independently of the SDK's DPoP
code, so a bug shared by the signer and a verifier cannot hide.
"""

from __future__ import annotations

import base64
import hashlib
import json
import time
import typing as t

import jwt
from werkzeug.wrappers import Request, Response

from .auth_server import JWTAuthorizationServer
from .oauth_fixture import FixtureServer, TokenRecord, _json

AS_NONCE = "as-nonce-1"
RS_NONCE = "rs-nonce-1"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def thumbprint(jwk: dict[str, t.Any]) -> str:
    members = ("crv", "kty", "x", "y") if jwk["kty"] == "EC" else ("e", "kty", "n")
    canonical = json.dumps({m: jwk[m] for m in members}, separators=(",", ":"), sort_keys=True)
    return b64url(hashlib.sha256(canonical.encode()).digest())


def check_proof(proof: str | None, method: str, url: str) -> tuple[dict[str, t.Any], dict[str, t.Any]]:
    """``(header, claims)`` of a valid proof; raises ``ValueError`` naming what is wrong."""
    if not proof:
        raise ValueError("no DPoP proof")
    header = jwt.get_unverified_header(proof)
    if header.get("typ") != "dpop+jwt":
        raise ValueError("typ")
    jwk = header.get("jwk")
    if not isinstance(jwk, dict) or "d" in jwk:
        raise ValueError("jwk")
    algorithm = header["alg"]
    key = jwt.PyJWK(jwk, algorithm).key
    claims = jwt.decode(proof, key, algorithms=[algorithm], options={"verify_aud": False})
    if claims.get("htm") != method or claims.get("htu") != url:
        raise ValueError(f"htm/htu {claims.get('htm')} {claims.get('htu')}")
    if not isinstance(claims.get("jti"), str) or abs(time.time() - claims["iat"]) > 60:
        raise ValueError("jti/iat")
    return header, claims


class DPoPBinding:
    """Mixed into an authorization server: checks a token request's DPoP proof and binds the token to its key."""

    base_url: str

    def _init_binding(self) -> None:
        #: Demand a nonce at the token endpoint.
        self.as_nonce = False
        #: Every proof received: (path, claims).
        self.proofs: list[tuple[str, dict[str, t.Any]]] = []
        #: access token -> the key thumbprint it is bound to.
        self.bound: dict[str, str] = {}
        self._binding: str | None = None

    def token(self, request: Request, form: dict[str, str]) -> Response:
        proof = request.headers.get("DPoP")
        self._binding = None
        if proof is not None:
            try:
                header, claims = check_proof(proof, "POST", self.base_url + "/token")
            except (ValueError, KeyError, jwt.PyJWTError) as error:
                return _json({"error": "invalid_dpop_proof", "error_description": str(error)}, 400)
            self.proofs.append(("/token", claims))
            if self.as_nonce and claims.get("nonce") != AS_NONCE:
                return _json({"error": "use_dpop_nonce"}, 400, {"DPoP-Nonce": AS_NONCE})
            self._binding = thumbprint(header["jwk"])
        return super().token(request, form)

    def _issue(self, record: TokenRecord, refresh: bool) -> Response:
        response: Response = super()._issue(record, refresh)
        if self._binding is None:
            return response
        body = json.loads(response.get_data())
        body["token_type"] = "DPoP"
        self.bound[body["access_token"]] = self._binding
        return _json(body)


class DPoPFixture(DPoPBinding, FixtureServer):
    """An authorization server + resource server in one app, issuing and demanding DPoP-bound tokens."""

    def __init__(self, **kwargs: t.Any) -> None:
        super().__init__(authorization_server=True, resource_server=True, **kwargs)
        self.authorization_server_url = None
        self.metadata_overrides["dpop_signing_alg_values_supported"] = ["ES256", "RS256"]
        self._init_binding()
        #: Demand a nonce at the resource.
        self.rs_nonce = False
        #: The nonce the resource accepts (it always hands out ``RS_NONCE``).
        self.accepted_rs_nonce = RS_NONCE

    def mcp(self, request: Request) -> Response:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        if scheme != "DPoP" or token not in self.bound:
            return super().mcp(request)
        challenge = f'DPoP resource_metadata="{self._resource_metadata_url()}"'
        try:
            header, claims = check_proof(request.headers.get("DPoP"), "POST", self.mcp_url)
        except (ValueError, KeyError, jwt.PyJWTError) as error:
            return _json({"error": "invalid_dpop_proof", "detail": str(error)}, 401, {"WWW-Authenticate": challenge})
        self.proofs.append((request.path, claims))
        expected_ath = b64url(hashlib.sha256(token.encode()).digest())
        if claims.get("ath") != expected_ath or thumbprint(header["jwk"]) != self.bound[token]:
            return _json({"error": "invalid_token"}, 401, {"WWW-Authenticate": challenge})
        if self.rs_nonce and claims.get("nonce") != self.accepted_rs_nonce:
            headers = {"WWW-Authenticate": 'DPoP error="use_dpop_nonce"', "DPoP-Nonce": RS_NONCE}
            return _json({"error": "use_dpop_nonce"}, 401, headers)
        record = self.registry.access_tokens[token]
        return _json({"jsonrpc": "2.0", "id": 1, "result": {"ok": True, "scope": record.scope}})


class DPoPJWTAuthorizationServer(DPoPBinding, JWTAuthorizationServer):
    """The JWT authorization server, binding a token to the key of the DPoP proof its request carried (``cnf.jkt``)."""

    def __init__(self) -> None:
        super().__init__("ES256")
        self._init_binding()
        self.metadata_overrides["dpop_signing_alg_values_supported"] = ["ES256"]

    def mint(self, key: t.Any = None, headers: dict[str, t.Any] | None = None, **claims: t.Any) -> str:
        if self._binding is not None:
            claims.setdefault("cnf", {"jkt": self._binding})
        return super().mint(key, headers, **claims)
