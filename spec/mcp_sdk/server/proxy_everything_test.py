"""``Server.proxy`` in front of a real published stdio server, ``@modelcontextprotocol/server-everything``
(run with Node 22, installed by spec/support/client_interop.py), served over HTTP and driven by the
official Python client (``mcp``) in both eras: its tools answer through the proxy (``echo``,
``get-sum``), ``trigger-long-running-operation``'s progress reaches the caller, its sampling and
elicitation requests reach the official client and their answers go back, its prompts, resources and
completions are forwarded, and (2025) its simulated logs reach the client."""

from __future__ import annotations

import typing as t
import warnings

import anyio
import mcp_types as types
import pytest
from mcp import Client as OfficialClient
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPDeprecationWarning as OfficialDeprecationWarning

from mcp_sdk import Client, Server
from mcp_sdk.client import Stdio
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.client_interop import ensure_everything
from spec.support.http_server import LiveServer

TIMEOUT = 60.0
MODERN = "2026-07-28"


def texts(result: types.CallToolResult) -> list[str]:
    return [block.text for block in result.content]  # type: ignore[union-attr]


@pytest.mark.parametrize("mode", ["legacy", MODERN])
def test_server_everything_behind_a_proxy(mode: str) -> None:
    node, script = ensure_everything()
    remote = Client(Stdio(command=node, args=[script, "stdio"]), timeout=TIMEOUT)
    proxy = Server.proxy(remote, name="everything-proxy")
    transport = StreamableHTTPTransport(proxy)
    progress: list[tuple[float, float | None]] = []
    asked: list[str] = []
    logged = anyio.Event()

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, total))

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        logged.set()

    async def sample(context: t.Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        asked.append(params.messages[0].content.text)  # type: ignore[union-attr]
        return types.CreateMessageResult(role="assistant", content=types.TextContent(type="text", text="a haiku"), model="m")

    async def elicit(context: t.Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        return types.ElicitResult(action="accept", content={"name": "Alice"})

    async def main() -> None:
        official = OfficialClient(
            streamable_http_client(live.url), mode=mode, read_timeout_seconds=TIMEOUT, sampling_callback=sample,
            elicitation_callback=elicit, logging_callback=on_log,
        )
        async with official:
            names = [tool.name for tool in (await official.list_tools()).tools]
            assert {"echo", "get-sum", "trigger-long-running-operation", "trigger-sampling-request"} <= set(names)
            assert texts(await official.call_tool("echo", {"message": "hi"})) == ["Echo: hi"]
            assert texts(await official.call_tool("get-sum", {"a": 2, "b": 3})) == ["The sum of 2 and 3 is 5."]
            long = await official.call_tool(
                "trigger-long-running-operation", {"duration": 0.2, "steps": 2}, progress_callback=on_progress
            )
            assert texts(long) == ["Long running operation completed. Duration: 0.2 seconds, Steps: 2."]
            assert progress == [(1, 2), (2, 2)]
            sampled = texts(await official.call_tool("trigger-sampling-request", {"prompt": "rain"}))
            assert asked == ["Resource trigger-sampling-request context: rain"]
            assert '"text": "a haiku"' in sampled[0]
            elicited = texts(await official.call_tool("trigger-elicitation-request", {}))
            assert elicited[0] == "✅ User provided the requested information!"
            # Our Client fills in the defaults of the fields the answer left out (SEP-1034), as it does for any handler.
            assert elicited[1].startswith("User inputs:\n- Name: Alice\n")

            prompt = await official.get_prompt("args-prompt", {"city": "Oslo"})
            assert "Oslo" in prompt.messages[0].content.text  # type: ignore[union-attr]
            uri = "demo://resource/static/document/features.md"
            assert [str(r.uri) for r in (await official.read_resource(uri)).contents] == [uri]
            completed = await official.complete(
                types.PromptReference(type="ref/prompt", name="completable-prompt"), {"name": "department", "value": "E"}
            )
            assert completed.completion.values == ["Engineering"]
            if mode == "legacy":  # 2026-07-28 has no log outside a request
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", OfficialDeprecationWarning)
                    await official.set_logging_level("debug")
                await official.call_tool("toggle-simulated-logging", {})
                with anyio.fail_after(TIMEOUT):
                    await logged.wait()

    try:
        with LiveServer(transport, closeables=[transport]) as live:
            anyio.run(main)
    finally:
        remote.close()
    assert remote.era == "legacy"
