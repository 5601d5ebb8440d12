"""Every refusal of a bearer-protected endpoint, with its exact status and WWW-Authenticate header."""

from __future__ import annotations

import base64
import json
import socket
import threading
import time
import typing as t

import jwt
import pytest
import requests
from cryptography.hazmat.primitives import serialization

from mcp_sdk.server.auth import BearerAuth, JWTVerifier
from spec.support.auth_server import JWTAuthorizationServer, SigningKey
from spec.support.http_client import initialize_message

OK_STATUS = 200


def challenge(protected: t.Any, **params: str) -> str:
    parts = [f'{name}="{value}"' for name, value in params.items()]
    parts.append(f'resource_metadata="{protected.url.rsplit("/mcp", 1)[0]}/.well-known/oauth-protected-resource/mcp"')
    return "Bearer " + ", ".join(parts)


def post_initialize(url: str, authorization: str | None) -> requests.Response:
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    if authorization is not None:
        headers["Authorization"] = authorization
    with requests.post(url, json=initialize_message(), headers=headers, timeout=30) as response:
        return response


INVALID = {"error": "invalid_token", "error_description": "the access token is invalid or expired", "scope": "mcp"}


def test_a_good_token_gets_in(issuer, protect):
    protected = protect()
    response = post_initialize(protected.url, "Bearer " + issuer.mint(aud=protected.url))
    assert response.status_code == OK_STATUS
    assert response.headers["Mcp-Session-Id"]


