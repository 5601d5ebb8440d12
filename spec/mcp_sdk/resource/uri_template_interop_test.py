"""RFC 6570 resource templates served over real HTTP and read by the official Python SDK's client
in both eras (issue 22, item 6): ``{+path}``, ``{?query}``, ``{/seg}`` and ``{.ext}`` reach the
function percent-decoded, and completion knows a template's variables; every answer is checked
against the schema of its era."""

from __future__ import annotations

import typing as t

import anyio
import pytest

from mcp_sdk import Server
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.client_servers import wsgi_server
from spec.support.wire_tap import WireTap

FILES = "file:///{+path}{?rev}"
POSTS = "users://{user}/posts{/post}{.format}"


def templated_server() -> Server:
    server = Server(name="templates")

    @server.resource(FILES, mime_type="text/plain")
    def source(path: str, rev: str = "HEAD") -> str:
        """A file of the repository at a revision."""
        return f"{path} at {rev}"

    @server.resource(POSTS)
    def post(user: str, post: str, format: str) -> dict[str, str]:
        return {"user": user, "post": post, "format": format}

    @server.completion_handler
    def complete(params: dict[str, t.Any]) -> dict[str, t.Any]:
        return {"completion": {"values": [f"{params['argument']['value']}/README.md"]}}

    return server


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_the_official_client_reads_level_2_and_3_templates_and_completes_their_variables(mode: str) -> None:
    from mcp import Client as OfficialClient
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared.exceptions import MCPError as OfficialError
    from mcp.types import ResourceTemplateReference

    transport = StreamableHTTPTransport(templated_server())
    tap = WireTap(transport)

    async def main(url: str) -> dict[str, t.Any]:
        async with OfficialClient(streamable_http_client(url), mode=mode) as official:
            templates = await official.list_resource_templates()
            reads = [
                await official.read_resource(uri)
                for uri in [
                    "file:///src/mcp%20sdk/a.py?rev=v2.1",
                    "file:///docs/caf%C3%A9.md",
                    "users://ada%20lovelace/posts/42.json",
                ]
            ]
            completed = await official.complete(ResourceTemplateReference(type="ref/resource", uri=FILES), {"name": "path", "value": "docs"})
            try:
                await official.complete(ResourceTemplateReference(type="ref/resource", uri=FILES), {"name": "branch", "value": ""})
            except OfficialError as error:
                refused = (error.error.code, error.error.message)
            return {
                "templates": [template.uri_template for template in templates.resource_templates],
                "reads": [[(content.uri, content.text) for content in read.contents] for read in reads],  # type: ignore[union-attr]
                "completed": completed.completion.values,
                "refused": refused,
            }

    try:
        with wsgi_server(tap) as url:
            seen = anyio.run(main, url)
    finally:
        transport.close()
    assert seen == {
        "templates": [FILES, POSTS],
        "reads": [
            [("file:///src/mcp%20sdk/a.py?rev=v2.1", "src/mcp sdk/a.py at v2.1")],
            [("file:///docs/caf%C3%A9.md", "docs/café.md at HEAD")],
            [("users://ada%20lovelace/posts/42.json", '{"user":"ada lovelace","post":"42","format":"json"}')],
        ],
        "completed": ["docs/README.md"],
        "refused": (-32602, f"Invalid params: resource template {FILES} has no variable 'branch'"),
    }
    reads = [exchange for exchange in tap.exchanges if isinstance(exchange.request, dict) and exchange.request.get("method") == "resources/read"]
    assert {exchange.protocol_version for exchange in reads} == {"2025-11-25" if mode == "legacy" else "2026-07-28"}
    assert len(tap.answers("resources/read")) == 3 and len(tap.answers("completion/complete")) == 2
    assert tap.assert_valid() >= 6
