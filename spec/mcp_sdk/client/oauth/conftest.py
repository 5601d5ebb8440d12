from __future__ import annotations

import typing as t

import pytest
import requests

from mcp_sdk.client.oauth import OAuthClient, Provider
from spec.support.oauth_fixture import FixtureServer, Registry, browser

REDIRECT_URI = "http://127.0.0.1:9/callback"


@pytest.fixture
def registry() -> Registry:
    return Registry()


@pytest.fixture
def auth(registry: Registry) -> t.Iterator[FixtureServer]:
    server = FixtureServer(authorization_server=True, registry=registry)
    yield server
    server.close()


@pytest.fixture
def mcp(registry: Registry, auth: FixtureServer) -> t.Iterator[FixtureServer]:
    server = FixtureServer(resource_server=True, registry=registry)
    server.authorization_server_url = auth.issuer
    yield server
    server.close()


@pytest.fixture
def session() -> t.Iterator[requests.Session]:
    with requests.Session() as s:
        yield s


class User:
    """The fake user agent behind a Provider's handlers."""

    def __init__(self) -> None:
        self.redirect_handler, self.callback_handler, self.visited = browser()


@pytest.fixture
def user() -> User:
    return User()


@pytest.fixture
def make_provider(user: User) -> t.Callable[..., Provider]:
    def make(**overrides: t.Any) -> Provider:
        metadata = {
            "client_name": "spec client",
            "redirect_uris": [REDIRECT_URI],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
        }
        metadata.update(overrides.pop("client_metadata", {}))
        kwargs: dict[str, t.Any] = {
            "client_metadata": metadata,
            "redirect_uri": REDIRECT_URI,
            "redirect_handler": user.redirect_handler,
            "callback_handler": user.callback_handler,
        }
        kwargs.update(overrides)
        return Provider(**kwargs)

    return make


Send = t.Callable[[OAuthClient], requests.Response]


@pytest.fixture
def send(session: requests.Session) -> Send:
    """What the transport does: check the URL, send with auth headers, hand every
    response to ``handle_response``, and retry once when told to."""

    def send(client: OAuthClient) -> requests.Response:
        url = client.server_url
        client.check_url(url)
        body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        response = session.post(url, json=body, headers=client.auth_headers())
        if client.handle_response(response):
            response.close()
            response = session.post(url, json=body, headers=client.auth_headers())
            client.handle_response(response)
        response.close()
        return response

    return send