def test_no_token_is_401_pointing_at_the_metadata(protect):
    protected = protect()
    response = post_initialize(protected.url, None)
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == challenge(protected, scope="mcp")
    assert response.json() == {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Unauthorized"}}


def test_another_scheme_is_as_no_token(protect):
    protected = protect()
    response = post_initialize(protected.url, "Basic " + base64.b64encode(b"a:b").decode())
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == challenge(protected, scope="mcp")


def test_a_malformed_header_is_400_invalid_request(protect):
    protected = protect()
    response = post_initialize(protected.url, "Bearer two words")
    assert response.status_code == 400
    assert response.headers["WWW-Authenticate"] == challenge(
        protected, error="invalid_request", error_description="malformed Authorization header", scope="mcp"
    )


@pytest.mark.parametrize(
    "case",
    ["garbage", "expired", "not_yet_valid", "wrong_issuer", "other_audience", "no_audience", "no_expiry", "alg_none", "hs256_with_public_key", "unknown_kid", "foreign_key", "tampered"],
)
def test_bad_tokens_are_401_invalid_token(issuer, protect, case):
    protected = protect()
    now = int(time.time())
    if case == "garbage":
        token = "not-a-jwt"
    elif case == "expired":
        token = issuer.mint(aud=protected.url, exp=now - 120)  # past the 30 s leeway
    elif case == "not_yet_valid":
        token = issuer.mint(aud=protected.url, nbf=now + 600)
    elif case == "wrong_issuer":
        token = issuer.mint(aud=protected.url, iss="https://evil.example.com")
    elif case == "other_audience":
        token = issuer.mint(aud="https://other.example.com/mcp")  # RFC 8707: minted for another resource
    elif case == "no_audience":
        token = _without(issuer, "aud", protected.url)
    elif case == "no_expiry":
        token = _without(issuer, "exp", protected.url)
    elif case == "alg_none":
        token = jwt.encode(issuer.claims(aud=protected.url), None, algorithm="none", headers={"kid": issuer.signing_key.kid})
    elif case == "hs256_with_public_key":
        public_pem = issuer.signing_key.private.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        token = _hs256(issuer.claims(aud=protected.url), public_pem, issuer.signing_key.kid)
    elif case == "unknown_kid":
        token = SigningKey("ES256").sign(issuer.claims(aud=protected.url))
    elif case == "foreign_key":  # a key of its own under the issuer's kid
        stranger = SigningKey("ES256")
        stranger.kid = issuer.signing_key.kid
        token = stranger.sign(issuer.claims(aud=protected.url))
    else:
        header, claims, signature = issuer.mint(aud=protected.url).split(".")
        forged = json.loads(base64.urlsafe_b64decode(claims + "=" * (-len(claims) % 4)))
        forged["scope"] = "mcp admin"
        encoded = base64.urlsafe_b64encode(json.dumps(forged).encode()).rstrip(b"=").decode()
        token = f"{header}.{encoded}.{signature}"
    response = post_initialize(protected.url, "Bearer " + token)
    assert response.status_code == 401
    if case == "other_audience":
        expected = challenge(protected, error="invalid_token", error_description="the access token is for another resource", scope="mcp")
    else:
        expected = challenge(protected, **INVALID)
    assert response.headers["WWW-Authenticate"] == expected
    assert token not in response.text


def _without(issuer: JWTAuthorizationServer, claim: str, audience: str) -> str:
    claims = issuer.claims(aud=audience)
    del claims[claim]
    return issuer.signing_key.sign(claims)


def _hs256(claims: dict[str, t.Any], secret: bytes, kid: str) -> str:
    import hashlib
    import hmac

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    signing_input = b64(json.dumps({"alg": "HS256", "typ": "JWT", "kid": kid}).encode()) + "." + b64(json.dumps(claims).encode())
    return signing_input + "." + b64(hmac.new(secret, signing_input.encode(), hashlib.sha256).digest())


def test_a_token_without_the_endpoint_scope_is_403(issuer, protect):
    protected = protect()
    response = post_initialize(protected.url, "Bearer " + issuer.mint(aud=protected.url, scope="other"))
    assert response.status_code == 403
    assert response.headers["WWW-Authenticate"] == challenge(
        protected, error="insufficient_scope", error_description="the token lacks a required scope", scope="mcp"
    )
    assert response.json()["error"]["message"] == "Forbidden: insufficient scope (requires mcp)"


def test_an_unknown_kid_refetches_the_jwks_once_then_is_rate_limited(issuer, protect):
    verifier = JWTVerifier(jwks_uri=issuer.jwks_uri, issuer=issuer.issuer, refetch_interval=3600)
    protected = protect(verifier)
    assert post_initialize(protected.url, "Bearer " + issuer.mint(aud=protected.url)).status_code == 200
    assert issuer.jwks_fetches() == 1
    stranger = SigningKey("ES256")
    for _ in range(5):
        response = post_initialize(protected.url, "Bearer " + stranger.sign(issuer.claims(aud=protected.url)))
        assert response.status_code == 401
    assert issuer.jwks_fetches() == 1  # forged kids cannot make the server hammer the issuer


def test_key_rotation(issuer, protect):
    protected = protect()  # refetch_interval=0
    old = issuer.mint(aud=protected.url)
    assert post_initialize(protected.url, "Bearer " + old).status_code == 200
    issuer.rotate_keys()
    new = issuer.mint(aud=protected.url)
    assert post_initialize(protected.url, "Bearer " + new).status_code == 200  # unknown kid: JWKS fetched again
    assert issuer.jwks_fetches() == 2
    response = post_initialize(protected.url, "Bearer " + old)  # its key is gone from the JWKS
    assert response.status_code == 401


def test_rotation_keeping_the_old_key_accepts_both(issuer, protect):
    protected = protect()
    old = issuer.mint(aud=protected.url)
    issuer.rotate_keys(keep_old=True)
    new = issuer.mint(aud=protected.url)
    assert post_initialize(protected.url, "Bearer " + new).status_code == 200
    assert post_initialize(protected.url, "Bearer " + old).status_code == 200


def test_rs256_tokens():
    app = JWTAuthorizationServer("RS256")
    from spec.support.oauth_fixture import Served
    from spec.support.protected_server import ProtectedServer

    served = Served(app)
    protected = ProtectedServer(
        lambda url: BearerAuth(JWTVerifier(jwks_uri=app.jwks_uri, issuer=app.issuer), resource=url, required_scopes=["mcp"])
    )
    try:
        assert post_initialize(protected.url, "Bearer " + app.mint(aud=protected.url)).status_code == 200
        # An RS256 header on an RSA key only: the same token re-labelled ES256 is refused.
        header, rest = app.mint(aud=protected.url).split(".", 1)
        relabelled = base64.urlsafe_b64encode(json.dumps({"alg": "ES256", "kid": app.signing_key.kid}).encode()).rstrip(b"=").decode()
        assert post_initialize(protected.url, f"Bearer {relabelled}.{rest}").status_code == 401
    finally:
        protected.close()
        served.close()


def test_an_unreachable_issuer_is_503(issuer, protect):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    protected = protect(JWTVerifier(jwks_uri=f"http://127.0.0.1:{port}/jwks", issuer=issuer.issuer))
    response = post_initialize(protected.url, "Bearer " + issuer.mint(aud=protected.url))
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    assert response.json()["error"]["message"] == "Service Unavailable: the authorization server cannot be reached"


def test_a_failing_issuer_is_503(issuer, protect):
    protected = protect()
    issuer.failing = True
    assert post_initialize(protected.url, "Bearer " + issuer.mint(aud=protected.url)).status_code == 503


def test_a_silent_issuer_is_503_after_the_timeout_not_a_hang(issuer, protect):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)  # accepts connections (the kernel does), never answers
    port = listener.getsockname()[1]
    try:
        verifier = JWTVerifier(jwks_uri=f"http://127.0.0.1:{port}/jwks", issuer=issuer.issuer, timeout=0.5)
        protected = protect(verifier)
        response = post_initialize(protected.url, "Bearer " + issuer.mint(aud=protected.url))
        assert response.status_code == 503
    finally:
        listener.close()


