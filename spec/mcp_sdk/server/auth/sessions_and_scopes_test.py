"""What an authenticated caller sees: its own sessions only, the items its scopes allow, server_context.auth."""

from __future__ import annotations

import json
import threading

import pytest
import requests

from mcp_sdk.server.auth import Principal
from mcp_sdk.server.transports.streamable_http.sessions.deployment import ENDED
from spec.support.http_client import messages_of, request, tool_call
from spec.support.protected_server import ADMIN_URI, PUBLIC_URI


def metadata_url(protected) -> str:
    return protected.url.rsplit("/mcp", 1)[0] + "/.well-known/oauth-protected-resource/mcp"


def test_server_context_auth_is_the_principal_never_the_token(issuer, protect, clients):
    protected = protect()
    token = issuer.mint(aud=protected.url, scope="mcp read", client_id="app-1")
    client = clients(protected.url, token)
    client.initialize()
    [response] = client.call(tool_call("whoami"))
    assert response["result"]["structuredContent"] == {"subject": "alice", "client_id": "app-1", "scopes": ["mcp", "read"]}
    assert token not in json.dumps(response)


def test_a_session_belongs_to_its_principal(issuer, protect, clients):
    protected = protect()
    alice = clients(protected.url, issuer.mint(aud=protected.url))
    alice.initialize()
    bob = clients(protected.url, issuer.mint(aud=protected.url, sub="bob"))
    bob.session_id, bob.protocol_version = alice.session_id, alice.protocol_version

    with bob.post(tool_call("whoami")) as response:
        assert response.status_code == 404
        assert response.json()["error"]["message"] == ENDED  # nothing said of whose session it is
    with bob.get(bob.headers(Accept="text/event-stream", **{"Last-Event-ID": "1-1"})) as response:
        assert response.status_code == 404
    with bob.get() as response:
        assert response.status_code == 404
    assert bob.delete().status_code == 404
    # Nor may bob re-initialize over it.
    with bob.post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}}) as response:
        assert response.status_code == 404

    [answer] = alice.call(tool_call("whoami"))  # alice's session is untouched
    assert answer["result"]["structuredContent"]["subject"] == "alice"
    assert alice.delete().status_code == 204


def test_the_same_user_through_another_client_is_another_principal(issuer, protect, clients):
    protected = protect()
    alice = clients(protected.url, issuer.mint(aud=protected.url, client_id="app-1"))
    alice.initialize()
    other_app = clients(protected.url, issuer.mint(aud=protected.url, client_id="app-2"))
    other_app.session_id, other_app.protocol_version = alice.session_id, alice.protocol_version
    with other_app.post(tool_call("whoami")) as response:
        assert response.status_code == 404


def test_a_fresh_token_of_the_same_principal_keeps_the_session(issuer, protect, clients):
    protected = protect()
    client = clients(protected.url, issuer.mint(aud=protected.url))
    client.initialize()
    client.http.headers["Authorization"] = "Bearer " + issuer.mint(aud=protected.url, scope="mcp extra")
    [answer] = client.call(tool_call("whoami"))
    assert answer["result"]["structuredContent"]["scopes"] == ["extra", "mcp"]


def test_items_needing_a_scope_are_hidden_from_lists(issuer, protect, clients):
    protected = protect()
    plain = clients(protected.url, issuer.mint(aud=protected.url))
    plain.initialize()
    admin = clients(protected.url, issuer.mint(aud=protected.url, scope="mcp admin"))
    admin.initialize()

    def names(client, method, key, field):
        [answer] = client.call(request(method))
        return [item[field] for item in answer["result"][key]]

    assert names(plain, "tools/list", "tools", "name") == ["whoami"]
    assert names(admin, "tools/list", "tools", "name") == ["whoami", "admin_report"]
    assert names(plain, "prompts/list", "prompts", "name") == []
    assert names(admin, "prompts/list", "prompts", "name") == ["admin_prompt"]
    assert names(plain, "resources/list", "resources", "uri") == [PUBLIC_URI]
    assert names(admin, "resources/list", "resources", "uri") == [PUBLIC_URI, ADMIN_URI]
    assert names(plain, "tools/list", "tools", "name") == ["whoami"]  # the cached listing was not changed
    [listed] = admin.call(request("tools/list"))
    assert all("requiredScopes" not in tool and "required_scopes" not in tool for tool in listed["result"]["tools"])


