"""Changing what a server serves at run time, and its middleware, through the official Python client
(``mcp``) over real stdio, in both eras: spec/support/runtime_server.py removes, disables, enables and
filters tools from inside calls, caches ``resources/read`` and rate-limits ``tools/call``."""

from __future__ import annotations

import itertools
import sys
import typing as t

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.caching import CacheConfig
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from spec.support.http_server import ROOT

TIMEOUT = 30.0
SCRIPT = ROOT / "spec" / "support" / "runtime_server.py"
LIST = ["echo", "wipe", "remove", "disable", "enable", "only", "read_count", "touch"]

_ticks = itertools.count()


def no_client_cache() -> CacheConfig:
    """A client cache whose entries are always expired: every read reaches the server."""
    return CacheConfig(clock=lambda: next(_ticks) * 1e9)


def client(mode: str, *arguments: str, **options: t.Any) -> Client:
    server = StdioServerParameters(command=sys.executable, args=[str(SCRIPT), *arguments])
    return Client(server, mode=mode, read_timeout_seconds=TIMEOUT, cache=no_client_cache(), **options)


async def names(session: Client) -> list[str]:
    return [tool.name for tool in (await session.list_tools()).tools]


async def text(session: Client, name: str, arguments: dict[str, t.Any] | None = None) -> str:
    result = await session.call_tool(name, arguments or {})
    return str(result.content[0].text)  # type: ignore[union-attr]


async def change_tools(session: Client) -> None:
    assert await names(session) == LIST  # "debug" carries an excluded tag
    with pytest.raises(MCPError) as hidden:
        await session.call_tool("debug", {})
    assert (hidden.value.code, hidden.value.error.message) == (-32602, "Tool not found: debug")
    assert await text(session, "disable", {"name": "wipe"}) == "disabled wipe"
    assert "wipe" not in await names(session)
    with pytest.raises(MCPError) as disabled:
        await session.call_tool("wipe", {})
    assert (disabled.value.code, disabled.value.error.message) == (-32602, "Tool not found: wipe")
    assert await text(session, "enable", {"name": "wipe"}) == "enabled wipe"
    assert await text(session, "wipe") == "wiped"
    assert await text(session, "only", {"tag": "public"}) == "only public"
    assert await names(session) == ["echo"]


@pytest.mark.parametrize("mode", ["2026-07-28", "legacy"])
def test_disable_enable_and_tag_filters(mode: str) -> None:
    async def main() -> None:
        async with client(mode) as session:
            await change_tools(session)

    anyio.run(main)


def test_a_2026_listener_hears_a_tool_removed_while_it_waits() -> None:
    async def main() -> None:
        async with client("2026-07-28") as session:
            async with session.listen(tools_list_changed=True) as subscription:
                assert await text(session, "remove", {"name": "wipe"}) == "removed wipe"
                with anyio.fail_after(TIMEOUT):
                    event = await subscription.__anext__()
                assert type(event).__name__ == "ToolsListChanged"
            assert "wipe" not in await names(session)
            with pytest.raises(MCPError) as removed:
                await session.call_tool("wipe", {})
            assert removed.value.error.message == "Tool not found: wipe"

    anyio.run(main)


def test_a_2025_session_is_sent_list_changed_for_each_change() -> None:
    heard: list[str] = []

    async def on_message(message: t.Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            heard.append(message.method)

    async def main() -> None:
        async with client("legacy", message_handler=on_message) as session:
            await text(session, "disable", {"name": "wipe"})
            await text(session, "disable", {"name": "wipe"})  # already disabled: nothing changes, nothing sent
            await text(session, "enable", {"name": "wipe"})
            await text(session, "remove", {"name": "wipe"})
            await names(session)  # a round trip after the last change: its notification came before
        assert heard == ["notifications/tools/list_changed"] * 3

    anyio.run(main)


@pytest.mark.parametrize("mode", ["2026-07-28", "legacy"])
def test_resources_read_is_cached_until_the_resource_changes(mode: str) -> None:
    async def main() -> None:
        async with client(mode) as session:
            first = await session.read_resource("data://counter")
            second = await session.read_resource("data://counter")
            assert [first.contents[0].text, second.contents[0].text] == ["read 1", "read 1"]  # type: ignore[union-attr]
            assert await text(session, "read_count") == "1"
            if mode == "2026-07-28":  # the entry's time left: at most the cache's ten minutes
                assert 0 < second.ttl_ms <= 600_000 and first.ttl_ms == 600_000
                assert first.cache_scope == "private"
            assert await text(session, "touch") == "touched"
            third = await session.read_resource("data://counter")
            assert third.contents[0].text == "read 2"  # type: ignore[union-attr]

    anyio.run(main)


@pytest.mark.parametrize("mode", ["2026-07-28", "legacy"])
def test_calls_past_the_rate_are_refused_with_a_retry_hint(mode: str) -> None:
    async def main() -> None:
        async with client(mode, "3") as session:
            assert [await text(session, "echo", {"message": str(n)}) for n in range(3)] == ["0", "1", "2"]
            with pytest.raises(MCPError) as limited:
                await session.call_tool("echo", {"message": "3"})
            error = limited.value.error
            assert (error.code, error.message.startswith("Rate limit exceeded: retry after ")) == (-32029, True)
            assert 0 < error.data["retryAfterMs"] <= 1_000_000
            assert await names(session) == LIST  # only tools/call is limited

    anyio.run(main)
