"""Changing what a server serves at run time (``remove_*``, ``disable_*``/``enable_*``, tags and their
filters) for each kind: what ``*/list`` shows, what a call or read answers, and the ``list_changed``
each change sends to 2025 sessions and to the subscription bus of 2026 listeners; wire checked against
the 2025-11-25 and 2026-07-28 schemas."""

from __future__ import annotations

import typing as t

import pytest

from mcp_sdk import NotRegisteredError, Prompt, Resource, ResourceTemplate, Server, Tool
from mcp_sdk.server.visibility import Visibility, template_matcher
from spec.support.modern import modern_request, serve
from spec.support.wire_schema import assert_valid_notification, assert_valid_response

LEGACY = "2025-11-25"


class Deploy(Tool):
    description = "Deploy"
    tags = {"admin", "ops"}

    @classmethod
    def call(cls) -> str:
        return "deployed"


class Greeting(Prompt):
    description = "Greet"
    tags = ["public"]

    @classmethod
    def template(cls, args: dict[str, t.Any]) -> Prompt.Result:
        return Prompt.Result(messages=[Prompt.Message(role="user", content={"type": "text", "text": "hi"})])


def build(**options: t.Any) -> Server:
    server = Server(name="vis", version="1.0.0", tools=[Deploy], prompts=[Greeting], **options)

    @server.tool(tags={"public"})
    def echo(message: str) -> str:
        """Say it back."""
        return message

    @server.tool
    def plain() -> str:
        """No tags."""
        return "plain"

    @server.resource("config://app", tags={"public"})
    def config() -> str:
        return "config"

    @server.resource("users://{id}/profile", tags={"internal"})
    def profile(id: str) -> str:
        return f"profile {id}"

    server.add_resource_template(ResourceTemplate(uri_template="logs://{day}", name="logs", tags={"ops"}))
    return server


