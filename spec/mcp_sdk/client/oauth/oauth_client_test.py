from __future__ import annotations

import threading

import pytest
import requests

from mcp_sdk.client.oauth import AuthorizationError, InMemoryStorage, InsecureURLError, OAuthClient


def authorized(auth, mcp, session, make_provider, send, **provider_kwargs):
    provider = make_provider(**provider_kwargs)
    client = OAuthClient(provider, mcp.mcp_url, session)
    assert send(client).status_code == 200
    auth.requests.clear()
    mcp.requests.clear()
    return provider, client


def expire(registry, provider):
    del registry.access_tokens[provider.access_token]


def test_auth_headers(auth, mcp, session, make_provider):
    provider = make_provider()
    client = OAuthClient(provider, mcp.mcp_url, session)
    assert client.auth_headers() == {}
    provider.save_tokens({"access_token": "abc", "token_type": "Bearer"})
    assert client.auth_headers() == {"Authorization": "Bearer abc"}


def test_other_statuses_are_left_alone(auth, mcp, session, make_provider):
    client = OAuthClient(make_provider(), mcp.mcp_url, session)
    for status in (200, 400, 404, 500):
        response = requests.Response()
        response.status_code = status
        assert client.handle_response(response) is False
    assert auth.requests == [] and mcp.requests == []


def test_refresh_on_a_later_401(auth, mcp, session, make_provider, send, registry):
    provider, client = authorized(auth, mcp, session, make_provider, send)
    old = provider.tokens()
    expire(registry, provider)

    assert send(client).status_code == 200

    assert auth.paths() == ["POST /token"]
    token = auth.requests[0]
    assert token.form == {
        "grant_type": "refresh_token",
        "refresh_token": old["refresh_token"],
        "resource": mcp.mcp_url,
        "client_id": provider.client_information()["client_id"],
    }
    assert provider.access_token != old["access_token"]
    assert mcp.requests[-1].headers["Authorization"] == "Bearer " + provider.access_token


def test_refresh_keeps_the_old_refresh_token_when_none_is_returned(auth, mcp, session, make_provider, send, registry):
    provider, client = authorized(auth, mcp, session, make_provider, send)
    old_refresh = provider.tokens()["refresh_token"]
    expire(registry, provider)
    auth.token_response = (200, {"access_token": "new-at", "token_type": "bearer"})
    registry.access_tokens["new-at"] = registry.refresh_tokens[old_refresh]

    assert send(client).status_code == 200

    assert provider.tokens()["refresh_token"] == old_refresh
    assert provider.access_token == "new-at"


def test_dead_refresh_token_falls_back_to_the_full_flow(auth, mcp, session, make_provider, send, registry):
    provider, client = authorized(auth, mcp, session, make_provider, send)
    expire(registry, provider)
    registry.refresh_tokens.clear()

    assert send(client).status_code == 200

    assert auth.paths() == [
        "POST /token",  # refused refresh: invalid_grant
        "GET /.well-known/oauth-authorization-server",
        "GET /authorize",
        "POST /token",
    ]
    assert auth.requests[-1].form["grant_type"] == "authorization_code"


def test_refresh_without_stored_refresh_token_runs_the_full_flow(auth, mcp, session, make_provider, send, registry):
    auth.issue_refresh_tokens = False
    provider, client = authorized(auth, mcp, session, make_provider, send)
    expire(registry, provider)

    assert send(client).status_code == 200

    assert [r.form.get("grant_type") for r in auth.requests_to("/token")] == ["authorization_code"]


def test_a_second_401_right_after_a_full_flow_raises(auth, mcp, session, make_provider, send):
    mcp.reject_all_tokens = True
    client = OAuthClient(make_provider(), mcp.mcp_url, session)

    first = session.post(mcp.mcp_url, json={}, headers=client.auth_headers())
    assert client.handle_response(first) is True
    second = session.post(mcp.mcp_url, json={}, headers=client.auth_headers())
    with pytest.raises(AuthorizationError, match="rejected a token that was just issued"):
        client.handle_response(second)
    assert len(auth.requests_to("/authorize")) == 1


def test_a_401_right_after_a_refresh_runs_the_full_flow_once(auth, mcp, session, make_provider, send, registry):
    provider, client = authorized(auth, mcp, session, make_provider, send)
    mcp.reject_all_tokens = True

    for _ in range(2):
        response = session.post(mcp.mcp_url, json={}, headers=client.auth_headers())
        assert client.handle_response(response) is True
    response = session.post(mcp.mcp_url, json={}, headers=client.auth_headers())
    with pytest.raises(AuthorizationError):
        client.handle_response(response)
    assert [r.form["grant_type"] for r in auth.requests_to("/token")] == ["refresh_token", "authorization_code"]


def test_step_up_on_403_insufficient_scope(auth, mcp, session, make_provider, send, registry):
    mcp.challenge_scope = "mcp:read"
    provider, client = authorized(auth, mcp, session, make_provider, send)
    assert provider.tokens()["scope"] == "mcp:read"
    mcp.required_scopes = ["mcp:read", "mcp:write"]

    assert send(client).status_code == 200

    # No refresh: it would re-issue the scopes the server just refused.
    assert auth.paths() == ["GET /.well-known/oauth-authorization-server", "GET /authorize", "POST /token"]
    assert auth.requests_to("/authorize")[0].query["scope"] == "mcp:read mcp:write"
    assert auth.requests_to("/token")[0].form["grant_type"] == "authorization_code"
    assert provider.tokens()["scope"] == "mcp:read mcp:write"