@pytest.mark.parametrize(
    "message",
    [
        tool_call("admin_report"),
        request("prompts/get", {"name": "admin_prompt"}),
        request("resources/read", {"uri": ADMIN_URI}),
        request("resources/subscribe", {"uri": ADMIN_URI}),
        request("completion/complete", {"ref": {"type": "ref/prompt", "name": "admin_prompt"}, "argument": {"name": "a", "value": ""}}),
        [tool_call("whoami", id=1), tool_call("admin_report", id=2)],
    ],
    ids=["tool", "prompt", "resource", "subscribe", "completion", "batch"],
)
def test_using_an_item_without_its_scope_is_403_with_a_step_up_challenge(issuer, protect, clients, message):
    protected = protect()
    client = clients(protected.url, issuer.mint(aud=protected.url))
    client.initialize("2025-03-26" if type(message) is list else "2025-11-25")  # batches: 2025-03-26 only
    with client.post(message) as response:
        assert response.status_code == 403
        assert response.headers["WWW-Authenticate"] == (
            'Bearer error="insufficient_scope", error_description="the token lacks a required scope", '
            f'scope="mcp admin", resource_metadata="{metadata_url(protected)}"'
        )
        assert response.json()["error"]["message"] == "Forbidden: insufficient scope (requires mcp admin)"
    # Step up: the same user with a token carrying the scope, on the same session.
    client.http.headers["Authorization"] = "Bearer " + issuer.mint(aud=protected.url, scope="mcp admin")
    with client.post(message) as response:
        assert response.status_code == 200
        assert "error" not in json.dumps(messages_of(response))


def test_stateless_mode_authenticates_every_request(issuer, protect):
    protected = protect(stateless=True)
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json", "MCP-Protocol-Version": "2025-11-25"}
    with requests.post(protected.url, json=tool_call("whoami"), headers=headers, timeout=30) as response:
        assert response.status_code == 401
    headers["Authorization"] = "Bearer " + issuer.mint(aud=protected.url, sub="carol")
    with requests.post(protected.url, json=tool_call("whoami"), headers=headers, timeout=30) as response:
        assert response.status_code == 200
        [answer] = messages_of(response)
    assert answer["result"]["structuredContent"]["subject"] == "carol"


def test_the_metadata_endpoint(issuer, protect):
    protected = protect()
    url = metadata_url(protected)
    with requests.get(url, timeout=30) as response:
        assert response.status_code == 200
        assert response.headers["Content-Type"] == "application/json"
        assert response.headers["Access-Control-Allow-Origin"] == "*"
        assert response.json() == {
            "resource": protected.url,
            "authorization_servers": [issuer.issuer],
            "scopes_supported": ["mcp"],
            "bearer_methods_supported": ["header"],
        }
    with requests.post(url, timeout=30) as response:
        assert (response.status_code, response.headers["Allow"]) == (405, "GET, HEAD, OPTIONS")
    with requests.options(url, timeout=30) as response:
        assert response.status_code == 204


def test_the_handlers_refuse_too_when_no_http_check_ran(issuer):
    """The 2026 per-request sessions and any other transport reach the handlers' own check."""
    from spec.support.protected_server import build_server

    server = build_server()
    session = server.create_session(None)
    session.auth = Principal(subject="alice", scopes=["mcp"])
    answer = session.handle(tool_call("admin_report"))
    assert answer["error"] == {
        "code": -32600,
        "message": "Forbidden: insufficient scope (requires admin)",
        "data": {"requiredScopes": ["admin"]},
    }
    completion = request("completion/complete", {"ref": {"type": "ref/prompt", "name": "admin_prompt"}, "argument": {"name": "a", "value": ""}})
    assert session.handle(completion)["error"]["data"] == {"requiredScopes": ["admin"]}
    assert session.handle(request("resources/subscribe", {"uri": ADMIN_URI}))["error"]["data"] == {"requiredScopes": ["admin"]}
    session.auth = Principal(subject="alice", scopes=["mcp", "admin"])
    assert session.handle(tool_call("admin_report"))["result"]["content"] == [{"type": "text", "text": "all is well"}]
    assert session.handle(completion)["result"]["completion"] == {"values": [], "hasMore": False}