class Wire:
    """A 2025 session on ``server`` that records what it is sent."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.sent: list[dict[str, t.Any]] = []
        self.session = server.create_session(lambda message, related: self.sent.append(message))
        self.events: list[tuple[str, str | None]] = []
        server.subscriptions.subscribe(self.events.append)
        init = {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "spec", "version": "1"}}
        self.request("initialize", init)

    def request(self, method: str, params: dict[str, t.Any] | None = None) -> dict[str, t.Any]:
        response = self.server.handle_message({"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}, self.session)
        assert_valid_response(method, response, LEGACY)
        return t.cast("dict[str, t.Any]", response)

    def names(self, kind: str) -> list[str]:
        method = {"tools": "tools/list", "prompts": "prompts/list", "resources": "resources/list",
                  "resourceTemplates": "resources/templates/list"}[kind]
        key = "uriTemplate" if kind == "resourceTemplates" else "uri" if kind == "resources" else "name"
        return [item[key] for item in self.request(method)["result"][kind]]

    def notified(self) -> list[str]:
        for message in self.sent:
            definition = {"notifications/tools/list_changed": "ToolListChangedNotification",
                          "notifications/prompts/list_changed": "PromptListChangedNotification",
                          "notifications/resources/list_changed": "ResourceListChangedNotification"}[message["method"]]
            assert_valid_notification(message, definition, LEGACY)
        methods = [message["method"] for message in self.sent]
        self.sent.clear()
        return methods


def test_tags_are_never_sent_on_the_wire() -> None:
    wire = Wire(build())
    assert wire.request("tools/list")["result"]["tools"][0] == {
        "name": "deploy", "description": "Deploy", "inputSchema": {"type": "object"},
    }
    assert wire.request("resources/list")["result"]["resources"] == [{"uri": "config://app", "name": "config"}]
    assert Deploy.tags == frozenset({"admin", "ops"}) and Greeting.tags == frozenset({"public"})


def test_exclude_tags_hide_and_include_tags_keep_only_tagged_items_exclusion_winning() -> None:
    wire = Wire(build(exclude_tags=["internal"]))
    assert wire.names("resourceTemplates") == ["logs://{day}"]
    assert wire.request("resources/read", {"uri": "users://7/profile"})["error"] == {
        "code": -32602, "message": "Resource not found: users://7/profile", "data": {"uri": "users://7/profile"},
    }
    assert wire.request("resources/subscribe", {"uri": "users://7/profile"})["error"] == {
        "code": -32602, "message": "Resource not found: users://7/profile", "data": {"uri": "users://7/profile"},
    }
    assert wire.request("resources/subscribe", {"uri": "logs://monday"}) == {"jsonrpc": "2.0", "id": 1, "result": {}}
    wire.server.filter_tags(include_tags=["public", "ops"], exclude_tags=["admin"])
    assert wire.notified() == [
        "notifications/tools/list_changed", "notifications/prompts/list_changed", "notifications/resources/list_changed",
    ]
    assert wire.events == [("tools", None), ("prompts", None), ("resources", None)]
    assert (wire.names("tools"), wire.names("prompts")) == (["echo"], ["greeting"])  # deploy: admin wins; plain: no tag
    assert (wire.names("resources"), wire.names("resourceTemplates")) == (["config://app"], ["logs://{day}"])
    assert wire.request("tools/call", {"name": "deploy"})["error"] == {
        "code": -32602, "message": "Tool not found: deploy", "data": {"name": "deploy"},
    }
    assert wire.request("resources/read", {"uri": "config://app"})["result"]["contents"][0]["text"] == "config"
    wire.server.filter_tags()
    assert wire.names("tools") == ["deploy", "echo", "plain"]


@pytest.mark.parametrize(
    ("kind", "name", "notification", "call"),
    [
        ("tools", "echo", "notifications/tools/list_changed", ("tools/call", {"name": "echo", "arguments": {"message": "x"}})),
        ("prompts", "greeting", "notifications/prompts/list_changed", ("prompts/get", {"name": "greeting"})),
        ("resources", "config://app", "notifications/resources/list_changed", ("resources/read", {"uri": "config://app"})),
        ("resourceTemplates", "users://{id}/profile", "notifications/resources/list_changed", ("resources/read", {"uri": "users://7/profile"})),
    ],
)
def test_disable_enable_and_remove_each_kind(kind: str, name: str, notification: str, call: tuple[str, dict[str, t.Any]]) -> None:
    server = build()
    wire = Wire(server)
    suffix = {"tools": "tool", "prompts": "prompt", "resources": "resource", "resourceTemplates": "resource_template"}[kind]
    event = "resources" if kind == "resourceTemplates" else kind
    listed = wire.names(kind)
    assert name in listed and "result" in wire.request(*call)

    getattr(server, f"disable_{suffix}")(name)
    getattr(server, f"disable_{suffix}")(name)  # already disabled: no change, nothing sent
    assert wire.notified() == [notification] and wire.events == [(event, None)]
    assert name not in wire.names(kind)
    refused = wire.request(*call)["error"]
    assert refused["code"] == -32602 and refused["message"].endswith(("not found: " + str(call[1].get("name", call[1].get("uri")))))

    getattr(server, f"enable_{suffix}")(name)
    assert wire.notified() == [notification]
    assert wire.names(kind) == listed and "result" in wire.request(*call)
    modern = serve(server, modern_request(*call))  # the 2026-07-28 era serves it again too
    assert "result" in modern

    removed = getattr(server, f"remove_{suffix}")(name)
    assert wire.notified() == [notification]
    assert removed
    assert name not in wire.names(kind)
    assert "error" in wire.request(*call)  # a decorator's reader no longer answers a removed resource
    assert serve(server, modern_request(*call))["error"]["code"] == -32602
    with pytest.raises(NotRegisteredError) as unknown:
        getattr(server, f"enable_{suffix}")(name)
    assert str(unknown.value) == f"No {suffix.replace('_', ' ')} {name!r} is registered"


def test_a_resource_added_again_after_removal_is_served_again() -> None:
    server = build()
    wire = Wire(server)
    server.remove_resource("config://app")
    server.add_resource(Resource(uri="config://app", name="config"))
    assert wire.request("resources/read", {"uri": "config://app"})["result"]["contents"][0]["text"] == "config"


def test_a_server_with_every_tool_hidden_still_declares_tools_with_list_changed() -> None:
    server = Server(name="vis", version="1.0.0", tools=[Deploy], include_tags=["nothing"])
    assert Wire(server).request("initialize", {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "s", "version": "1"}})[
        "result"
    ]["capabilities"]["tools"] == {"listChanged": True}


def test_visibility_rules() -> None:
    visibility = Visibility(include_tags=["a"], exclude_tags=["b"])
    assert [visibility.shows("tools", "x", tags) for tags in ({"a"}, {"a", "b"}, set(), {"c"})] == [True, False, False, False]
    assert Visibility().with_enabled("tools", "x", False).shows("tools", "x", set()) is False
    assert template_matcher("users://{id}/profile{?q}")("users://7/profile?q=1") is True
    assert template_matcher("users://{id}/profile")("users://7/8/profile") is False  # {id} spans no "/"
    assert template_matcher("users://{id:3}/x")("users://anything/x") is True  # unmatchable form: loose
    with pytest.raises(TypeError):
        Visibility(include_tags=[""])