def test_step_up_is_tried_once_then_the_403_is_surfaced(auth, mcp, session, make_provider, send):
    mcp.challenge_scope = "mcp:read"
    auth.grantable_scopes = {"mcp:read"}
    provider, client = authorized(auth, mcp, session, make_provider, send)
    mcp.required_scopes = ["mcp:read", "mcp:write"]

    assert send(client).status_code == 403
    response = session.post(mcp.mcp_url, json={}, headers=client.auth_headers())
    assert client.handle_response(response) is False
    assert len(auth.requests_to("/authorize")) == 1


def test_403_without_insufficient_scope_is_surfaced(auth, mcp, session, make_provider):
    client = OAuthClient(make_provider(), mcp.mcp_url, session)
    for header in (None, 'Bearer error="invalid_token"', 'Basic realm="x", error="insufficient_scope"'):
        response = requests.Response()
        response.status_code = 403
        if header:
            response.headers["WWW-Authenticate"] = header
        assert client.handle_response(response) is False
    assert auth.requests == [] and mcp.requests == []


def test_401_asking_for_more_scope_skips_refresh_and_unions(auth, mcp, session, make_provider, send, registry):
    mcp.challenge_scope = "mcp:read"
    provider, client = authorized(auth, mcp, session, make_provider, send)
    expire(registry, provider)
    mcp.challenge_scope = "mcp:write"

    assert send(client).status_code == 200

    assert "refresh_token" not in [r.form.get("grant_type") for r in auth.requests_to("/token")]
    assert auth.requests_to("/authorize")[0].query["scope"] == "mcp:read mcp:write"


def test_concurrent_401s_run_one_flow(auth, mcp, session, make_provider):
    gate = threading.Barrier(4)
    provider = make_provider()
    client = OAuthClient(provider, mcp.mcp_url, session)
    results = []

    def worker():
        with requests.Session() as own:
            gate.wait()
            response = own.post(mcp.mcp_url, json={}, headers=client.auth_headers())
            retry = client.handle_response(response)
            again = own.post(mcp.mcp_url, json={}, headers=client.auth_headers())
            results.append((retry, again.status_code))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert results == [(True, 200)] * 4
    assert len(auth.requests_to("/authorize")) == 1


def test_storage_that_drops_tokens_is_an_error(auth, mcp, session, make_provider, send):
    class Forgetful(InMemoryStorage):
        def save_tokens(self, tokens):
            pass

    with pytest.raises(AuthorizationError, match="did not keep"):
        send(OAuthClient(make_provider(storage=Forgetful()), mcp.mcp_url, session))


def test_tokens_from_persistent_storage_are_used_and_refreshed(auth, mcp, session, make_provider, send, registry):
    provider, _ = authorized(auth, mcp, session, make_provider, send)
    expire(registry, provider)
    # A new process: same storage, fresh OAuthClient without cached discovery.
    client = OAuthClient(make_provider(storage=provider.storage), mcp.mcp_url, session)

    assert send(client).status_code == 200

    assert auth.paths() == ["GET /.well-known/oauth-authorization-server", "POST /token"]
    assert auth.requests[-1].form["grant_type"] == "refresh_token"


def test_check_url(auth, mcp, session, make_provider):
    client = OAuthClient(make_provider(), mcp.mcp_url, session)
    client.check_url(mcp.mcp_url)
    client.check_url(mcp.mcp_url.replace("/mcp", "/x/../mcp"))
    for url in (
        mcp.mcp_url + "/other",
        mcp.mcp_url.replace("/mcp", "/mcpx"),
        mcp.mcp_url + "?tenant=b",
        auth.base_url + "/mcp",
        "http://example.com/mcp",
        "ftp://127.0.0.1/mcp",
    ):
        with pytest.raises(InsecureURLError):
            client.check_url(url)


def test_check_url_on_https(make_provider, session):
    client = OAuthClient(make_provider(), "https://Example.COM:443/mcp?tenant=a", session)
    client.check_url("https://example.com/mcp?tenant=a")
    with pytest.raises(InsecureURLError):
        client.check_url("http://example.com/mcp?tenant=a")
    with pytest.raises(InsecureURLError):
        client.check_url("https://example.com:8443/mcp?tenant=a")


@pytest.mark.parametrize("url", ["http://example.com/mcp", "http://127.example.com/mcp", "mcp", ""])
def test_insecure_mcp_url_is_refused_at_construction(make_provider, session, url):
    with pytest.raises(InsecureURLError):
        OAuthClient(make_provider(), url, session)


def test_provider_type_is_checked(session):
    with pytest.raises(TypeError):
        OAuthClient(object(), "https://example.com/mcp", session)


def test_401_for_more_scope_on_a_just_issued_token_is_a_step_up(auth, mcp, session, make_provider):
    # A transport that does not pass successful responses to handle_response.
    mcp.challenge_scope = "mcp:read"
    client = OAuthClient(make_provider(), mcp.mcp_url, session)
    first = session.post(mcp.mcp_url, json={})
    assert client.handle_response(first) is True
    mcp.reject_all_tokens = True
    mcp.challenge_scope = "mcp:write"

    second = session.post(mcp.mcp_url, json={}, headers=client.auth_headers())
    assert client.handle_response(second) is True
    assert [r.query["scope"] for r in auth.requests_to("/authorize")] == ["mcp:read", "mcp:read mcp:write"]

    third = session.post(mcp.mcp_url, json={}, headers=client.auth_headers())
    with pytest.raises(AuthorizationError, match="just issued"):
        client.handle_response(third)
