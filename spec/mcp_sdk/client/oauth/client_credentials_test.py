from __future__ import annotations

import base64

import pytest

from mcp_sdk import MCPError
from mcp_sdk.client.oauth import AuthorizationError, ClientCredentialsProvider, InMemoryStorage, OAuthClient
from spec.support.oauth_fixture import TEST_EC_PRIVATE_KEY, TEST_RSA_PRIVATE_KEY


def pre_register(auth, method, client_id="svc", secret="svc-secret"):
    auth.clients[client_id] = {"client_id": client_id, "client_secret": secret, "token_endpoint_auth_method": method}


def test_client_secret_basic(auth, mcp, session, send):
    pre_register(auth, "client_secret_basic")
    provider = ClientCredentialsProvider(client_id="svc", client_secret="svc-secret")

    assert send(OAuthClient(provider, mcp.mcp_url, session)).status_code == 200

    assert auth.paths() == ["GET /.well-known/oauth-authorization-server", "POST /token"]
    token = auth.requests_to("/token")[0]
    assert token.headers["Authorization"] == "Basic " + base64.b64encode(b"svc:svc-secret").decode()
    assert token.form == {"grant_type": "client_credentials", "resource": mcp.mcp_url}
    assert mcp.requests[-1].headers["Authorization"] == "Bearer " + provider.access_token


def test_client_secret_post_with_scope(auth, mcp, session, send):
    pre_register(auth, "client_secret_post")
    mcp.prm_overrides["scopes_supported"] = ["mcp:read", "offline_access"]
    auth.metadata_overrides["scopes_supported"] = ["mcp:read", "offline_access"]
    provider = ClientCredentialsProvider(
        client_id="svc", client_secret="svc-secret", token_endpoint_auth_method="client_secret_post"
    )

    assert send(OAuthClient(provider, mcp.mcp_url, session)).status_code == 200

    token = auth.requests_to("/token")[0]
    assert "Authorization" not in token.headers
    # No offline_access: the grant issues no refresh token.
    assert token.form == {
        "grant_type": "client_credentials",
        "resource": mcp.mcp_url,
        "scope": "mcp:read",
        "client_id": "svc",
        "client_secret": "svc-secret",
    }


def test_provider_scope_is_used_when_the_server_names_none(auth, mcp, session, send):
    pre_register(auth, "client_secret_basic")
    provider = ClientCredentialsProvider(client_id="svc", client_secret="svc-secret", scope="a b")

    send(OAuthClient(provider, mcp.mcp_url, session))

    assert auth.requests_to("/token")[0].form["scope"] == "a b"


def test_rejected_credentials(auth, mcp, session, send):
    pre_register(auth, "client_secret_basic")
    provider = ClientCredentialsProvider(client_id="svc", client_secret="wrong-secret")

    with pytest.raises(AuthorizationError, match=r"HTTP 401 .*\(invalid_client\)") as info:
        send(OAuthClient(provider, mcp.mcp_url, session))
    assert "wrong-secret" not in str(info.value)


def test_expired_token_reruns_the_grant_and_a_rejected_fresh_one_raises(auth, mcp, session, send, registry):
    pre_register(auth, "client_secret_basic")
    provider = ClientCredentialsProvider(client_id="svc", client_secret="svc-secret")
    client = OAuthClient(provider, mcp.mcp_url, session)
    send(client)
    del registry.access_tokens[provider.access_token]

    assert send(client).status_code == 200
    assert [r.form["grant_type"] for r in auth.requests_to("/token")] == ["client_credentials"] * 2

    mcp.reject_all_tokens = True
    del registry.access_tokens[provider.access_token]
    with pytest.raises(AuthorizationError, match="just issued"):
        send(client)


def test_credentials_are_not_written_to_storage(auth, mcp, session, send):
    pre_register(auth, "client_secret_basic")
    storage = InMemoryStorage()
    provider = ClientCredentialsProvider(client_id="svc", client_secret="svc-secret", storage=storage)

    send(OAuthClient(provider, mcp.mcp_url, session))

    assert storage.client_information() is None
    assert storage.tokens()["access_token"] == provider.access_token


@pytest.mark.parametrize("key, algorithm", [(TEST_EC_PRIVATE_KEY, "ES256"), (TEST_RSA_PRIVATE_KEY, "RS256")])
def test_private_key_jwt(auth, mcp, session, send, key, algorithm):
    auth.register_jwt_client("jwt-client", key)
    provider = ClientCredentialsProvider(
        client_id="jwt-client", token_endpoint_auth_method="private_key_jwt", private_key=key, signing_algorithm=algorithm
    )

    assert send(OAuthClient(provider, mcp.mcp_url, session)).status_code == 200

    token = auth.requests_to("/token")[0]
    assert sorted(token.form) == ["client_assertion", "client_assertion_type", "grant_type", "resource"]
    assert token.form["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    assert "Authorization" not in token.headers
    claims = auth.last_assertion["claims"]
    assert auth.last_assertion["header"] == {"alg": algorithm, "typ": "JWT"}
    assert (claims["iss"], claims["sub"], claims["aud"]) == ("jwt-client", "jwt-client", auth.issuer)
    assert claims["exp"] - claims["iat"] == 300 and claims["jti"]


def test_none_is_refused():
    with pytest.raises(ClientCredentialsProvider.InvalidCredentialsError):
        ClientCredentialsProvider(client_id="svc", client_secret="s", token_endpoint_auth_method="none")
    assert issubclass(ClientCredentialsProvider.InvalidCredentialsError, (MCPError, ValueError))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"client_id": "", "client_secret": "s"},
        {"client_id": "svc"},
        {"client_id": "svc", "client_secret": "  "},
        {"client_id": "svc", "client_secret": "s", "token_endpoint_auth_method": "tls_client_auth"},
        {"client_id": "svc", "token_endpoint_auth_method": "private_key_jwt"},
        {"client_id": "svc", "token_endpoint_auth_method": "private_key_jwt", "private_key": TEST_EC_PRIVATE_KEY},
        {
            "client_id": "svc",
            "client_secret": "s",
            "token_endpoint_auth_method": "private_key_jwt",
            "private_key": TEST_EC_PRIVATE_KEY,
            "signing_algorithm": "ES256",
        },
        {
            "client_id": "svc",
            "token_endpoint_auth_method": "private_key_jwt",
            "private_key": TEST_EC_PRIVATE_KEY,
            "signing_algorithm": "RS256",
        },
        {
            "client_id": "svc",
            "token_endpoint_auth_method": "private_key_jwt",
            "private_key": "not a key",
            "signing_algorithm": "ES256",
        },
    ],
)
def test_invalid_credentials(kwargs):
    with pytest.raises(ClientCredentialsProvider.InvalidCredentialsError):
        ClientCredentialsProvider(**kwargs)


def test_client_information_and_repr():
    provider = ClientCredentialsProvider(client_id="svc", client_secret="TOP-SECRET", scope="a")
    assert provider.client_information() == {
        "client_id": "svc",
        "client_secret": "TOP-SECRET",
        "token_endpoint_auth_method": "client_secret_basic",
    }
    assert provider.grant_type == "client_credentials"
    assert "TOP-SECRET" not in repr(provider)
    with pytest.raises(ClientCredentialsProvider.InvalidCredentialsError):
        provider.client_assertion("https://auth.example.com")
