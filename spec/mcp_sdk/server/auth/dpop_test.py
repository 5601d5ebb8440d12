"""BearerAuth with a DPoPVerifier: DPoP-bound tokens and their proofs (RFC 9449 section 7), on a live server."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
import typing as t

import jwt
import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import ec

from mcp_sdk.client.oauth import DPoPKey
from mcp_sdk.server.auth import DPoPNonceRequiredError, DPoPVerifier
from spec.support.http_client import initialize_message
from spec.support.protected_server import ProtectedServer

ALGS = "ES256 ES384 ES512 RS256 RS384 RS512 PS256 PS384 PS512 EdDSA"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class ProofKey:
    """An independent proof maker (PyJWT directly), to check the verifier against."""

    def __init__(self) -> None:
        self.private = ec.generate_private_key(ec.SECP256R1())
        self.jwk = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(self.private.public_key()))
        members = {name: self.jwk[name] for name in ("crv", "kty", "x", "y")}
        canonical = json.dumps(members, separators=(",", ":"), sort_keys=True)
        self.jkt = b64url(hashlib.sha256(canonical.encode()).digest())

    def proof(self, url: str, token: str, method: str = "POST", **overrides: t.Any) -> str:
        claims = {"jti": secrets.token_hex(8), "htm": method, "htu": url, "iat": int(time.time()), "ath": b64url(hashlib.sha256(token.encode()).digest())}
        header = {"typ": overrides.pop("typ", "dpop+jwt"), "jwk": overrides.pop("jwk", self.jwk)}
        for name, value in overrides.items():
            if value is None:
                claims.pop(name, None)
            else:
                claims[name] = value
        return jwt.encode(claims, self.private, algorithm="ES256", headers=header)


def post(url: str, authorization: str | None, proof: str | None = None) -> requests.Response:
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    if authorization is not None:
        headers["Authorization"] = authorization
    if proof is not None:
        headers["DPoP"] = proof
    with requests.post(url, json=initialize_message(), headers=headers, timeout=30) as response:
        return response


def metadata_url(protected: ProtectedServer) -> str:
    return protected.url.rsplit("/mcp", 1)[0] + "/.well-known/oauth-protected-resource/mcp"


def refusal(protected: ProtectedServer, error: str, description: str) -> str:
    params = f'error="{error}", error_description="{description}", resource_metadata="{metadata_url(protected)}"'
    return f'Bearer {params}, DPoP algs="{ALGS}", {params}'


def test_a_bound_token_with_a_good_proof_gets_in(issuer, protect) -> None:
    protected = protect(required_scopes=(), auth_options={"dpop": DPoPVerifier()})
    key = ProofKey()
    token = issuer.mint(aud=protected.url, cnf={"jkt": key.jkt})

    response = post(protected.url, f"DPoP {token}", key.proof(protected.url, token))

    assert response.status_code == 200, response.text


def test_the_sdk_client_key_works_end_to_end(issuer, protect) -> None:
    protected = protect(required_scopes=(), auth_options={"dpop": DPoPVerifier()})
    key = DPoPKey()
    token = issuer.mint(aud=protected.url, cnf={"jkt": key.thumbprint})
    assert post(protected.url, f"DPoP {token}", key.proof("POST", protected.url, access_token=token)).status_code == 200


@pytest.mark.parametrize(
    ("make_proof", "description"),
    [
        (lambda key, url, token: None, "missing or malformed DPoP proof (exactly one DPoP header is needed)"),
        (lambda key, url, token: key.proof(url, token) + ", " + key.proof(url, token), "missing or malformed DPoP proof (exactly one DPoP header is needed)"),
        (lambda key, url, token: key.proof(url, token, typ="JWT"), "the DPoP proof typ is not dpop+jwt"),
        (lambda key, url, token: key.proof(url, token, jwk={**key.jwk, "d": "AAAA"}), "the DPoP proof jwk is not a public key"),
        (lambda key, url, token: ProofKey().proof(url, token), "the DPoP proof key is not the key the token is bound to"),
        (lambda key, url, token: key.proof(url, token, method="GET"), "the DPoP proof htm does not match the request method"),
        (lambda key, url, token: key.proof(url + "/other", token), "the DPoP proof htu does not match the request URL"),
        (lambda key, url, token: key.proof(url + "?q=1", token), "the DPoP proof htu does not match the request URL"),
        (lambda key, url, token: key.proof(url, "another-token"), "the DPoP proof ath does not match the access token"),
        (lambda key, url, token: key.proof(url, token, ath=None), "the DPoP proof ath does not match the access token"),
        (lambda key, url, token: key.proof(url, token, iat=int(time.time()) - 3600), "the DPoP proof is too old or from the future"),
        (lambda key, url, token: key.proof(url, token, iat=int(time.time()) + 3600), "the DPoP proof is too old or from the future"),
        (lambda key, url, token: key.proof(url, token, jti=None), "the DPoP proof has no usable jti"),
        (lambda key, url, token: key.proof(url, token)[:-4] + "AAAA", "the DPoP proof signature or encoding is invalid"),
    ],
    ids=["missing", "two", "typ", "private-jwk", "other-key", "htm", "htu", "htu-query", "ath", "no-ath", "old", "future", "no-jti", "signature"],
)
def test_bad_proofs_are_refused(issuer, protect, make_proof, description) -> None:
    protected = protect(required_scopes=(), auth_options={"dpop": DPoPVerifier()})
    key = ProofKey()
    token = issuer.mint(aud=protected.url, cnf={"jkt": key.jkt})

    response = post(protected.url, f"DPoP {token}", make_proof(key, protected.url, token))

    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == refusal(protected, "invalid_dpop_proof", description)
    assert token not in response.text


def test_a_replayed_proof_is_refused(issuer, protect) -> None:
    protected = protect(required_scopes=(), auth_options={"dpop": DPoPVerifier()})
    key = ProofKey()
    token = issuer.mint(aud=protected.url, cnf={"jkt": key.jkt})
    proof = key.proof(protected.url, token)

    assert post(protected.url, f"DPoP {token}", proof).status_code == 200
    replayed = post(protected.url, f"DPoP {token}", proof)

    assert replayed.status_code == 401
    assert replayed.headers["WWW-Authenticate"] == refusal(protected, "invalid_dpop_proof", "the DPoP proof was already used (replay)")


def test_a_bound_token_sent_as_bearer_is_refused_and_a_plain_one_is_not(issuer, protect) -> None:
    protected = protect(required_scopes=(), auth_options={"dpop": DPoPVerifier()})
    key = ProofKey()
    bound = issuer.mint(aud=protected.url, cnf={"jkt": key.jkt})

    response = post(protected.url, f"Bearer {bound}")
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == refusal(
        protected, "invalid_token", "a DPoP-bound access token needs the DPoP scheme and a proof"
    )
    assert post(protected.url, "Bearer " + issuer.mint(aud=protected.url)).status_code == 200
    unbound = issuer.mint(aud=protected.url)
    assert post(protected.url, f"DPoP {unbound}", key.proof(protected.url, unbound)).headers["WWW-Authenticate"] == refusal(
        protected, "invalid_dpop_proof", "the access token is not DPoP-bound (no cnf.jkt)"
    )


def test_required_dpop_refuses_bearer_and_says_so_in_the_metadata(issuer, protect) -> None:
    protected = protect(required_scopes=(), auth_options={"dpop": DPoPVerifier(required=True, algorithms=["ES256"])})

    response = post(protected.url, "Bearer " + issuer.mint(aud=protected.url))

    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == f'DPoP algs="ES256", resource_metadata="{metadata_url(protected)}"'
    with requests.get(metadata_url(protected), timeout=30) as document:
        assert document.json() == {
            "resource": protected.url,
            "authorization_servers": [issuer.issuer],
            "bearer_methods_supported": ["header"],
            "dpop_signing_alg_values_supported": ["ES256"],
            "dpop_bound_access_tokens_required": True,
        }


def test_symmetric_algorithms_are_refused_at_construction() -> None:
    with pytest.raises(ValueError, match="asymmetric"):
        DPoPVerifier(algorithms=["HS256"])
    with pytest.raises(ValueError, match="asymmetric"):
        DPoPVerifier(algorithms=[])
    assert repr(DPoPVerifier()) == "<DPoPVerifier required=False max_age=300.0>"


def test_the_replay_memory_is_bounded() -> None:
    verifier = DPoPVerifier(max_remembered=3)
    key = DPoPKey()
    for _ in range(5):
        verifier.verify(key.proof("POST", "https://a.example/mcp", access_token="t"), "POST", "https://a.example/mcp", "t", key.thumbprint)
    assert len(verifier._seen) == 3


def test_a_required_nonce_is_handed_out_and_then_accepted(issuer, protect) -> None:
    verifier = DPoPVerifier(require_nonce=True)
    protected = protect(required_scopes=(), auth_options={"dpop": verifier})
    key = ProofKey()
    token = issuer.mint(aud=protected.url, cnf={"jkt": key.jkt})

    challenged = post(protected.url, f"DPoP {token}", key.proof(protected.url, token))
    assert challenged.status_code == 401
    assert challenged.headers["WWW-Authenticate"] == refusal(protected, "use_dpop_nonce", "the DPoP proof needs the server's current nonce")
    nonce = challenged.headers["DPoP-Nonce"]
    assert nonce == verifier.current_nonce()

    assert post(protected.url, f"DPoP {token}", key.proof(protected.url, token, nonce=nonce)).status_code == 200
    wrong = post(protected.url, f"DPoP {token}", key.proof(protected.url, token, nonce=nonce + "x"))
    assert wrong.status_code == 401 and wrong.headers["DPoP-Nonce"] == nonce


def test_nonces_from_a_shared_secret_pass_at_every_worker_and_expire() -> None:
    first, second = DPoPVerifier(require_nonce=True, nonce_secret=b"k" * 32), DPoPVerifier(require_nonce=True, nonce_secret=b"k" * 32)
    assert first.current_nonce() == second.current_nonce()
    assert DPoPVerifier(require_nonce=True).current_nonce() != first.current_nonce()
    key = DPoPKey()
    url = "https://a.example/mcp"
    stale = first._nonce_at(int(time.time() // first.nonce_lifetime) - 2)
    with pytest.raises(DPoPNonceRequiredError) as raised:
        second.verify(key.proof("POST", url, access_token="t", nonce=stale), "POST", url, "t", key.thumbprint)
    assert raised.value.nonce == first.current_nonce()
    second.verify(key.proof("POST", url, access_token="t", nonce=first.current_nonce()), "POST", url, "t", key.thumbprint)


@pytest.mark.parametrize("require_nonce", [False, True], ids=["no-nonce", "nonce"])
def test_the_sdk_client_and_server_end_to_end(require_nonce: bool) -> None:
    """ClientCredentialsProvider(dpop=True) -> a DPoP-binding AS -> BearerAuth(dpop=DPoPVerifier())."""
    from mcp_sdk import Client
    from mcp_sdk.client import HTTP
    from mcp_sdk.client.oauth import ClientCredentialsProvider
    from mcp_sdk.server.auth import BearerAuth, JWTVerifier
    from spec.support.dpop_fixture import DPoPJWTAuthorizationServer
    from spec.support.oauth_fixture import Served

    issuer = DPoPJWTAuthorizationServer()
    served = Served(issuer)
    issuer.clients["svc"] = {"client_id": "svc", "client_secret": "s", "token_endpoint_auth_method": "client_secret_basic"}

    def make_auth(resource: str) -> BearerAuth:
        verifier = JWTVerifier(jwks_uri=issuer.jwks_uri, issuer=issuer.issuer, refetch_interval=0)
        return BearerAuth(verifier, resource=resource, authorization_servers=[issuer.issuer], dpop=DPoPVerifier(required=True, require_nonce=require_nonce))

    protected = ProtectedServer(make_auth)
    provider = ClientCredentialsProvider(client_id="svc", client_secret="s", dpop=True)
    try:
        with Client(transport=HTTP(url=protected.url, oauth=provider, timeout=10, standalone_stream=False)) as client:
            client.connect()
            for _ in range(2):
                answer = client.call_tool(name="whoami", arguments={})
                assert answer["result"]["structuredContent"]["client_id"] == "svc"
    finally:
        protected.close()
        served.close()
    assert provider.tokens()["token_type"] == "DPoP"
    claims = jwt.decode(provider.access_token, options={"verify_signature": False})
    assert claims["cnf"] == {"jkt": provider.dpop.thumbprint}
    # With nonces, the client learned the server's from the challenge and kept using it.
    assert (provider.dpop.nonce_for(protected.url) is not None) is require_nonce
