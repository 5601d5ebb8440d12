from __future__ import annotations

import logging

import pytest
import requests

from mcp_sdk.client.oauth import AuthorizationError, ClientCredentialsProvider, InMemoryStorage, OAuthClient

from .conftest import REDIRECT_URI


def confidential_provider(auth, make_provider, secret="CLIENT-SECRET-VALUE"):
    storage = InMemoryStorage()
    info = {"client_id": "app", "client_secret": secret, "token_endpoint_auth_method": "client_secret_post"}
    storage.save_client_information(info)
    auth.clients["app"] = dict(info, redirect_uris=[REDIRECT_URI])
    return make_provider(storage=storage)


def test_bearer_token_never_reaches_the_authorization_server(auth, mcp, session, make_provider, send, registry):
    provider = make_provider()
    client = OAuthClient(provider, mcp.mcp_url, session)
    send(client)
    del registry.access_tokens[provider.access_token]
    send(client)  # refresh

    assert [r.form["grant_type"] for r in auth.requests_to("/token")] == ["authorization_code", "refresh_token"]
    for request in auth.requests:
        assert "Bearer" not in request.headers.get("Authorization", "")
    for request in mcp.requests:
        if request.path != "/mcp":
            assert "Authorization" not in request.headers


def test_session_credentials_do_not_leak_into_oauth_requests(auth, mcp, session, make_provider):
    with requests.Session() as tainted:
        tainted.headers["Authorization"] = "Bearer STATIC-USER-TOKEN"
        tainted.auth = ("user", "password")
        client = OAuthClient(make_provider(), mcp.mcp_url, tainted)
        response = session.post(mcp.mcp_url, json={})
        response.close()

        assert client.handle_response(response) is True

    assert auth.paths()[-1] == "POST /token"
    for request in auth.requests + mcp.requests_to("/.well-known/oauth-protected-resource/mcp"):
        assert "Authorization" not in request.headers


def test_secrets_absent_from_logs(auth, mcp, session, make_provider, send, registry, caplog):
    caplog.set_level(logging.DEBUG)
    provider = confidential_provider(auth, make_provider)
    client = OAuthClient(provider, mcp.mcp_url, session)
    send(client)
    tokens = provider.tokens()
    del registry.access_tokens[provider.access_token]
    send(client)

    oauth_logs = "\n".join(r.getMessage() for r in caplog.records if r.name.startswith("mcp_sdk"))
    assert "OAuth" in oauth_logs
    for secret in (tokens["access_token"], tokens["refresh_token"], provider.access_token, "CLIENT-SECRET-VALUE"):
        assert secret not in oauth_logs


def test_secrets_absent_from_reprs(auth, mcp, session, make_provider, send):
    provider = confidential_provider(auth, make_provider)
    client = OAuthClient(provider, mcp.mcp_url + "?api_key=QUERY-SECRET", session)
    provider.save_tokens({"access_token": "ACCESS-VALUE", "refresh_token": "REFRESH-VALUE"})
    credentials = ClientCredentialsProvider(client_id="svc", client_secret="CC-SECRET-VALUE")

    for text in (repr(provider), repr(client), repr(provider.storage), repr(credentials), str(credentials)):
        for secret in ("ACCESS-VALUE", "REFRESH-VALUE", "CLIENT-SECRET-VALUE", "CC-SECRET-VALUE", "QUERY-SECRET"):
            assert secret not in text


@pytest.mark.parametrize(
    "status, body",
    [
        (400, {"error": "invalid_grant", "error_description": "bad CLIENT-SECRET-VALUE"}),
        (401, {"error": "CLIENT-SECRET-VALUE"}),
        (500, "CLIENT-SECRET-VALUE"),
        (200, {"token_type": "Bearer", "refresh_token": "REFRESH-VALUE"}),
        (200, b'{"access_token": "ACCESS-VALUE", truncated'),
    ],
)
def test_secrets_absent_from_errors(auth, mcp, session, make_provider, send, status, body):
    provider = confidential_provider(auth, make_provider)
    auth.token_response = (status, body)

    with pytest.raises(AuthorizationError) as info:
        send(OAuthClient(provider, mcp.mcp_url, session))

    error = info.value
    chain = [error, error.__cause__, error.__context__]
    text = " ".join(f"{e!s} {e!r} {getattr(e, 'doc', '')}" for e in chain if e is not None)
    for secret in ("CLIENT-SECRET-VALUE", "REFRESH-VALUE", "ACCESS-VALUE"):
        assert secret not in text


def test_unreachable_token_endpoint_error_carries_no_request(auth, mcp, session, make_provider, send):
    provider = confidential_provider(auth, make_provider)
    auth.metadata_overrides["token_endpoint"] = "http://127.0.0.1:1/token"

    with pytest.raises(AuthorizationError, match=r"POST http://127.0.0.1:1/token failed \(ConnectionError\)") as info:
        send(OAuthClient(provider, mcp.mcp_url, session))
    assert info.value.__cause__ is None and info.value.__context__ is None
