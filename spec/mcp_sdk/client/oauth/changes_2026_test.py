"""The authorization changes of MCP 2026-07-28, in every era: SEP-837, SEP-2352, refresh before expiry, invalid_client."""

from __future__ import annotations

import time

import pytest

from mcp_sdk.client.oauth import OAuthClient
from mcp_sdk.client.oauth.registration import registration_metadata
from spec.support.oauth_fixture import FixtureServer


@pytest.mark.parametrize("uris,kind", [
    (["http://127.0.0.1:9/cb"], "native"),
    (["http://localhost:3000/callback", "http://[::1]:1/cb"], "native"),
    (["https://app.example.com/cb"], "web"),
    (["http://127.0.0.1:9/cb", "https://app.example.com/cb"], "web"),
])
def test_sep_837_application_type_follows_the_redirect_uris(uris, kind):
    assert registration_metadata({"redirect_uris": uris}) == {"redirect_uris": uris, "application_type": kind}


def test_sep_837_a_chosen_application_type_is_kept():
    metadata = {"redirect_uris": ["https://app.example.com/cb"], "application_type": "native"}
    assert registration_metadata(metadata)["application_type"] == "native"


def test_sep_2352_credentials_belong_to_their_issuer_and_a_new_one_gets_a_new_registration(
    auth, mcp, registry, session, make_provider, send
):
    provider = make_provider()
    client = OAuthClient(provider, mcp.mcp_url, session)
    assert send(client).status_code == 200
    first = provider.client_information()
    assert first["issuer"] == auth.issuer
    moved = FixtureServer(authorization_server=True, registry=registry)
    try:
        # The resource now trusts another authorization server; the old tokens are dead.
        mcp.authorization_server_url = moved.issuer
        registry.access_tokens.clear()
        registry.refresh_tokens.clear()
        assert send(client).status_code == 200
        second = provider.client_information()
        assert second["issuer"] == moved.issuer and second["client_id"] != first["client_id"]
        assert moved.paths().count("POST /register") == 1
        assert moved.requests_to("/authorize")[0].query["client_id"] == second["client_id"]
        assert all(first["client_id"] not in str(r) for r in moved.requests)
    finally:
        moved.close()


def test_invalid_client_registers_again_once(auth, mcp, session, make_provider, send):
    auth.token_responses = [(401, {"error": "invalid_client"})]
    provider = make_provider()
    assert send(OAuthClient(provider, mcp.mcp_url, session)).status_code == 200
    assert auth.paths() == [
        "GET /.well-known/oauth-authorization-server",
        "POST /register", "GET /authorize", "POST /token",
        "POST /register", "GET /authorize", "POST /token",
    ]


def test_pre_registered_credentials_are_not_thrown_away_on_invalid_client(auth, mcp, session, make_provider, send):
    from mcp_sdk.client.oauth import AuthorizationError

    auth.token_responses = [(401, {"error": "invalid_client"})]
    provider = make_provider()
    provider.save_client_information({"client_id": "pre", "token_endpoint_auth_method": "none"})
    auth.clients["pre"] = {"client_id": "pre", "redirect_uris": provider.client_metadata["redirect_uris"],
                           "token_endpoint_auth_method": "none"}
    with pytest.raises(AuthorizationError, match="invalid_client"):
        send(OAuthClient(provider, mcp.mcp_url, session))
    assert "POST /register" not in auth.paths()


def test_a_token_is_refreshed_shortly_before_expires_in_runs_out(auth, mcp, session, make_provider, send):
    auth.expires_in = 1
    provider = make_provider()
    client = OAuthClient(provider, mcp.mcp_url, session)
    send(client)
    first = provider.access_token
    time.sleep(1.0)  # past 90% of its one-second life
    assert client.auth_headers() != {"Authorization": f"Bearer {first}"}
    grants = [request.form["grant_type"] for request in auth.requests_to("/token")]
    assert grants[0] == "authorization_code" and grants[1:] and set(grants[1:]) == {"refresh_token"}
