"""The HTTP transport with a real OAuth provider: a 401 runs the whole flow, then the request is retried."""

from __future__ import annotations

import typing as t

import pytest
import requests
from requests.adapters import HTTPAdapter

from mcp_sdk.client import HTTP
from mcp_sdk.client.oauth import ClientCredentialsProvider, InMemoryStorage, InsecureURLError
from spec.support.oauth_fixture import FixtureServer, Registry, browser_provider

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "spec", "version": "1"}},
}


def servers() -> tuple[FixtureServer, FixtureServer]:
    registry = Registry()
    auth = FixtureServer(authorization_server=True, registry=registry)
    mcp = FixtureServer(resource_server=True, registry=registry)
    mcp.authorization_server_url = auth.issuer
    return auth, mcp


def test_authorization_code_flow_through_the_transport() -> None:
    auth, mcp = servers()
    provider, visited = browser_provider()
    transport = HTTP(url=mcp.mcp_url, oauth=provider, timeout=10, standalone_stream=False)
    try:
        response = transport.send_request(INITIALIZE)
    finally:
        transport.close()
        mcp.close()
        auth.close()
    assert response["result"]["ok"] is True
    assert len(visited) == 1
    assert mcp.paths() == ["POST /mcp", "GET /.well-known/oauth-protected-resource/mcp", "POST /mcp"]
    assert auth.paths() == ["GET /.well-known/oauth-authorization-server", "POST /register", "GET /authorize", "POST /token"]
    first, retried = mcp.requests_to("/mcp", "POST")
    assert "Authorization" not in first.headers and "authorization" not in first.headers
    token = t.cast(dict, provider.tokens())["access_token"]
    assert {k.lower(): v for k, v in retried.headers.items()}["authorization"] == f"Bearer {token}"
    assert retried.json == INITIALIZE


def test_client_credentials_token_is_reused() -> None:
    auth, mcp = servers()
    auth.clients["svc"] = {"client_secret": "s3cret", "token_endpoint_auth_method": "client_secret_basic"}
    provider = ClientCredentialsProvider(client_id="svc", client_secret="s3cret")
    transport = HTTP(url=mcp.mcp_url, oauth=provider, timeout=10, standalone_stream=False)
    try:
        transport.send_request(INITIALIZE)
        transport.send_request(INITIALIZE)  # the fixture answers every request as id 1
    finally:
        transport.close()
        mcp.close()
        auth.close()
    # One 401 and one token request; the second call carries the token from the start.
    assert mcp.paths() == ["POST /mcp", "GET /.well-known/oauth-protected-resource/mcp", "POST /mcp", "POST /mcp"]
    assert auth.paths().count("POST /token") == 1


def _token_provider() -> ClientCredentialsProvider:
    storage = InMemoryStorage()
    storage.save_tokens({"access_token": "SECRET-TOKEN", "token_type": "Bearer"})
    return ClientCredentialsProvider(client_id="spec", client_secret="spec-secret", storage=storage)


def _retarget(url: str, server: FixtureServer) -> str:
    return server.mcp_url.rsplit("/", 1)[0] + "/" + url.split("/", 3)[3]


def _assert_the_token_never_leaves(session_for: t.Callable[[FixtureServer], requests.Session]) -> None:
    """A transport whose ``session`` sends MCP requests to another server refuses before either is reached."""
    auth, mcp = servers()
    evil = FixtureServer(resource_server=True)
    transport = HTTP(url=mcp.mcp_url, oauth=_token_provider(), session=session_for(evil), timeout=10, standalone_stream=False)
    try:
        with pytest.raises(InsecureURLError):
            transport.send_request(INITIALIZE)
    finally:
        transport.close()
        for server in (mcp, auth, evil):
            server.close()
    assert evil.paths() == []
    assert mcp.paths() == []


def test_a_session_that_rewrites_the_url_never_sends_the_token_elsewhere() -> None:
    def session_for(evil: FixtureServer) -> requests.Session:
        class Rewriting(requests.Session):
            def prepare_request(self, request: requests.Request) -> requests.PreparedRequest:
                prepared = super().prepare_request(request)
                prepared.url = _retarget(t.cast(str, prepared.url), evil)
                return prepared

        return Rewriting()

    _assert_the_token_never_leaves(session_for)


def test_an_adapter_that_rewrites_the_url_in_send_never_connects_elsewhere_with_the_token() -> None:
    def session_for(evil: FixtureServer) -> requests.Session:
        class Rewriting(HTTPAdapter):
            def send(self, request: requests.PreparedRequest, *args: t.Any, **kwargs: t.Any) -> requests.Response:
                request.url = _retarget(t.cast(str, request.url), evil)
                return super().send(request, *args, **kwargs)

        session = requests.Session()
        session.mount("http://", Rewriting())
        return session

    _assert_the_token_never_leaves(session_for)


def test_the_url_error_is_reachable_under_its_ruby_name() -> None:
    assert HTTP.InsecureURLError is InsecureURLError
