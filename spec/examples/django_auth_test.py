"""examples/django_auth under gunicorn on 127.0.0.1: Django users by session cookie, OAuth clients by JWT."""

from __future__ import annotations

import os
import pathlib
import subprocess
import typing as t

import pytest
import requests

from spec.support.auth_server import JWTAuthorizationServer
from spec.support.http_client import Client, request, tool_call
from spec.support.http_server import PYTHON, ROOT, ServerProcess
from spec.support.oauth_clients import official_client, oauth_client, signed_in
from spec.support.oauth_fixture import Served

EXAMPLES = ROOT / "examples"
GUNICORN = [PYTHON, "-m", "gunicorn", "-k", "gthread", "--threads", "16", "-w", "1", "--graceful-timeout", "1"]
CREATE_USERS = """
import django; django.setup()
from django.contrib.auth.models import User
User.objects.create_user("grace", password="grace-password", is_staff=True)
User.objects.create_user("henry", password="henry-password")
"""


@pytest.fixture
def issuer() -> t.Iterator[JWTAuthorizationServer]:
    app = JWTAuthorizationServer("ES256", subject="oauth-user")
    served = Served(app)
    yield app
    served.close()


@pytest.fixture
def example(issuer: JWTAuthorizationServer, tmp_path: pathlib.Path) -> t.Iterator[ServerProcess]:
    env = {"DJANGO_SETTINGS_MODULE": "django_auth.settings", "DJANGO_AUTH_DB": str(tmp_path / "db.sqlite3"), "MCP_ISSUER": issuer.issuer}
    environment = {**os.environ, **env, "PYTHONPATH": os.pathsep.join([str(ROOT), str(EXAMPLES)])}
    for command in ([PYTHON, "-m", "django", "migrate", "-v", "0"], [PYTHON, "-c", CREATE_USERS]):
        completed = subprocess.run(command, cwd=EXAMPLES, env=environment, capture_output=True, text=True, timeout=120)
        assert completed.returncode == 0, completed.stderr[-3000:]
    command = [*GUNICORN, "-b", "127.0.0.1:{port}", "-e", "MCP_RESOURCE=http://127.0.0.1:{port}/mcp", "django_auth.wsgi:application"]
    with ServerProcess(command, cwd=EXAMPLES, env=env) as served:
        yield served


def test_django_users_reach_mcp_with_their_session(example):
    with signed_in(example.base, example.url, "henry") as henry:
        henry.initialize()
        [answer] = henry.call(tool_call("whoami"))
        assert answer["result"]["structuredContent"] == {"subject": "henry", "scopes": ["mcp"]}
        [listed] = henry.call(request("tools/list"))
        assert [tool["name"] for tool in listed["result"]["tools"]] == ["whoami"]
        with henry.post(tool_call("staff_report")) as response:
            assert response.status_code == 403
            assert 'error="insufficient_scope"' in response.headers["WWW-Authenticate"]
        henry_session = henry.session_id
    with signed_in(example.base, example.url, "grace") as grace:
        grace.initialize()
        [report] = grace.call(tool_call("staff_report"))
        assert report["result"]["content"] == [{"type": "text", "text": "2 users"}]
        grace.session_id = henry_session
        with grace.post(tool_call("whoami")) as response:
            assert response.status_code == 404
        assert grace.delete().status_code == 404


def test_anonymous_requests_are_pointed_at_the_metadata(example, issuer):
    with Client(example.url, requests.Session()) as anonymous:
        with anonymous.post({"jsonrpc": "2.0", "id": 0, "method": "ping"}) as response:
            assert response.status_code == 401
            assert response.headers["WWW-Authenticate"] == (
                f'Bearer scope="mcp", resource_metadata="{example.base}/.well-known/oauth-protected-resource/mcp"'
            )
    with requests.get(example.base + "/.well-known/oauth-protected-resource/mcp", timeout=30) as response:
        assert response.json() == {
            "resource": example.url,
            "authorization_servers": [issuer.issuer],
            "scopes_supported": ["mcp", "staff"],
            "bearer_methods_supported": ["header"],
        }
    with requests.post(example.base + "/login", data={"username": "grace", "password": "wrong"}, timeout=30) as response:
        assert response.status_code == 401


def test_our_client_signs_in_with_oauth(example):
    client, visited = oauth_client(example.url)
    with client:
        client.connect()
        whoami = client.call_tool("whoami")
        assert whoami["result"]["structuredContent"] == {"subject": "oauth-user", "scopes": ["mcp"]}
        report = client.call_tool("staff_report")  # 403, then a token with "staff" too
        assert report["result"]["content"] == [{"type": "text", "text": "2 users"}]
    assert len(visited) == 2


def test_the_official_python_sdk_signs_in_with_oauth(example):
    assert official_client(example.url, "whoami") == {
        "tools": ["whoami"],
        "results": [{"subject": "oauth-user", "scopes": ["mcp"]}],
        "authorizations": 1,
    }