def test_without_authentication_nothing_is_restricted():
    """Stdio and unauthenticated HTTP have no principal: every item is listed and usable."""
    from spec.support.protected_server import build_server

    server = build_server()
    session = server.create_session(None)
    assert [tool["name"] for tool in session.handle(request("tools/list"))["result"]["tools"]] == ["whoami", "admin_report"]
    assert session.handle(tool_call("admin_report"))["result"]["isError"] is False


# -- protocol 2026-07-28: no session, the principal on each request -----------------

MODERN = "2026-07-28"


def modern_post(url: str, token: str | None, method: str, params: dict | None = None, name: str | None = None) -> requests.Response:
    params = {**(params or {}), "_meta": {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}}
    headers = {
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        "MCP-Protocol-Version": MODERN,
        "Mcp-Method": method,
    }
    if name is not None:
        headers["Mcp-Name"] = name
    if token is not None:
        headers["Authorization"] = "Bearer " + token
    with requests.post(url, json={"jsonrpc": "2.0", "id": 1, "method": method, "params": params}, headers=headers, timeout=30) as response:
        response.content  # read it whole before the connection closes
        return response


def modern_result(response: requests.Response) -> dict:
    assert response.status_code == 200, response.text
    [answer] = messages_of(response)
    return answer["result"]


def test_modern_requests_are_authenticated_and_see_only_their_items(issuer, protect):
    protected = protect()
    assert modern_post(protected.url, None, "tools/list").status_code == 401
    plain = issuer.mint(aud=protected.url, sub="mona")
    admin = issuer.mint(aud=protected.url, sub="mona", scope="mcp admin")
    assert [tool["name"] for tool in modern_result(modern_post(protected.url, plain, "tools/list"))["tools"]] == ["whoami"]
    assert [tool["name"] for tool in modern_result(modern_post(protected.url, admin, "tools/list"))["tools"]] == ["whoami", "admin_report"]
    whoami = modern_result(modern_post(protected.url, plain, "tools/call", {"name": "whoami"}, name="whoami"))
    assert whoami["structuredContent"] == {"subject": "mona", "client_id": "test-client", "scopes": ["mcp"]}
    refused = modern_post(protected.url, plain, "tools/call", {"name": "admin_report"}, name="admin_report")
    assert refused.status_code == 403
    assert 'error="insufficient_scope", error_description="the token lacks a required scope", scope="mcp admin"' in refused.headers["WWW-Authenticate"]
    allowed = modern_result(modern_post(protected.url, admin, "tools/call", {"name": "admin_report"}, name="admin_report"))
    assert allowed["content"] == [{"type": "text", "text": "all is well"}]
    read = modern_post(protected.url, plain, "resources/read", {"uri": ADMIN_URI}, name=ADMIN_URI)
    assert read.status_code == 403


def test_scope_hierarchies(issuer, protect, clients):
    """A broader scope implies narrower ones (2026-07-28 authorization, "Step-Up Authorization Flow")."""
    protected = protect(auth_options={"implied_scopes": {"org:owner": ["admin", "mcp"]}})
    owner = clients(protected.url, issuer.mint(aud=protected.url, scope="org:owner"))
    owner.initialize()
    [listed] = owner.call(request("tools/list"))
    assert [tool["name"] for tool in listed["result"]["tools"]] == ["whoami", "admin_report"]
    [answer] = owner.call(tool_call("whoami"))
    assert answer["result"]["structuredContent"]["scopes"] == ["admin", "mcp", "org:owner"]


def test_audiences_compare_in_canonical_form(issuer, protect):
    """Uppercase scheme and host, and a trailing slash on an empty path, name the same resource."""
    from spec.mcp_sdk.server.auth.bearer_auth_test import post_initialize

    protected = protect()
    shouted = protected.url.replace("http://127.0.0.1", "HTTP://127.0.0.1")
    assert post_initialize(protected.url, "Bearer " + issuer.mint(aud=shouted)).status_code == 200
    assert post_initialize(protected.url, "Bearer " + issuer.mint(aud=protected.url + "/other")).status_code == 401


