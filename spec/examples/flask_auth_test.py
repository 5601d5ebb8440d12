"""examples/flask_auth.py on 127.0.0.1: Flask-Login users by cookie, OAuth clients by bearer token."""

from __future__ import annotations

import typing as t

import pytest
import requests

from spec.support.auth_server import JWTAuthorizationServer
from spec.support.http_client import Client, request, tool_call
from spec.support.http_server import PYTHON, ROOT, ServerProcess
from spec.support.oauth_clients import official_client, oauth_client, signed_in
from spec.support.oauth_fixture import Served


@pytest.fixture
def issuer() -> t.Iterator[JWTAuthorizationServer]:
    app = JWTAuthorizationServer("RS256", subject="oauth-user")
    served = Served(app)
    yield app
    served.close()


@pytest.fixture
def example(issuer: JWTAuthorizationServer) -> t.Iterator[ServerProcess]:
    with ServerProcess([PYTHON, str(ROOT / "examples" / "flask_auth.py"), "--port", "{port}", "--issuer", issuer.issuer]) as server:
        yield server


def test_flask_login_users_reach_mcp_with_their_session(example):
    with signed_in(example.base, example.url, "bob") as bob:
        bob.initialize()
        [answer] = bob.call(tool_call("whoami"))
        assert answer["result"]["structuredContent"] == {"subject": "bob", "scopes": ["mcp"]}
        [listed] = bob.call(request("tools/list"))
        assert [tool["name"] for tool in listed["result"]["tools"]] == ["whoami"]
        with bob.post(tool_call("save_note", {"text": "hi"})) as response:
            assert response.status_code == 403
        session_id = bob.session_id
    with signed_in(example.base, example.url, "ada") as ada:
        ada.initialize()
        [listed] = ada.call(request("tools/list"))
        assert [tool["name"] for tool in listed["result"]["tools"]] == ["whoami", "save_note"]
        [saved] = ada.call(tool_call("save_note", {"text": "hi"}))
        assert saved["result"]["content"] == [{"type": "text", "text": "1 notes"}]
        ada.session_id = session_id  # bob's session: not ada's to use
        with ada.post(tool_call("whoami")) as response:
            assert response.status_code == 404


def test_a_wrong_password_and_no_credentials(example):
    with requests.post(example.base + "/login", data={"username": "ada", "password": "nope"}, timeout=30) as response:
        assert response.status_code == 401
    with Client(example.url, requests.Session()) as anonymous:
        with anonymous.post({"jsonrpc": "2.0", "id": 0, "method": "ping"}) as response:
            assert response.status_code == 401
            assert response.headers["WWW-Authenticate"] == (
                f'Bearer scope="mcp", resource_metadata="{example.base}/.well-known/oauth-protected-resource/mcp"'
            )
    with requests.get(example.base + "/.well-known/oauth-protected-resource/mcp", timeout=30) as response:
        assert response.json()["resource"] == example.url


def test_our_client_signs_in_with_oauth_and_steps_up(example, issuer):
    client, visited = oauth_client(example.url)
    with client:
        client.connect()
        whoami = client.call_tool("whoami")
        assert whoami["result"]["structuredContent"] == {"subject": "oauth-user", "scopes": ["mcp"]}
        assert len(visited) == 1 and "scope=mcp" in visited[0]
        assert [tool.name for tool in client.tools()] == ["whoami"]
        saved = client.call_tool("save_note", arguments={"text": "from oauth"})  # 403: the client asks for notes:write
        assert saved["result"]["content"] == [{"type": "text", "text": "1 notes"}]
        assert len(visited) == 2 and "notes%3Awrite" in visited[1]
    assert issuer.paths().count("POST /token") == 2


def test_the_official_python_sdk_signs_in_with_oauth(example, issuer):
    assert official_client(example.url, "whoami", "save_note", '{"text": "official"}') == {
        "tools": ["whoami"],
        "results": [{"subject": "oauth-user", "scopes": ["mcp"]}, ["1 notes"]],
        "authorizations": 2,  # the 403 on save_note made it ask again, for "mcp notes:write"
    }
    assert [record.query.get("scope") for record in issuer.requests_to("/authorize")] == ["mcp", "mcp notes:write"]


def test_a_foreign_page_cannot_ride_the_session_cookie(example):
    with signed_in(example.base, example.url, "ada") as ada:
        headers = {**ada.headers(), "Origin": "https://evil.example.com"}
        with ada.post({"jsonrpc": "2.0", "id": 0, "method": "ping"}, headers=headers) as response:
            assert response.status_code == 403
