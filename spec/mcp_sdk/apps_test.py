"""MCP Apps (io.modelcontextprotocol/ui): examples/apps_server.py on the wire, checked against the extension's schema."""

from __future__ import annotations

import json
import typing as t

import jsonschema
import pytest

from examples.apps_server import VIEW_HTML, VIEW_URI, build_app
from mcp_sdk import Resource, Server, Tool
from mcp_sdk.mcp_apps import (
    EXTENSION_ID,
    MIME_TYPE,
    InvalidUIMetadataError,
    UIResource,
    client_capabilities,
    resource_ui_meta,
    server_uses_apps,
    tool_meta,
)
from spec.support import wire_schema
from spec.support.http_client import Client, request, tool_call
from spec.support.http_server import LiveServer

APPS_SCHEMA = json.loads((wire_schema.SCHEMA_DIR / "ext-apps-ui.json").read_text())
APPS_CLIENT = client_capabilities()


def assert_apps_valid(definition: str, value: t.Any) -> None:
    jsonschema.validate(value, {"$ref": f"#/$defs/{definition}", "$defs": APPS_SCHEMA["$defs"]})


@pytest.fixture
def server() -> t.Iterator[LiveServer]:
    transport, app = build_app()
    with LiveServer(app, closeables=[transport]) as live:
        yield live


def test_a_host_with_apps_sees_the_extension_the_view_and_the_linked_tools(server: LiveServer) -> None:
    with Client(server.url) as client:
        assert_apps_valid("McpUiClientCapabilities", APPS_CLIENT["extensions"][EXTENSION_ID])
        initialized = client.initialize(capabilities=APPS_CLIENT)
        wire_schema.assert_valid_response("initialize", initialized)
        assert initialized["result"]["capabilities"]["extensions"] == {EXTENSION_ID: {}}

        (tools,) = client.call(request("tools/list"))
        wire_schema.assert_valid_response("tools/list", tools)
        metas = {tool["name"]: tool["_meta"]["ui"] for tool in tools["result"]["tools"]}
        assert metas == {
            "color_swatch": {"resourceUri": VIEW_URI},
            "randomize_swatch": {"resourceUri": VIEW_URI, "visibility": ["app"]},
        }
        for meta in metas.values():
            assert_apps_valid("McpUiToolMeta", meta)

        (resources,) = client.call(request("resources/list"))
        wire_schema.assert_valid_response("resources/list", resources)
        assert resources["result"]["resources"] == [
            {
                "uri": VIEW_URI,
                "name": "swatch_view",
                "title": "Colour swatch",
                "description": "Shows a colour swatch",
                "mimeType": MIME_TYPE,
                "_meta": {"ui": {"csp": {}, "prefersBorder": True}},
            }
        ]
        assert_apps_valid("UIResource", resources["result"]["resources"][0])

        (read,) = client.call(request("resources/read", {"uri": VIEW_URI}))
        wire_schema.assert_valid_response("resources/read", read)
        assert read["result"] == {
            "contents": [{"uri": VIEW_URI, "mimeType": MIME_TYPE, "text": VIEW_HTML, "_meta": {"ui": {"csp": {}, "prefersBorder": True}}}]
        }
        assert_apps_valid("UIResourceContents", read["result"]["contents"][0])
        assert read["result"]["contents"][0]["text"].startswith("<!DOCTYPE html>")

        (called,) = client.call(tool_call("color_swatch", {"color": "#FF8800"}))
        wire_schema.assert_valid_response("tools/call", called)
        assert called["result"] == {
            "content": [{"type": "text", "text": "The colour #ff8800."}],
            "structuredContent": {"color": "#ff8800"},
            "isError": False,
        }


@pytest.mark.parametrize(
    "capabilities",
    [{}, {"extensions": {}}, {"extensions": {EXTENSION_ID: {"mimeTypes": ["text/uri-list"]}}}],
    ids=["no-extensions", "other-extensions", "other-mime-types"],
)
def test_a_client_without_apps_gets_plain_text(server: LiveServer, capabilities: dict[str, t.Any]) -> None:
    with Client(server.url) as client:
        client.initialize(capabilities=capabilities)
        (called,) = client.call(tool_call("color_swatch", {"color": "#00aa00"}))
        assert called["result"] == {"content": [{"type": "text", "text": "The colour #00aa00."}], "isError": False}


def test_server_discover_on_2026_carries_the_extension(server: LiveServer) -> None:
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": APPS_CLIENT,
        "io.modelcontextprotocol/clientInfo": {"name": "spec", "version": "1"},
    }
    headers = {
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        "MCP-Protocol-Version": "2026-07-28",
    }
    with Client(server.url) as client:
        (discovered,) = client.call_with(request("server/discover", {"_meta": meta}), {**headers, "Mcp-Method": "server/discover"})
        assert discovered["result"]["capabilities"]["extensions"] == {EXTENSION_ID: {}}
        wire_schema.assert_valid("DiscoverResult", discovered["result"], "2026-07-28")
        call = tool_call("color_swatch", {"color": "#123456"})
        call["params"]["_meta"] = meta
        (called,) = client.call_with(call, {**headers, "Mcp-Method": "tools/call", "Mcp-Name": "color_swatch"})
        assert called["result"]["structuredContent"] == {"color": "#123456"}


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_the_sdk_client_as_a_host(server: LiveServer, mode: str) -> None:
    from mcp_sdk import Client
    from mcp_sdk.client import HTTP

    with Client(transport=HTTP(url=server.url, timeout=10, standalone_stream=False)) as client:
        client.connect(mode=mode, capabilities=client_capabilities())
        tools = {tool.name: tool for tool in client.tools()}
        assert tools["color_swatch"].meta == {"ui": {"resourceUri": VIEW_URI}}
        answer = client.call_tool(name="color_swatch", arguments={"color": "#abcdef"})
        assert answer["result"]["structuredContent"] == {"color": "#abcdef"}


