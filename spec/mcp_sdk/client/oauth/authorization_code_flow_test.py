from __future__ import annotations

import base64
import hashlib
from urllib.parse import urlsplit

import pytest

from mcp_sdk.client.oauth import AuthorizationError, InMemoryStorage, OAuthClient

from .conftest import REDIRECT_URI


def test_full_flow_with_dynamic_client_registration(auth, mcp, session, make_provider, user, send):
    provider = make_provider()
    client = OAuthClient(provider, mcp.mcp_url, session)

    response = send(client)

    assert response.status_code == 200
    assert mcp.paths() == [
        "POST /mcp",
        "GET /.well-known/oauth-protected-resource/mcp",
        "POST /mcp",
    ]
    assert auth.paths() == [
        "GET /.well-known/oauth-authorization-server",
        "POST /register",
        "GET /authorize",
        "POST /token",
    ]
    registration = auth.requests_to("/register")[0]
    assert registration.json == {
        "client_name": "spec client",
        "redirect_uris": [REDIRECT_URI],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
        # SEP-837: a loopback redirect URI makes a native application.
        "application_type": "native",
    }
    client_id = provider.client_information()["client_id"]
    authorize = auth.requests_to("/authorize")[0]
    state = authorize.query.pop("state")
    challenge = authorize.query.pop("code_challenge")
    assert authorize.query == {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": REDIRECT_URI,
        "code_challenge_method": "S256",
        "resource": mcp.mcp_url,
    }
    assert len(state) >= 32
    token = auth.requests_to("/token")[0]
    verifier = token.form.pop("code_verifier")
    assert base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode() == challenge
    assert token.form == {
        "grant_type": "authorization_code",
        "code": token.form["code"],
        "redirect_uri": REDIRECT_URI,
        "resource": mcp.mcp_url,
        "client_id": client_id,
    }
    assert "Authorization" not in token.headers
    assert mcp.requests[-1].headers["Authorization"] == "Bearer " + provider.access_token
    assert user.visited == [auth.base_url + "/authorize?" + urlsplit(user.visited[0]).query]


def pre_registered(auth, method="client_secret_post", secret="s3cret:/+ x"):
    storage = InMemoryStorage()
    info = {"client_id": "pre id", "client_secret": secret, "token_endpoint_auth_method": method}
    storage.save_client_information(info)
    auth.clients["pre id"] = dict(info, redirect_uris=[REDIRECT_URI])
    return storage


def test_pre_registered_client_with_client_secret_post(auth, mcp, session, make_provider, send):
    provider = make_provider(storage=pre_registered(auth, "client_secret_post"))

    assert send(OAuthClient(provider, mcp.mcp_url, session)).status_code == 200

    assert "POST /register" not in auth.paths()
    token = auth.requests_to("/token")[0]
    assert token.form["client_id"] == "pre id"
    assert token.form["client_secret"] == "s3cret:/+ x"
    assert "Authorization" not in token.headers


def test_pre_registered_client_with_client_secret_basic(auth, mcp, session, make_provider, send):
    provider = make_provider(storage=pre_registered(auth, "client_secret_basic"))

    assert send(OAuthClient(provider, mcp.mcp_url, session)).status_code == 200

    token = auth.requests_to("/token")[0]
    # RFC 6749 section 2.3.1: each part form-urlencoded before base64.
    assert token.headers["Authorization"] == "Basic " + base64.b64encode(b"pre+id:s3cret%3A%2F%2B+x").decode()
    assert "client_id" not in token.form and "client_secret" not in token.form


def test_dcr_confidential_client_uses_the_registered_method(auth, mcp, session, make_provider, send):
    provider = make_provider(client_metadata={"token_endpoint_auth_method": "client_secret_basic"})

    assert send(OAuthClient(provider, mcp.mcp_url, session)).status_code == 200

    info = provider.client_information()
    token = auth.requests_to("/token")[0]
    raw = base64.b64decode(token.headers["Authorization"][6:]).decode()
    assert raw == f"{info['client_id']}:{info['client_secret']}"


CIMD_URL = "https://client.example.com/oauth/client.json"