# -- subscriptions/listen (2026-07-28) names resources too (issue 19, item 4) -----------

TAG = "io.modelcontextprotocol/subscriptionId"


def test_listening_to_a_resource_without_its_scope_is_403_as_subscribing_is(issuer, protect):
    protected = protect()
    plain = issuer.mint(aud=protected.url, sub="mona")
    from spec.support.modern_http import ModernHTTP

    with ModernHTTP(protected.url) as client:
        client.http.headers["Authorization"] = "Bearer " + plain
        message = client.message("subscriptions/listen", {"notifications": {"resourceSubscriptions": [PUBLIC_URI, ADMIN_URI]}})
        with client.http.post(protected.url, json=message, headers=client.headers(message), timeout=30, stream=True) as refused:
            assert refused.status_code == 403  # before the fix: 200 and a stream carrying admin's updates
            refused.content
    assert refused.headers["WWW-Authenticate"] == (
        'Bearer error="insufficient_scope", error_description="the token lacks a required scope", '
        f'scope="mcp admin", resource_metadata="{metadata_url(protected)}"'
    )
    assert refused.json() == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32600, "message": "Forbidden: insufficient scope (requires mcp admin)"},
    }


def test_a_listen_stream_never_carries_an_update_of_a_resource_the_caller_may_not_read(issuer, protect):
    """Refused up front when the filter names it; dropped per update when the scoped resource came later."""
    from mcp_sdk import Resource
    from spec.support.modern_http import ModernHTTP

    protected = protect()
    later = "memo://later"
    with ModernHTTP(protected.url) as client:
        client.http.headers["Authorization"] = "Bearer " + issuer.mint(aud=protected.url, sub="mona")
        stream = client.stream("subscriptions/listen", {"notifications": {"resourceSubscriptions": [later, PUBLIC_URI]}})
        ack = next(stream)
        assert ack["params"]["notifications"] == {"resourceSubscriptions": [later, PUBLIC_URI]}
        protected.server.add_resource(Resource(uri=later, name="later", required_scopes=["admin"]))
        protected.server.notify_resources_updated(later)
        protected.server.notify_resources_updated(PUBLIC_URI)
        update = next(stream)
        protected.server.close_subscriptions()
        rest = list(stream)
    assert update == {"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"_meta": {TAG: ack["params"]["_meta"][TAG]}, "uri": PUBLIC_URI}}
    assert [message.get("method") for message in rest] == [None]  # only the closing result


def test_a_caller_with_the_scope_hears_the_update(issuer, protect):
    from spec.support.modern_http import ModernHTTP

    protected = protect()
    with ModernHTTP(protected.url) as client:
        client.http.headers["Authorization"] = "Bearer " + issuer.mint(aud=protected.url, sub="mona", scope="mcp admin")
        stream = client.stream("subscriptions/listen", {"notifications": {"resourceSubscriptions": [ADMIN_URI]}})
        next(stream)
        protected.server.notify_resources_updated(ADMIN_URI)
        assert next(stream)["params"]["uri"] == ADMIN_URI
        protected.server.close_subscriptions()
        list(stream)


def test_the_listen_handler_refuses_too_when_no_http_check_ran():
    from spec.support.protected_server import build_server

    server = build_server()
    session = server.create_session(None)
    session.auth = Principal(subject="alice", scopes=["mcp"])
    listen = request("subscriptions/listen", {"notifications": {"resourceSubscriptions": [ADMIN_URI]}})
    listen["params"]["_meta"] = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}
    answers: list[dict] = []
    handling = threading.Thread(target=lambda: answers.append(session.handle(listen)))
    handling.start()
    handling.join(10)
    server.close_subscriptions()  # before the fix the listen request was served: end it
    handling.join(10)
    assert answers[0]["error"] == {
        "code": -32600,
        "message": "Forbidden: insufficient scope (requires admin)",
        "data": {"requiredScopes": ["admin"]},
    }
