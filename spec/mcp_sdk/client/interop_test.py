"""Interoperability: the client against the reference TypeScript server
(``@modelcontextprotocol/server-everything``), over stdio and over Streamable HTTP."""

from __future__ import annotations

import contextlib
import typing as t

import pytest

import mcp_sdk
from mcp_sdk import Client
from mcp_sdk.client import HTTP, Stdio
from spec.support.client_interop import ensure_everything, everything_http

TIMEOUT = 20.0


@pytest.fixture(scope="module")
def everything() -> tuple[str, str]:
    return ensure_everything()


@pytest.fixture(scope="module")
def everything_url(everything: tuple[str, str]) -> t.Iterator[str]:
    with everything_http() as url:
        yield url


@pytest.fixture(params=["stdio", "http"])
def client(request: pytest.FixtureRequest, everything: tuple[str, str]) -> t.Iterator[Client]:
    node, script = everything
    with contextlib.ExitStack() as stack:
        if request.param == "stdio":
            transport: t.Any = Stdio(command=node, args=[script, "stdio"], read_timeout=TIMEOUT, close_timeout=0.5)
        else:
            # One server process, a new session per test.
            transport = HTTP(url=request.getfixturevalue("everything_url"), timeout=TIMEOUT)
        client = Client(transport=transport)
        stack.callback(client.close)
        client.on_sampling(lambda p: {"role": "assistant", "content": {"type": "text", "text": "sampled"}, "model": "spec-model"})
        client.on_elicitation(lambda p: {"action": "accept", "content": {"name": "Ann"}})
        client.on_roots(lambda p: [{"uri": "file:///spec/root", "name": "spec-root"}])
        client.connect(client_info={"name": "mcp_sdk-interop", "version": "1.0"})
        yield client


def text_of(response: dict[str, t.Any]) -> str:
    return "\n".join(item.get("text", "") for item in response["result"]["content"])


def test_handshake(client: Client) -> None:
    assert client.protocol_version == "2025-11-25"
    assert client.server_info is not None and client.server_info["name"] == "mcp-servers/everything"
    assert client.server_capabilities is not None and "tools" in client.server_capabilities
    assert client.ping() == {}


def test_tools(client: Client) -> None:
    tools = {tool.name: tool for tool in client.tools()}
    assert {"echo", "get-sum", "get-structured-content", "trigger-sampling-request"} <= set(tools)
    assert tools["echo"].input_schema["properties"]["message"]["type"] == "string"
    assert text_of(client.call_tool(name="echo", arguments={"message": "hi"})) == "Echo: hi"
    assert text_of(client.call_tool(tool=tools["get-sum"], arguments={"a": 2, "b": 3})).endswith("5.")
    # An unknown tool is a JSON-RPC error (older servers) or an isError result (newer ones).
    try:
        result = client.call_tool(name="no-such-tool", arguments={})["result"]
    except Client.ServerError as error:
        assert error.code == -32602
    else:
        assert result["isError"] is True and "no-such-tool" in text_of({"result": result})


def test_structured_content_is_validated(client: Client) -> None:
    client.validate_structured_content = True
    tool = next(tool for tool in client.tools() if tool.name == "get-structured-content")
    assert tool.output_schema is not None
    response = client.call_tool(tool=tool, arguments={"location": "Chicago"})
    assert "temperature" in response["result"]["structuredContent"]


def test_server_to_client_requests(client: Client) -> None:
    sampled = text_of(client.call_tool(name="trigger-sampling-request", arguments={"prompt": "hi", "maxTokens": 5}))
    assert "sampled" in sampled and "spec-model" in sampled
    assert "file:///spec/root" in text_of(client.call_tool(name="get-roots-list", arguments={}))
    elicited = text_of(client.call_tool(name="trigger-elicitation-request", arguments={}))
    # Ann from the handler, the schema's defaults filled in by the client (SEP-1034).
    assert '"name": "Ann"' in elicited and '"integer": 42' in elicited


def test_progress(client: Client) -> None:
    progress: list[dict[str, t.Any]] = []
    client.on_progress(progress.append)
    client.call_tool(name="trigger-long-running-operation", arguments={"duration": 0.3, "steps": 3}, progress_token="spec")
    assert [(p["progressToken"], p["progress"], p["total"]) for p in progress] == [("spec", 1, 3), ("spec", 2, 3), ("spec", 3, 3)]


def test_resources_prompts_completion(client: Client) -> None:
    resources = client.resources()
    assert resources and all("uri" in resource for resource in resources)
    contents = client.read_resource(resources[0]["uri"])
    assert contents and contents[0]["uri"] == resources[0]["uri"]
    assert client.resource_templates()
    prompts = {prompt["name"] for prompt in client.prompts()}
    assert "simple-prompt" in prompts
    assert client.get_prompt("simple-prompt")["messages"]
    completion = client.complete(ref={"type": "ref/prompt", "name": "completable-prompt"}, argument={"name": "department", "value": "E"})
    assert "Engineering" in completion["values"]


def test_cancellation(client: Client) -> None:
    cancellation = mcp_sdk.Cancellation()
    import threading

    threading.Timer(0.2, cancellation.cancel, kwargs={"reason": "spec"}).start()
    with pytest.raises(mcp_sdk.CancelledError):
        client.call_tool(name="trigger-long-running-operation", arguments={"duration": 5, "steps": 5}, cancellation=cancellation)
    assert client.ping() == {}
