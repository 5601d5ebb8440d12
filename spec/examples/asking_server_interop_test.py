"""The official Python SDK's client (``mcp`` >= 2.3) against examples/asking_server.py, over
real stdio and real HTTP: in ``mode="2026-07-28"`` and ``mode="auto"`` (sampling, elicitation and
roots answered through MRTR by its callbacks; subscriptions/listen), and in legacy mode (2025)
against the same server at the same time."""

from __future__ import annotations

import sys
import typing as t

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from spec.support.http_server import PYTHON, ServerProcess
from spec.support.modern import ASKING_SERVER

TIMEOUT = 30.0


async def sampling(context: t.Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
    question = params.messages[0].content.text  # type: ignore[union-attr]
    text = "Paris" if "Capital" in question else "a walk"
    return types.CreateMessageResult(role="assistant", content=types.TextContent(type="text", text=text), model="m", stop_reason="endTurn")


async def elicitation(context: t.Any, params: types.ElicitRequestParams) -> types.ElicitResult:
    if "Proceed" in params.message:
        return types.ElicitResult(action="accept", content={"ok": True})
    return types.ElicitResult(action="accept", content={"name": "Alice"})


async def list_roots(context: t.Any) -> types.ListRootsResult:
    return types.ListRootsResult(roots=[types.Root(uri="file:///work", name="work")])


def client(server: t.Any, mode: str, **options: t.Any) -> Client:
    return Client(
        server,
        mode=mode,
        sampling_callback=sampling,
        elicitation_callback=elicitation,
        list_roots_callback=list_roots,
        read_timeout_seconds=TIMEOUT,
        **options,
    )


#: tool, arguments -> the text every era answers.
CALLS = [
    ("echo", {"message": "hi"}, "echo: hi"),
    ("greet", {}, "Hello, Alice!"),
    ("ask_llm", {"question": "Capital of France?"}, "model said: Paris"),
    ("show_roots", {}, "roots: file:///work"),
    ("plan", {}, "Alice: a walk (1 roots)"),
    ("confirm", {}, "state step-1: confirmed"),
    ("weather", {"region": "Zürich"}, "sunny in Zürich"),
]


async def exercise(session: Client, expected_version: str) -> None:
    assert session.protocol_version == expected_version
    for name, arguments, text in CALLS:
        result = await session.call_tool(name, arguments)
        assert (result.is_error, result.content[0].text) == (False, text), name  # type: ignore[union-attr]
    prompt = await session.get_prompt("introduce")
    assert prompt.messages[0].content.text == "Introduce Alice"  # type: ignore[union-attr]
    read = await session.read_resource("example://clock")
    assert read.contents[0].text == "contents of example://clock"  # type: ignore[union-attr]
    assert [tool.name for tool in (await session.list_tools()).tools][:2] == ["echo", "greet"]


async def listen_for_changes(modern: Client, trigger: Client) -> None:
    async with modern.listen(tools_list_changed=True) as subscription:
        assert subscription.honored.tools_list_changed is True
        await trigger.call_tool("touch", {})
        with anyio.fail_after(TIMEOUT):
            event = await subscription.__anext__()
        assert type(event).__name__ == "ToolsListChanged"


def stdio_server() -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=[str(ASKING_SERVER)])


@pytest.mark.parametrize("mode", ["2026-07-28", "auto"])
def test_modern_client_over_stdio(mode: str) -> None:
    logs: list[t.Any] = []

    async def logging(params: types.LoggingMessageNotificationParams) -> None:
        logs.append(params.data)

    async def main() -> None:
        async with client(stdio_server(), mode, logging_callback=logging, log_level="info") as session:
            await exercise(session, "2026-07-28")
            assert (await session.call_tool("shout", {"message": "hey"})).content[0].text == "HEY"  # type: ignore[union-attr]
            assert logs == [{"said": "hey"}]  # info and above only, for the request that asked
            await listen_for_changes(session, session)

    anyio.run(main)


def test_legacy_client_over_stdio() -> None:
    async def main() -> None:
        async with client(stdio_server(), "legacy") as session:
            await exercise(session, "2025-11-25")

    anyio.run(main)


@pytest.fixture(scope="module")
def http_server() -> t.Iterator[ServerProcess]:
    with ServerProcess([PYTHON, str(ASKING_SERVER), "--port", "{port}"]) as process:
        yield process


@pytest.mark.parametrize("mode", ["2026-07-28", "auto"])
def test_modern_and_legacy_clients_at_once_over_http(http_server: ServerProcess, mode: str) -> None:
    async def main() -> None:
        async with client(http_server.url, mode) as modern, client(http_server.url, "legacy") as legacy:
            async with anyio.create_task_group() as group:
                group.start_soon(exercise, modern, "2026-07-28")
                group.start_soon(exercise, legacy, "2025-11-25")
            await listen_for_changes(modern, legacy)

    anyio.run(main)