def test_client_id_metadata_document_when_supported(auth, mcp, session, make_provider, send):
    auth.metadata_overrides["client_id_metadata_document_supported"] = True
    provider = make_provider(client_id_metadata_document_url=CIMD_URL)

    assert send(OAuthClient(provider, mcp.mcp_url, session)).status_code == 200

    assert "POST /register" not in auth.paths()
    assert auth.requests_to("/authorize")[0].query["client_id"] == CIMD_URL
    assert auth.requests_to("/token")[0].form["client_id"] == CIMD_URL
    assert provider.client_information() is None


def test_client_id_metadata_document_unsupported_falls_back_to_dcr(auth, mcp, session, make_provider, send):
    auth.metadata_overrides["client_id_metadata_document_supported"] = "true"  # not a JSON true
    provider = make_provider(client_id_metadata_document_url=CIMD_URL)

    assert send(OAuthClient(provider, mcp.mcp_url, session)).status_code == 200

    assert "POST /register" in auth.paths()
    assert auth.requests_to("/authorize")[0].query["client_id"] != CIMD_URL


def test_no_registration_endpoint_is_an_error(auth, mcp, session, make_provider, send):
    auth.metadata_overrides["registration_endpoint"] = None
    client = OAuthClient(make_provider(), mcp.mcp_url, session)

    with pytest.raises(AuthorizationError, match="no registration_endpoint"):
        send(client)
    assert "GET /authorize" not in auth.paths()


@pytest.mark.parametrize(
    "status, body, message",
    [
        (400, {"error": "invalid_client_metadata"}, "failed with HTTP 400"),
        (201, {"client_name": "x"}, "no client_id"),
        (201, ["client_id"], "not a JSON object"),
    ],
)
def test_bad_registration_responses(auth, mcp, session, make_provider, send, status, body, message):
    auth.registration_response = (status, body)

    with pytest.raises(AuthorizationError, match=message):
        send(OAuthClient(make_provider(), mcp.mcp_url, session))
    assert "GET /authorize" not in auth.paths()


def requested_scope(auth):
    return auth.requests_to("/authorize")[0].query.get("scope")


def test_scope_from_the_challenge_first(auth, mcp, session, make_provider, send):
    mcp.challenge_scope = "mcp:read"
    mcp.prm_overrides["scopes_supported"] = ["mcp:read", "mcp:write"]

    send(OAuthClient(make_provider(scope="mine"), mcp.mcp_url, session))

    assert requested_scope(auth) == "mcp:read"


def test_scope_from_prm_scopes_supported_next(auth, mcp, session, make_provider, send):
    mcp.prm_overrides["scopes_supported"] = ["mcp:read", "mcp:write"]

    send(OAuthClient(make_provider(scope="mine"), mcp.mcp_url, session))

    assert requested_scope(auth) == "mcp:read mcp:write"


def test_scope_from_the_provider_last(auth, mcp, session, make_provider, send):
    send(OAuthClient(make_provider(scope="mine other"), mcp.mcp_url, session))

    assert requested_scope(auth) == "mine other"


def test_no_scope_parameter_without_any_source(auth, mcp, session, make_provider, send):
    send(OAuthClient(make_provider(), mcp.mcp_url, session))

    assert "scope" not in auth.requests_to("/authorize")[0].query


def test_offline_access_added_when_wanted_and_advertised(auth, mcp, session, make_provider, send):
    auth.metadata_overrides["scopes_supported"] = ["mcp:read", "offline_access"]
    mcp.challenge_scope = "mcp:read"

    send(OAuthClient(make_provider(), mcp.mcp_url, session))

    assert requested_scope(auth) == "mcp:read offline_access"


def test_offline_access_not_requested_without_refresh_token_grant(auth, mcp, session, make_provider, send):
    auth.metadata_overrides["scopes_supported"] = ["mcp:read", "offline_access"]
    mcp.challenge_scope = "mcp:read offline_access"
    provider = make_provider(client_metadata={"grant_types": ["authorization_code"]})

    send(OAuthClient(provider, mcp.mcp_url, session))

    assert requested_scope(auth) == "mcp:read"


