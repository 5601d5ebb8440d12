"""The official MCP Python SDK's OAuth client against one of our protected servers.

    python -m spec.support.official_oauth_client <mcp-url> [tool [json-arguments]]...

Signs in headlessly (the authorization URL is fetched without following its
redirect; code and state come from ``Location``), calls the tools named on the
command line in order, and prints one JSON line: the tool names listed and each
call's ``structuredContent`` or text. Run as a subprocess, so the official SDK's
event loop and warnings stay out of our test process.
"""

from __future__ import annotations

import json
import sys
import typing as t
from urllib.parse import parse_qs, urlsplit

import anyio
import requests
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

REDIRECT_URI = "http://127.0.0.1:9/callback"


class MemoryStorage:
    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client_info: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client_info = client_info


async def run(url: str, calls: list[tuple[str, dict[str, t.Any]]]) -> dict[str, t.Any]:
    redirected: dict[str, str] = {}
    visited: list[str] = []

    async def redirect_handler(authorization_url: str) -> None:
        visited.append(authorization_url)
        response = await anyio.to_thread.run_sync(lambda: requests.get(authorization_url, allow_redirects=False, timeout=30))
        query = parse_qs(urlsplit(response.headers["Location"]).query)
        redirected.clear()
        redirected.update({key: values[0] for key, values in query.items()})

    async def callback_handler() -> AuthorizationCodeResult:
        return AuthorizationCodeResult(code=redirected["code"], state=redirected.get("state"))

    provider = OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(
            client_name="official python sdk",
            redirect_uris=[REDIRECT_URI],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
        ),
        storage=MemoryStorage(),
        redirect_handler=redirect_handler,
        callback_handler=callback_handler,
    )
    results: list[t.Any] = []
    async with create_mcp_http_client(auth=provider) as http:
        async with Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
            listed = await client.list_tools()
            for name, arguments in calls:
                result = await client.call_tool(name, arguments)
                if result.structured_content is not None:
                    results.append(result.structured_content)
                else:
                    results.append([getattr(block, "text", None) for block in result.content])
    return {"tools": [tool.name for tool in listed.tools], "results": results, "authorizations": len(visited)}


def main(argv: list[str]) -> None:
    url, rest = argv[0], argv[1:]
    calls: list[tuple[str, dict[str, t.Any]]] = []
    while rest:
        name, rest = rest[0], rest[1:]
        arguments: dict[str, t.Any] = {}
        if rest and rest[0].startswith("{"):
            arguments, rest = json.loads(rest[0]), rest[1:]
        calls.append((name, arguments))
    print(json.dumps(anyio.run(run, url, calls)))


if __name__ == "__main__":
    main(sys.argv[1:])