class TestHelpers:
    def test_client_capabilities(self) -> None:
        assert client_capabilities() == {"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}}

    def test_resource_ui_meta_validates(self) -> None:
        assert resource_ui_meta(
            csp={"connect_domains": ["https://api.example.com"], "resourceDomains": ["https://cdn.example.com"]},
            permissions=["camera", "clipboardWrite"],
            domain="abc.example-host.com",
            prefers_border=False,
        ) == {
            "csp": {"connectDomains": ["https://api.example.com"], "resourceDomains": ["https://cdn.example.com"]},
            "permissions": {"camera": {}, "clipboardWrite": {}},
            "domain": "abc.example-host.com",
            "prefersBorder": False,
        }
        for bad, message in [
            ({"csp": {"script_domains": []}}, "unknown csp key 'script_domains'"),
            ({"csp": {"connect_domains": "https://a"}}, "must be a list of origins"),
            ({"permissions": ["usb"]}, r"unknown permissions \['usb'\]"),
            ({"permissions": "camera"}, "not a string"),
            ({"domain": ""}, "domain must be"),
            ({"prefers_border": "yes"}, "prefers_border must be a bool"),
        ]:
            with pytest.raises(InvalidUIMetadataError, match=message):
                resource_ui_meta(**bad)

    def test_tool_meta_validates(self) -> None:
        assert tool_meta("ui://a/b", visibility=["model"], extra=1) == {"extra": 1, "ui": {"resourceUri": "ui://a/b", "visibility": ["model"]}}
        for uri, visibility, message in [
            ("https://a/b", None, "must start with ui://"),
            ("ui://", None, "must start with ui://"),
            ("ui://a", ["agent"], '"model" and/or "app"'),
            ("ui://a", ["app", "app"], "each once"),
            ("ui://a", [], '"model" and/or "app"'),
            ("ui://a", "app", "not a string"),
        ]:
            with pytest.raises(InvalidUIMetadataError, match=message):
                tool_meta(uri, visibility=visibility)

    def test_ui_resource_checks(self) -> None:
        with pytest.raises(InvalidUIMetadataError, match="must start with ui://"):
            UIResource(uri="https://x", name="x", html="<p>")
        with pytest.raises(InvalidUIMetadataError, match="needs its html"):
            UIResource(uri="ui://x", name="x")
        with pytest.raises(InvalidUIMetadataError, match="mime_type must be"):
            UIResource(uri="ui://x", name="x", html="<p>", mime_type="text/html")
        view = UIResource(uri="ui://x", name="x", html="<p>secret layout</p>", meta={"other": 1})
        assert view.to_dict() == {"uri": "ui://x", "name": "x", "mimeType": MIME_TYPE, "_meta": {"other": 1}}
        assert [item.to_dict() for item in view.contents()] == [{"uri": "ui://x", "mimeType": MIME_TYPE, "text": "<p>secret layout</p>"}]
        assert repr(view) == "UIResource(uri='ui://x', name='x', html=<20 characters>)"

    def test_only_servers_with_views_or_linked_tools_declare_the_extension(self) -> None:
        class Plain(Tool):
            @classmethod
            def call(cls) -> str:
                return "x"

        class Linked(Tool):
            meta = tool_meta("ui://v")

            @classmethod
            def call(cls) -> str:
                return "x"

        plain = Server(name="s", tools=[Plain], resources=[Resource(uri="file:///a", name="a")])
        assert "extensions" not in plain.capabilities
        assert not server_uses_apps([Plain], [])
        assert Server(name="s", tools=[Linked]).capabilities["extensions"] == {EXTENSION_ID: {}}
        assert Server(name="s", resources=[UIResource(uri="ui://v", name="v", html="<p>")]).capabilities["extensions"] == {EXTENSION_ID: {}}

    def test_a_view_is_served_before_the_users_read_handler(self) -> None:
        view = UIResource(uri="ui://v", name="v", html="<p>view</p>")
        server = Server(name="s", resources=[view, Resource(uri="file:///a", name="a")])
        seen: list[str] = []

        @server.resources_read_handler
        def read(params: dict[str, t.Any]) -> list[dict[str, t.Any]]:
            seen.append(params["uri"])
            return [{"uri": params["uri"], "text": "a"}]

        initialize = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}
        server.handle(initialize)
        answer = server.handle({"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": "ui://v"}})
        assert answer["result"]["contents"] == [{"uri": "ui://v", "mimeType": MIME_TYPE, "text": "<p>view</p>"}]
        other = server.handle({"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": "file:///a"}})
        assert other["result"]["contents"] == [{"uri": "file:///a", "text": "a"}]
        assert seen == ["file:///a"]
