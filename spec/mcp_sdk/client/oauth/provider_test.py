from __future__ import annotations

import pytest

from mcp_sdk import MCPError
from mcp_sdk.client.oauth import InMemoryStorage, InsecureURLError, Provider

METADATA = {
    "client_name": "app",
    "redirect_uris": ["http://localhost:3030/callback"],
    "grant_types": ["authorization_code", "refresh_token"],
    "response_types": ["code"],
    "token_endpoint_auth_method": "none",
}


def build(**overrides):
    kwargs = {
        "client_metadata": METADATA,
        "redirect_uri": "http://localhost:3030/callback",
        "redirect_handler": lambda url: None,
        "callback_handler": lambda: ("code", "state"),
    }
    kwargs.update(overrides)
    return Provider(**kwargs)


def test_defaults():
    provider = build()
    assert provider.scope is None
    assert isinstance(provider.storage, InMemoryStorage)
    assert provider.client_id_metadata_document_url is None
    assert provider.wants_refresh_token()
    assert provider.grant_type == "authorization_code"
    assert provider.tokens() is None and provider.access_token is None


def test_storage_delegation():
    storage = InMemoryStorage()
    provider = build(storage=storage, scope=" a b ")
    provider.save_tokens({"access_token": "t"})
    provider.save_client_information({"client_id": "c"})
    assert storage.tokens() == {"access_token": "t"} and provider.access_token == "t"
    assert storage.client_information() == {"client_id": "c"}
    assert provider.scope == "a b"


def test_unregistered_redirect_uri():
    with pytest.raises(Provider.UnregisteredRedirectURIError):
        build(redirect_uri="http://localhost:4000/other")
    with pytest.raises(Provider.UnregisteredRedirectURIError):
        build(client_metadata={"client_name": "no redirect_uris"})
    assert issubclass(Provider.UnregisteredRedirectURIError, (MCPError, ValueError))


@pytest.mark.parametrize("uri", ["http://example.com/callback", "myapp://callback", "callback"])
def test_insecure_redirect_uri(uri):
    metadata = dict(METADATA, redirect_uris=[uri])
    with pytest.raises(Provider.InsecureRedirectURIError):
        build(client_metadata=metadata, redirect_uri=uri)
    assert issubclass(Provider.InsecureRedirectURIError, InsecureURLError)


def test_https_redirect_uri():
    metadata = dict(METADATA, redirect_uris=["https://app.example.com/cb"])
    assert build(client_metadata=metadata, redirect_uri="https://app.example.com/cb").redirect_uri == "https://app.example.com/cb"


@pytest.mark.parametrize(
    "url",
    [
        "http://client.example.com/client.json",
        "https://client.example.com",
        "https://client.example.com/client.json#x",
        "https://u:p@client.example.com/client.json",
        "https://client.example.com/a/../client.json",
        "https://client.example.com/client.json?v=1",
    ],
)
def test_invalid_client_id_metadata_document_url(url):
    with pytest.raises(Provider.InvalidClientIDMetadataDocumentURLError):
        build(client_id_metadata_document_url=url)


def test_valid_client_id_metadata_document_url():
    url = "https://client.example.com/oauth/client.json"
    assert build(client_id_metadata_document_url=url).client_id_metadata_document_url == url


def test_argument_types():
    with pytest.raises(TypeError):
        build(redirect_handler="not callable")
    with pytest.raises(TypeError):
        build(client_metadata=["redirect_uris"])
    with pytest.raises(TypeError):
        build(storage=object())
    with pytest.raises(TypeError):
        build(scope=["a"])


def test_wants_refresh_token():
    assert not build(client_metadata=dict(METADATA, grant_types=["authorization_code"])).wants_refresh_token()


def test_repr_hides_tokens():
    provider = build()
    provider.save_tokens({"access_token": "TOKEN-VALUE", "refresh_token": "REFRESH-VALUE"})
    assert "VALUE" not in repr(provider)
