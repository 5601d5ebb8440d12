"""DPoP (RFC 9449) in the OAuth client, through the real HTTP transport against an enforcing fixture."""

from __future__ import annotations

import json
import pickle
import typing as t

import jwt
import pytest

from mcp_sdk import MCPError
from mcp_sdk.client import HTTP
from mcp_sdk.client.oauth import ClientCredentialsProvider, DPoPKey, Provider
from mcp_sdk.client.oauth.dpop import access_token_hash, jwk_thumbprint, proof_target
from mcp_sdk.client.oauth.jwt_assertion import InvalidKeyError
from spec.support.dpop_fixture import AS_NONCE, RS_NONCE, DPoPFixture, thumbprint
from spec.support.oauth_fixture import TEST_EC_PRIVATE_KEY, TEST_RSA_PRIVATE_KEY, browser

REDIRECT_URI = "http://127.0.0.1:9/callback"
PING = {"jsonrpc": "2.0", "id": 1, "method": "ping"}


@pytest.fixture
def fixture() -> t.Iterator[DPoPFixture]:
    server = DPoPFixture()
    yield server
    server.close()


def interactive(dpop: t.Any = True) -> Provider:
    redirect_handler, callback_handler, _ = browser()
    return Provider(
        client_metadata={"redirect_uris": [REDIRECT_URI], "token_endpoint_auth_method": "none"},
        redirect_uri=REDIRECT_URI,
        redirect_handler=redirect_handler,
        callback_handler=callback_handler,
        dpop=dpop,
    )


def send(fixture: DPoPFixture, provider: t.Any, times: int = 1) -> list[t.Any]:
    """Ping through the transport ``times`` times: each answer's ``result``, or the error's class name."""
    transport = HTTP(url=fixture.mcp_url, oauth=provider, timeout=10, standalone_stream=False)
    answers: list[t.Any] = []
    try:
        for _ in range(times):
            try:
                answers.append(transport.send_request(PING)["result"]["ok"] and 200)
            except MCPError as error:
                answers.append(type(error).__name__)
    finally:
        transport.close()
    return answers


def test_authorization_code_gets_a_bound_token_and_proves_every_request(fixture: DPoPFixture) -> None:
    provider = interactive()

    assert send(fixture, provider, times=2) == [200, 200]

    assert provider.tokens()["token_type"] == "DPoP"
    token = provider.access_token
    assert fixture.bound[token] == provider.dpop.thumbprint
    mcp_requests = [r for r in fixture.requests_to("/mcp") if r.headers.get("Authorization")]
    assert [r.headers["Authorization"] for r in mcp_requests] == [f"DPoP {token}"] * 2
    paths = [path for path, _ in fixture.proofs]
    assert paths == ["/token", "/mcp", "/mcp"]
    token_claims = fixture.proofs[0][1]
    assert set(token_claims) == {"jti", "htm", "htu", "iat"}
    assert token_claims["htm"] == "POST" and token_claims["htu"] == fixture.base_url + "/token"
    resource_claims = [claims for _, claims in fixture.proofs[1:]]
    assert all(claims["ath"] == access_token_hash(token) for claims in resource_claims)
    jtis = [claims["jti"] for _, claims in fixture.proofs]
    assert len(set(jtis)) == len(jtis)


def test_nonces_from_the_as_and_the_resource_are_retried_once_each(fixture: DPoPFixture) -> None:
    fixture.as_nonce = fixture.rs_nonce = True
    provider = interactive()

    assert send(fixture, provider, times=2) == [200, 200]

    token_proofs = [claims.get("nonce") for path, claims in fixture.proofs if path == "/token"]
    assert token_proofs == [None, AS_NONCE]
    mcp_nonces = [claims.get("nonce") for path, claims in fixture.proofs if path == "/mcp"]
    # Nonces are kept per origin (here the AS and the resource share one); once learned, reused.
    assert mcp_nonces == [AS_NONCE, RS_NONCE, RS_NONCE]
    assert provider.dpop.nonce_for(fixture.mcp_url) == RS_NONCE


def test_a_nonce_challenge_repeated_with_the_same_nonce_is_not_retried_forever(fixture: DPoPFixture) -> None:
    fixture.rs_nonce = True
    provider = interactive()
    send(fixture, provider)
    count = len(fixture.requests_to("/mcp"))
    fixture.accepted_rs_nonce = "never-sent"  # the server keeps challenging with the nonce the client has

    assert send(fixture, provider) == ["TransportError"]

    # No nonce retry (the nonce is not new), one OAuth flow and its one retry.
    assert len(fixture.requests_to("/mcp")) - count == 2


def test_client_credentials_with_dpop(fixture: DPoPFixture) -> None:
    fixture.clients["svc"] = {"client_id": "svc", "client_secret": "s", "token_endpoint_auth_method": "client_secret_basic"}
    key = DPoPKey(TEST_RSA_PRIVATE_KEY, algorithm="RS256")
    provider = ClientCredentialsProvider(client_id="svc", client_secret="s", dpop=key)

    assert send(fixture, provider) == [200]

    assert fixture.bound[provider.access_token] == key.thumbprint
    assert jwt.get_unverified_header(fixture.requests_to("/token")[0].headers["Dpop"])["alg"] == "RS256"


