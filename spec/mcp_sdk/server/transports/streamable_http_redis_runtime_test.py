"""Run-time changes across Redis workers: a tool removed, disabled or filtered on one worker sends
``list_changed`` to the 2026-07-28 listeners and the 2025 sessions of another (two transports on one
real ``redis-server`` act as two workers), through the official Python client (``mcp``)."""

from __future__ import annotations

import typing as t

import anyio
import mcp_types as types
import pytest
from mcp import Client

from mcp_sdk import Server
from mcp_sdk.server.middleware import ResponseCache
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.http_server import LiveServer
from spec.support.redis_server import RedisServer

TIMEOUT = 30.0


@pytest.fixture(scope="module")
def redis_server() -> t.Iterator[RedisServer]:
    with RedisServer() as server:
        yield server


def worker(name: str, redis_url: str) -> tuple[Server, LiveServer]:
    server = Server(name=name, version="1.0.0")

    @server.tool(tags={"admin"})
    def wipe() -> str:
        """An admin tool."""
        return "wiped"

    @server.tool
    def echo(message: str) -> str:
        """Say it back."""
        return message

    server.add_middleware(ResponseCache(ttl=600.0))
    transport = StreamableHTTPTransport(server, redis_url=redis_url, redis_prefix="runtime-pair:")
    return server, LiveServer(transport, closeables=[transport])


def test_changes_on_one_worker_reach_listeners_and_sessions_on_another(redis_server: RedisServer) -> None:
    server_a, live_a = worker("a", redis_server.url)
    server_b, live_b = worker("b", redis_server.url)
    heard: list[str] = []
    legacy_heard = anyio.Event()

    async def on_message(message: t.Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            heard.append(message.method)
            legacy_heard.set()

    async def next_change(subscription: t.Any) -> str:
        with anyio.fail_after(TIMEOUT):
            return type(await subscription.__anext__()).__name__

    async def main() -> None:
        nonlocal legacy_heard
        async with Client(live_b.url, mode="2026-07-28", read_timeout_seconds=TIMEOUT) as modern, Client(
            live_b.url, mode="legacy", read_timeout_seconds=TIMEOUT, message_handler=on_message
        ) as legacy:
            assert [tool.name for tool in (await legacy.list_tools()).tools] == ["wipe", "echo"]  # now cached on b
            async with modern.listen(tools_list_changed=True) as subscription:
                for change in (
                    lambda: server_a.disable_tool("wipe"),
                    lambda: server_a.enable_tool("wipe"),
                    lambda: server_a.filter_tags(exclude_tags=["admin"]),
                    lambda: server_a.remove_tool("wipe"),
                ):
                    legacy_heard = anyio.Event()
                    change()
                    assert await next_change(subscription) == "ToolsListChanged"
                    with anyio.fail_after(TIMEOUT):
                        await legacy_heard.wait()
            assert heard == ["notifications/tools/list_changed"] * 4
            # Worker b's cache was dropped by a's change (its registry, unchanged, lists both again).
            assert [tool.name for tool in (await legacy.list_tools()).tools] == ["wipe", "echo"]
            server_b.remove_tool("wipe")
            assert [tool.name for tool in (await legacy.list_tools()).tools] == ["echo"]

    with live_a, live_b:
        anyio.run(main)