def test_the_jwks_is_cached(issuer, protect):
    protected = protect()
    for _ in range(3):
        assert post_initialize(protected.url, "Bearer " + issuer.mint(aud=protected.url)).status_code == 200
    assert issuer.jwks_fetches() == 1


def test_concurrent_first_requests_fetch_the_jwks_once(issuer, protect):
    protected = protect(JWTVerifier(jwks_uri=issuer.jwks_uri, issuer=issuer.issuer))
    token = issuer.mint(aud=protected.url)
    statuses: list[int] = []
    threads = [threading.Thread(target=lambda: statuses.append(post_initialize(protected.url, "Bearer " + token).status_code)) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert statuses == [200] * 6
    assert issuer.jwks_fetches() == 1


def test_only_asymmetric_algorithms_are_accepted(issuer):
    with pytest.raises(ValueError, match="asymmetric"):
        JWTVerifier(jwks_uri=issuer.jwks_uri, issuer=issuer.issuer, algorithms=("HS256",))
    with pytest.raises(ValueError, match="asymmetric"):
        JWTVerifier(jwks_uri=issuer.jwks_uri, issuer=issuer.issuer, algorithms=("none",))


def test_an_explicit_audience_is_checked_by_the_verifier_too(issuer, protect):
    verifier = JWTVerifier(jwks_uri=issuer.jwks_uri, issuer=issuer.issuer, audience="api://mcp")
    protected = protect(verifier)
    # The verifier wants api://mcp; BearerAuth wants the resource URL: a token naming both passes.
    assert post_initialize(protected.url, "Bearer " + issuer.mint(aud=[protected.url, "api://mcp"])).status_code == 200
    assert post_initialize(protected.url, "Bearer " + issuer.mint(aud=protected.url)).status_code == 401


def test_a_token_without_kid_is_checked_against_a_single_key_issuer(issuer, protect):
    protected = protect()
    claims = issuer.claims(aud=protected.url)
    no_kid = jwt.encode(claims, issuer.signing_key.private, algorithm="ES256")
    assert post_initialize(protected.url, "Bearer " + no_kid).status_code == 200
    issuer.rotate_keys(keep_old=True)  # two keys now: a kid-less token names neither
    assert post_initialize(protected.url, "Bearer " + issuer.mint(aud=protected.url)).status_code == 200  # new kid: refetched
    assert post_initialize(protected.url, "Bearer " + no_kid).status_code == 401


def test_a_token_in_the_query_string_is_ignored(issuer, protect):
    protected = protect()
    token = issuer.mint(aud=protected.url)
    response = post_initialize(protected.url + "?access_token=" + token, None)
    assert response.status_code == 401


# -- issue 19, item 5: the documented leeway holds on exp and nbf everywhere ------------------


def test_the_verifiers_leeway_holds_on_exp_and_nbf(issuer, protect):
    protected = protect(JWTVerifier(jwks_uri=issuer.jwks_uri, issuer=issuer.issuer, leeway=120))
    now = int(time.time())
    for claims in ({"exp": now - 60}, {"nbf": now + 60}):  # within the 120 s leeway
        assert post_initialize(protected.url, "Bearer " + issuer.mint(aud=protected.url, **claims)).status_code == OK_STATUS
    for claims in ({"exp": now - 180}, {"nbf": now + 180}):  # past it
        response = post_initialize(protected.url, "Bearer " + issuer.mint(aud=protected.url, **claims))
        assert response.status_code == 401
        assert response.headers["WWW-Authenticate"] == challenge(protected, **INVALID)


def test_introspection_has_the_leeway_too(issuer, protect):
    from spec.mcp_sdk.server.auth.introspection_and_bridge_test import introspection

    protected = protect(introspection(issuer, leeway=120))
    now = int(time.time())
    # (The fixture's authorization server itself calls a token past its exp inactive: nbf shows it.)
    assert post_initialize(protected.url, "Bearer " + issuer.mint(aud=protected.url, nbf=now + 60)).status_code == OK_STATUS
    response = post_initialize(protected.url, "Bearer " + issuer.mint(aud=protected.url, nbf=now + 180))
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == challenge(protected, **INVALID)


def test_bearer_auth_takes_the_verifiers_leeway_or_its_own(issuer):
    verifier = JWTVerifier(jwks_uri=issuer.jwks_uri, issuer=issuer.issuer, leeway=120)
    assert BearerAuth(verifier, resource="https://api.example.com/mcp").leeway == 120
    assert BearerAuth(verifier, resource="https://api.example.com/mcp", leeway=5).leeway == 5
    assert BearerAuth(lambda token: None, resource="https://api.example.com/mcp").leeway == 0


# -- issue 19, item 6: aud is a string or a non-empty list of strings naming the resource ----


@pytest.mark.parametrize("aud", [[], {}, [1], None, 7], ids=["empty_list", "object", "list_of_number", "null", "number"])
def test_a_malformed_audience_is_401(issuer, protect, aud):
    protected = protect()
    response = post_initialize(protected.url, "Bearer " + _minted_with_aud(issuer, protected.url, aud))
    assert response.status_code == 401
    description = "the access token is invalid or expired" if aud is None else "the access token's aud claim is not a string or a non-empty list of strings"
    assert response.headers["WWW-Authenticate"] == challenge(protected, error="invalid_token", error_description=description, scope="mcp")
    assert response.json() == {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Unauthorized: " + description}}


def test_a_malformed_audience_from_introspection_is_401(issuer, protect):
    from spec.mcp_sdk.server.auth.introspection_and_bridge_test import introspection

    protected = protect(introspection(issuer))
    for aud in ([], {}):
        response = post_initialize(protected.url, "Bearer " + _minted_with_aud(issuer, protected.url, aud))
        assert response.status_code == 401
        assert 'error_description="the access token\'s aud claim is not a string or a non-empty list of strings"' in response.headers["WWW-Authenticate"]


def test_a_list_audience_naming_the_resource_gets_in(issuer, protect):
    protected = protect()
    token = _minted_with_aud(issuer, protected.url, ["https://other.example.com", protected.url])
    assert post_initialize(protected.url, "Bearer " + token).status_code == OK_STATUS


def _minted_with_aud(issuer: JWTAuthorizationServer, resource: str, aud: t.Any) -> str:
    """A signed token whose ``aud`` is exactly ``aud`` (``mint`` treats an empty one as absent),
    recorded for introspection."""
    claims = issuer.claims(aud=resource)
    claims["aud"] = aud
    token = issuer.signing_key.sign(claims)
    issuer.issued[token] = claims
    return token