def test_a_bearer_answer_from_a_server_without_dpop_is_used_as_bearer(fixture: DPoPFixture) -> None:
    fixture.clients["svc"] = {"client_id": "svc", "client_secret": "s", "token_endpoint_auth_method": "client_secret_basic"}
    provider = ClientCredentialsProvider(client_id="svc", client_secret="s", dpop=True)
    fixture.token_responses.append((200, {"access_token": "at-plain", "token_type": "Bearer"}))
    fixture.registry.access_tokens["at-plain"] = fixture.registry.access_tokens.get("x") or _record()

    assert send(fixture, provider) == [200]

    assert fixture.requests_to("/mcp")[-1].headers["Authorization"] == "Bearer at-plain"
    assert "DPoP" not in fixture.requests_to("/mcp")[-1].headers


def _record() -> t.Any:
    from spec.support.oauth_fixture import TokenRecord

    return TokenRecord("svc", None, None)


def test_a_dpop_token_type_without_a_key_is_refused(fixture: DPoPFixture) -> None:
    fixture.clients["svc"] = {"client_id": "svc", "client_secret": "s", "token_endpoint_auth_method": "client_secret_basic"}
    fixture.token_responses.append((200, {"access_token": "at-x", "token_type": "DPoP"}))
    provider = ClientCredentialsProvider(client_id="svc", client_secret="s")

    assert send(fixture, provider) == ["AuthorizationError"]


class TestDPoPKey:
    def test_the_proof_is_a_dpop_jwt_signed_by_the_embedded_public_key(self) -> None:
        key = DPoPKey()
        proof = key.proof("post", "https://mcp.example.com/mcp?x=1#f", access_token="tok", nonce="n1")

        header = jwt.get_unverified_header(proof)
        assert header["typ"] == "dpop+jwt" and header["alg"] == "ES256"
        assert set(header["jwk"]) == {"kty", "crv", "x", "y"}
        claims = jwt.decode(proof, jwt.PyJWK(header["jwk"], "ES256").key, algorithms=["ES256"])
        assert claims["htm"] == "POST"
        assert claims["htu"] == "https://mcp.example.com/mcp"
        assert claims["ath"] == access_token_hash("tok") and claims["nonce"] == "n1"
        assert key.thumbprint == thumbprint(header["jwk"]) == jwk_thumbprint(header["jwk"])

    def test_rfc7638_thumbprint_example(self) -> None:
        # RFC 7638 section 3.1.
        jwk = {
            "kty": "RSA",
            "n": "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw",
            "e": "AQAB",
            "alg": "RS256",
        }
        assert jwk_thumbprint(jwk) == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"

    def test_an_existing_key_and_its_checks(self) -> None:
        assert DPoPKey(TEST_EC_PRIVATE_KEY).thumbprint == DPoPKey(TEST_EC_PRIVATE_KEY).thumbprint
        with pytest.raises(InvalidKeyError, match="ES256 needs a secp256r1"):
            DPoPKey(TEST_RSA_PRIVATE_KEY)
        with pytest.raises(InvalidKeyError, match="must be one of"):
            DPoPKey(algorithm="HS256")
        with pytest.raises(InvalidKeyError, match="not a readable"):
            DPoPKey("not a key")

    def test_the_private_key_never_shows(self) -> None:
        key = DPoPKey(TEST_EC_PRIVATE_KEY)
        provider = interactive(key)
        private_d = "d"
        assert private_d not in key.public_jwk
        for text in (repr(key), repr(provider), json.dumps(key.public_jwk)):
            assert "PRIVATE" not in text and "_key" not in text
        assert repr(key) == f"<DPoPKey algorithm='ES256' thumbprint={key.thumbprint!r}>"
        with pytest.raises(TypeError, match="cannot be pickled"):
            pickle.dumps(key)

    def test_nonces_are_kept_per_origin_and_checked(self) -> None:
        key = DPoPKey()
        assert key.remember_nonce("https://a.example/x", {"DPoP-Nonce": "abc"}) is True
        assert key.remember_nonce("https://a.example/y", {"DPoP-Nonce": "abc"}) is False
        assert key.nonce_for("https://A.example/other") == "abc"
        assert key.nonce_for("https://b.example/") is None
        assert key.remember_nonce("https://b.example/", {"DPoP-Nonce": 'bad"quote'}) is False
        assert key.remember_nonce("https://b.example/", {"DPoP-Nonce": "x" * 2000}) is False
        assert key.nonce_for("https://b.example/") is None

    def test_proof_target_drops_query_and_fragment(self) -> None:
        assert proof_target("HTTPS://Host.example:8443/a/b?q=1#frag") == "https://host.example:8443/a/b"
        assert proof_target("https://host.example") == "https://host.example/"

    def test_provider_dpop_argument(self) -> None:
        assert interactive(None).dpop is None
        assert interactive(False).dpop is None
        assert isinstance(interactive(True).dpop, DPoPKey)
        with pytest.raises(TypeError, match="dpop must be"):
            interactive("yes")