@pytest.mark.parametrize("source", ["challenge", "prm", "provider"])
def test_offline_access_stripped_when_not_advertised(auth, mcp, session, make_provider, send, source):
    scope = "offline_access mcp:read"
    if source == "challenge":
        mcp.challenge_scope = scope
    elif source == "prm":
        mcp.prm_overrides["scopes_supported"] = scope.split()
    provider = make_provider(scope=scope if source == "provider" else None)

    send(OAuthClient(provider, mcp.mcp_url, session))

    assert requested_scope(auth) == "mcp:read"


def test_state_mismatch_is_refused_before_the_code_is_exchanged(auth, mcp, session, make_provider, send):
    auth.tamper_state = "forged"

    with pytest.raises(AuthorizationError, match="state"):
        send(OAuthClient(make_provider(), mcp.mcp_url, session))
    assert "POST /token" not in auth.paths()
    assert mcp.requests_to("/mcp")[-1].headers.get("Authorization") is None


def test_missing_code_is_refused(auth, mcp, session, make_provider, send):
    provider = make_provider(callback_handler=lambda: (None, "x"))

    with pytest.raises(AuthorizationError, match="no code"):
        send(OAuthClient(provider, mcp.mcp_url, session))
    assert "POST /token" not in auth.paths()


@pytest.mark.parametrize("iss_ok", [True, False])
def test_rfc9207_iss_is_checked_when_the_callback_returns_it(auth, mcp, session, make_provider, user, send, iss_ok):
    auth.send_iss = True
    auth.metadata_overrides["authorization_response_iss_parameter_supported"] = True

    def callback():
        code, state = user.callback_handler()
        return code, state, auth.issuer if iss_ok else "https://evil.example.com"

    client = OAuthClient(make_provider(callback_handler=callback), mcp.mcp_url, session)
    if iss_ok:
        assert send(client).status_code == 200
    else:
        with pytest.raises(AuthorizationError, match="iss"):
            send(client)
        assert "POST /token" not in auth.paths()


def test_missing_iss_refused_when_the_server_promises_it(auth, mcp, session, make_provider, user, send):
    auth.metadata_overrides["authorization_response_iss_parameter_supported"] = True
    provider = make_provider(callback_handler=lambda: (*user.callback_handler(), None))

    with pytest.raises(AuthorizationError, match="iss"):
        send(OAuthClient(provider, mcp.mcp_url, session))


def test_callback_must_return_a_pair(auth, mcp, session, make_provider, send):
    with pytest.raises(AuthorizationError, match="callback_handler must return"):
        send(OAuthClient(make_provider(callback_handler=lambda: "code"), mcp.mcp_url, session))


@pytest.mark.parametrize("methods", [None, ["plain"]])
def test_refuses_without_s256_pkce(auth, mcp, session, make_provider, send, methods):
    auth.metadata_overrides["code_challenge_methods_supported"] = methods if methods else None

    with pytest.raises(AuthorizationError, match="PKCE"):
        send(OAuthClient(make_provider(), mcp.mcp_url, session))
    assert "GET /authorize" not in auth.paths()


def test_authorization_endpoint_query_is_kept(auth, mcp, session, make_provider, send):
    auth.metadata_overrides["authorization_endpoint"] = auth.base_url + "/authorize?tenant=a"

    send(OAuthClient(make_provider(), mcp.mcp_url, session))

    assert auth.requests_to("/authorize")[0].query["tenant"] == "a"


@pytest.mark.parametrize(
    "body, message",
    [
        ({"token_type": "Bearer"}, "no access_token"),
        ({"access_token": "x", "token_type": "mac"}, "not Bearer"),
        ("not json", "not a JSON object"),
    ],
)
def test_bad_token_responses(auth, mcp, session, make_provider, send, body, message):
    auth.token_response = (200, body)

    with pytest.raises(AuthorizationError, match=message):
        send(OAuthClient(make_provider(), mcp.mcp_url, session))


def test_token_error_names_the_oauth_error_code_only(auth, mcp, session, make_provider, send):
    auth.token_response = (400, {"error": "invalid_request", "error_description": "secret-echo"})

    with pytest.raises(AuthorizationError) as info:
        send(OAuthClient(make_provider(), mcp.mcp_url, session))
    assert "HTTP 400" in str(info.value) and "invalid_request" in str(info.value)
    assert "secret-echo" not in str(info.value)
