"""Cross App Access (SEP-990): ID token -> ID-JAG at the IdP -> access token at the authorization server."""

from __future__ import annotations

import base64
import typing as t

import pytest

from mcp_sdk.client import HTTP
from mcp_sdk.client.oauth import AuthorizationError, CrossAppAccessProvider, InsecureURLError, OAuthClient
from spec.support.oauth_fixture import FixtureServer, Registry

ID_TOKEN = "id-token-of-the-signed-in-user"


@pytest.fixture
def idp(registry: Registry) -> t.Iterator[FixtureServer]:
    server = FixtureServer(authorization_server=True, registry=registry)
    server.id_tokens.add(ID_TOKEN)
    server.jag_client_id = "xaa-client"
    server.clients["idp-client"] = {"client_id": "idp-client", "token_endpoint_auth_method": "none"}
    yield server
    server.close()


@pytest.fixture
def registered(auth: FixtureServer) -> FixtureServer:
    auth.clients["xaa-client"] = {
        "client_id": "xaa-client",
        "client_secret": "xaa-secret",
        "token_endpoint_auth_method": "client_secret_basic",
    }
    return auth


def make_provider(idp: FixtureServer, **overrides: t.Any) -> CrossAppAccessProvider:
    kwargs: dict[str, t.Any] = {
        "client_id": "xaa-client",
        "client_secret": "xaa-secret",
        "id_token": ID_TOKEN,
        "idp_token_endpoint": idp.base_url + "/token",
        "idp_client_id": "idp-client",
    }
    kwargs.update(overrides)
    return CrossAppAccessProvider(**kwargs)


def test_the_whole_flow(idp, registered, mcp, session, send):
    provider = make_provider(idp)

    assert send(OAuthClient(provider, mcp.mcp_url, session)).status_code == 200

    assert idp.paths() == ["POST /token"]
    exchange = idp.requests_to("/token")[0]
    assert exchange.form == {
        "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange",
        "requested_token_type": "urn:ietf:params:oauth:token-type:id-jag",
        "audience": registered.issuer,
        "resource": mcp.mcp_url,
        "subject_token": ID_TOKEN,
        "subject_token_type": "urn:ietf:params:oauth:token-type:id_token",
        "client_id": "idp-client",
    }
    assert registered.paths() == ["GET /.well-known/oauth-authorization-server", "POST /token"]
    token = registered.requests_to("/token")[0]
    grant = token.form["assertion"]
    assert grant.startswith("jag-")
    assert token.form == {
        "grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer",
        "assertion": grant,
        "resource": mcp.mcp_url,
    }
    assert token.headers["Authorization"] == "Basic " + base64.b64encode(b"xaa-client:xaa-secret").decode()
    assert mcp.requests[-1].headers["Authorization"] == "Bearer " + t.cast(str, provider.access_token)
    # The ID token goes to the IdP only.
    for recorded in registered.requests + mcp.requests:
        assert ID_TOKEN not in repr(recorded)


def test_scope_and_idp_client_secret(idp, registered, mcp, session, send):
    idp.clients["idp-client"] = {"client_id": "idp-client", "client_secret": "idp-secret", "token_endpoint_auth_method": "client_secret_post"}
    registered.clients["xaa-client"]["token_endpoint_auth_method"] = "client_secret_post"
    mcp.prm_overrides["scopes_supported"] = ["mcp:read", "offline_access"]
    registered.metadata_overrides["scopes_supported"] = ["mcp:read", "offline_access"]
    provider = make_provider(idp, idp_client_secret="idp-secret", token_endpoint_auth_method="client_secret_post")

    send(OAuthClient(provider, mcp.mcp_url, session))

    exchange = idp.requests_to("/token")[0].form
    assert (exchange["client_id"], exchange["client_secret"], exchange["scope"]) == ("idp-client", "idp-secret", "mcp:read")
    token = registered.requests_to("/token")[0]
    assert "Authorization" not in token.headers
    # No offline_access: the jwt-bearer grant issues no refresh token.
    assert token.form["scope"] == "mcp:read"
    assert (token.form["client_id"], token.form["client_secret"]) == ("xaa-client", "xaa-secret")
    assert t.cast(dict, provider.tokens())["scope"] == "mcp:read"


def test_id_token_callable_is_asked_on_every_authorization(idp, registered, mcp, session, send):
    calls: list[int] = []

    def current_id_token() -> str:
        calls.append(1)
        return ID_TOKEN

    provider = make_provider(idp, id_token=current_id_token)
    client = OAuthClient(provider, mcp.mcp_url, session)
    send(client)
    provider.save_tokens(None)
    send(client)

    assert len(calls) == 2
    assert len(idp.requests_to("/token")) == 2


def test_idp_refusal_is_an_authorization_error_without_the_id_token(idp, registered, mcp, session, send):
    provider = make_provider(idp, id_token="an-id-token-the-idp-does-not-know")

    with pytest.raises(AuthorizationError, match=r"IdP token exchange returned HTTP 400 \(invalid_grant\)") as caught:
        send(OAuthClient(provider, mcp.mcp_url, session))

    assert "an-id-token" not in str(caught.value)
    assert registered.requests_to("/token") == []


def test_a_token_exchange_that_issues_no_id_jag_is_refused(idp, registered, mcp, session, send):
    idp.token_exchange_overrides["issued_token_type"] = "urn:ietf:params:oauth:token-type:access_token"
    provider = make_provider(idp)

    with pytest.raises(AuthorizationError, match="did not issue an ID-JAG"):
        send(OAuthClient(provider, mcp.mcp_url, session))

    assert registered.requests_to("/token") == []


def test_through_the_http_transport(idp, registered, mcp):
    provider = make_provider(idp)
    transport = HTTP(url=mcp.mcp_url, oauth=provider, timeout=10, standalone_stream=False)
    try:
        response = transport.send_request({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    finally:
        transport.close()

    assert response["result"]["ok"] is True
    assert mcp.paths() == ["POST /mcp", "GET /.well-known/oauth-protected-resource/mcp", "POST /mcp"]


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"client_secret": ""}, "client_secret is required"),
        ({"idp_client_id": " "}, "idp_client_id is required"),
        ({"id_token": ""}, "id_token must be"),
        ({"token_endpoint_auth_method": "none"}, "token_endpoint_auth_method must be one of"),
        ({"idp_client_secret": ""}, "idp_client_secret must be"),
    ],
)
def test_configuration_is_checked(overrides, message):
    kwargs: dict[str, t.Any] = {
        "client_id": "c",
        "client_secret": "s",
        "id_token": "i",
        "idp_token_endpoint": "https://idp.example.com/token",
        "idp_client_id": "ic",
    }
    kwargs.update(overrides)
    with pytest.raises(CrossAppAccessProvider.InvalidConfigurationError, match=message):
        CrossAppAccessProvider(**kwargs)


def test_the_idp_token_endpoint_must_be_secure():
    with pytest.raises(InsecureURLError):
        CrossAppAccessProvider(
            client_id="c", client_secret="s", id_token="i", idp_token_endpoint="http://idp.example.com/token", idp_client_id="ic"
        )


def test_repr_shows_no_secrets():
    provider = CrossAppAccessProvider(
        client_id="c", client_secret="s3cret", id_token="tok3n", idp_token_endpoint="https://idp.example.com/token?k=v", idp_client_id="ic"
    )
    assert "s3cret" not in repr(provider) and "tok3n" not in repr(provider) and "k=v" not in repr(provider)
