"""``server.declare_extension(name, settings)`` (issue 22, item 7): a custom extension added to
the advertised ``capabilities.extensions`` without replacing the rest, in ``initialize`` (2025)
and ``server/discover`` (2026-07-28); seen by the official Python client in both eras, the wire
checked against the schemas."""

from __future__ import annotations

import typing as t

import anyio
import pytest

from mcp_sdk import InvalidNameError, MCPError, Server, Tool
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.client_servers import wsgi_server
from spec.support.modern import modern_request, serve
from spec.support.server_helpers import initialize
from spec.support.wire_schema import MODERN, assert_valid
from spec.support.wire_tap import WireTap

SEARCH = "com.example/search"


class Echo(Tool):
    description = "Echo"

    @classmethod
    def call(cls, server_context: t.Any = None) -> str:
        return "echo"


def declared_server(**options: t.Any) -> Server:
    server = Server(name="ext", tools=[Echo], **options)
    server.declare_extension(SEARCH, {"indexes": ["docs", "code"]})
    server.declare_extension("io.example.labs/preview")
    return server


class TestDeclareExtension:
    def test_added_to_the_derived_capabilities(self) -> None:
        assert declared_server().capabilities == {
            "tools": {"listChanged": True},
            "logging": {},
            "extensions": {SEARCH: {"indexes": ["docs", "code"]}, "io.example.labs/preview": {}},
        }

    def test_added_to_capabilities_given_to_the_server_which_stay_as_they_were(self) -> None:
        given = {"tools": {}, "extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html"]}}}
        server = declared_server(capabilities=given)
        assert server.capabilities == {
            "tools": {},
            "extensions": {
                "io.modelcontextprotocol/ui": {"mimeTypes": ["text/html"]},
                SEARCH: {"indexes": ["docs", "code"]},
                "io.example.labs/preview": {},
            },
        }
        assert given == {"tools": {}, "extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html"]}}}

    def test_declaring_again_replaces_the_settings_and_withdrawing_removes_it(self) -> None:
        server = declared_server()
        settings = {"indexes": ["all"]}
        server.declare_extension(SEARCH, settings)
        settings["indexes"].append("changed later")  # the server kept its own copy
        assert server.extensions.declared == {SEARCH: {"indexes": ["all"]}, "io.example.labs/preview": {}}
        assert (server.extensions.withdraw("io.example.labs/preview"), server.extensions.withdraw("io.example.labs/preview")) == (True, False)
        assert server.capabilities["extensions"] == {SEARCH: {"indexes": ["all"]}}

    @pytest.mark.parametrize("name", ["search", "/search", "com.example/", "com..example/x", "1com/x", "com.example/-x", "com example/x", 7])
    def test_an_identifier_needs_a_reverse_dns_prefix(self, name: t.Any) -> None:
        with pytest.raises(InvalidNameError, match="reverse-DNS prefix") as raised:
            Server().declare_extension(name)
        assert isinstance(raised.value, MCPError)

    def test_settings_are_an_object(self) -> None:
        with pytest.raises(TypeError, match="JSON object"):
            Server().declare_extension(SEARCH, ["docs"])  # type: ignore[arg-type]

    @pytest.mark.parametrize("version", ["2025-03-26", "2025-06-18", "2025-11-25"])
    def test_in_the_initialize_result_of_2025_versions(self, version: str) -> None:
        result = initialize(declared_server(), version=version)
        assert result["capabilities"]["extensions"] == {SEARCH: {"indexes": ["docs", "code"]}, "io.example.labs/preview": {}}
        assert result["capabilities"]["tools"] == {"listChanged": True}
        assert_valid("InitializeResult", result, version)

    def test_in_the_discover_result_of_2026_07_28(self) -> None:
        result = serve(declared_server(), modern_request("server/discover"))["result"]
        assert result["capabilities"]["extensions"] == {SEARCH: {"indexes": ["docs", "code"]}, "io.example.labs/preview": {}}
        assert result["capabilities"]["tools"] == {"listChanged": True}
        assert_valid("DiscoverResult", result, MODERN)


@pytest.mark.parametrize("mode", ["legacy", "auto"])  # auto: server/discover, then 2026-07-28
def test_the_official_client_sees_the_declared_extension(mode: str) -> None:
    from mcp import Client as OfficialClient
    from mcp.client.streamable_http import streamable_http_client

    transport = StreamableHTTPTransport(declared_server())
    tap = WireTap(transport)

    async def main(url: str) -> dict[str, t.Any]:
        async with OfficialClient(streamable_http_client(url), mode=mode) as official:
            capabilities = official.server_capabilities
            called = await official.call_tool("echo", {})
            return {"extensions": capabilities.extensions, "tools": capabilities.tools is not None, "called": called.content[0].text}  # type: ignore[union-attr]

    try:
        with wsgi_server(tap) as url:
            seen = anyio.run(main, url)
    finally:
        transport.close()
    assert seen == {
        "extensions": {SEARCH: {"indexes": ["docs", "code"]}, "io.example.labs/preview": {}},
        "tools": True,
        "called": "echo",
    }
    calls = [exchange for exchange in tap.exchanges if isinstance(exchange.request, dict) and exchange.request.get("method") == "tools/call"]
    assert [exchange.protocol_version for exchange in calls] == ["2025-11-25" if mode == "legacy" else MODERN]
    handshake = tap.answers("initialize" if mode == "legacy" else "server/discover")
    assert [answer["result"]["capabilities"]["extensions"][SEARCH] for answer in handshake] == [{"indexes": ["docs", "code"]}]
    assert tap.assert_valid() >= 2
