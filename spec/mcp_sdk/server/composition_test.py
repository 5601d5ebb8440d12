"""Composing servers (``server.mount``, ``server.include``), driven by the official Python client
(``mcp``) in both eras, over HTTP (werkzeug, in this process) and stdio (a subprocess behind a tee):
spec/support/composed_server.py mounts ``weather`` under ``weather`` and includes it under ``copy``.
The wire of ``tools/list`` and of a mounted tool's call is compared whole; a mounted tool's progress
and logs reach the client; its server's ``around_request`` and middleware run; a tool added to it
later is listed (not under the snapshot's prefix) and ``list_changed`` arrives. Then the rules
(collisions, visibility, cycles, prefixes) on the server alone."""

from __future__ import annotations

import json
import logging
import pathlib
import sys
import typing as t
import warnings

import anyio
import mcp_types as types
import pytest
from mcp import Client as OfficialClient
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPDeprecationWarning as OfficialDeprecationWarning

from mcp_sdk import Server
from mcp_sdk.server.auth import InsufficientScopeError, Principal
from mcp_sdk.server.composition import prefixed_uri, unprefixed_uri
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support import composed_server
from spec.support.http_server import ROOT, LiveServer
from spec.support.modern import asking_server
from spec.support.wire_tap import WireTap

TIMEOUT = 30.0
LEGACY = "2025-11-25"
MODERN = "2026-07-28"
TEE = ROOT / "spec" / "support" / "stdio_tee.py"
SERVER = ROOT / "spec" / "support" / "composed_server.py"

ALERTS_SCHEMA = {"type": "object", "properties": {"state": {"type": "string"}}, "required": ["state"]}
GROW = {"description": "Add the forecast tool and announce it.", "inputSchema": {"type": "object"}}
TOOLS = [
    {"name": "trail", "description": "What the hooks saw, one a line, then forget it.", "inputSchema": {"type": "object"}},
    {"name": "weather_get_alerts", "description": "Weather alerts for a US state.", "inputSchema": ALERTS_SCHEMA},
    {"name": "weather_grow", **GROW},
    {"name": "copy_get_alerts", "description": "Weather alerts for a US state.", "inputSchema": ALERTS_SCHEMA},
    {"name": "copy_grow", **GROW},
]
SERVER_META = {"io.modelcontextprotocol/serverInfo": {"name": "main", "version": "1.0.0"}}
LIST_RESULT = {
    LEGACY: {"tools": TOOLS},
    MODERN: {"tools": TOOLS, "_meta": SERVER_META, "resultType": "complete", "ttlMs": 60000, "cacheScope": "public"},
}
CALL_CONTENT = {"content": [{"type": "text", "text": "No alerts in CO"}], "isError": False}
CALL_RESULT = {LEGACY: CALL_CONTENT, MODERN: {**CALL_CONTENT, "_meta": SERVER_META, "resultType": "complete"}}
TRAIL = [
    "weather middleware tools/call get_alerts",
    "weather around_request tools/call get_alerts",
    "main around_request tools/call weather_get_alerts",
]


class Heard:
    """What the client was told besides responses."""

    def __init__(self) -> None:
        self.progress: list[tuple[float, float | None, str | None]] = []
        self.logs: list[tuple[str, str | None, t.Any]] = []
        self.list_changed = anyio.Event()

    async def on_log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.logs.append((params.level, params.logger, params.data))

    async def on_progress(self, progress: float, total: float | None, message: str | None) -> None:
        self.progress.append((progress, total, message))

    async def on_message(self, message: t.Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            self.list_changed.set()


async def exercise(official: OfficialClient, heard: Heard, mode: str) -> None:
    """What both transports prove, in one era."""
    if mode == "legacy":  # 2025 asks for logs with logging/setLevel, which the official client deprecates
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", OfficialDeprecationWarning)
            await official.set_logging_level("info")
    assert [tool.name for tool in (await official.list_tools()).tools] == [tool["name"] for tool in TOOLS]
    called = await official.call_tool("weather_get_alerts", {"state": "CO"}, progress_callback=heard.on_progress)
    assert [block.text for block in called.content] == ["No alerts in CO"]  # type: ignore[union-attr]
    assert heard.progress == [(1, 2, "fetching"), (2, 2, "done")]
    assert heard.logs == [("info", "weather", "alerts for CO")]
    trail = (await official.call_tool("trail", {})).content[0].text  # type: ignore[union-attr]
    assert [entry for entry in trail.splitlines() if "tools/call" in entry] == TRAIL

    read = await official.read_resource("weather://weather/alerts/CO")
    assert [(str(item.uri), item.text) for item in read.contents] == [  # type: ignore[union-attr]
        ("weather://weather/alerts/CO", "alerts resource for CO")
    ]
    prompt = await official.get_prompt("weather_brief", {"city": "Oslo"})
    assert [message.content.text for message in prompt.messages] == ["Brief me on Oslo"]  # type: ignore[union-attr]

    if mode == "legacy":
        assert [block.text for block in (await official.call_tool("weather_grow", {})).content] == ["grown"]  # type: ignore[union-attr]
        with anyio.fail_after(TIMEOUT):
            await heard.list_changed.wait()
    else:
        async with official.listen(tools_list_changed=True) as subscription:
            assert [block.text for block in (await official.call_tool("weather_grow", {})).content] == ["grown"]  # type: ignore[union-attr]
            with anyio.fail_after(TIMEOUT):
                event = await subscription.__anext__()
            assert type(event).__name__ == "ToolsListChanged"
    names = [tool.name for tool in (await official.list_tools()).tools]
    assert names == ["trail", "weather_get_alerts", "weather_grow", "weather_forecast", "copy_get_alerts", "copy_grow"]
    forecast = await official.call_tool("weather_forecast", {"city": "Oslo"})
    assert [block.text for block in forecast.content] == ["Sunny in Oslo"]  # type: ignore[union-attr]


def connect(target: t.Any, heard: Heard, mode: str) -> OfficialClient:
    return OfficialClient(
        target, mode=mode, read_timeout_seconds=TIMEOUT, logging_callback=heard.on_log,
        message_handler=heard.on_message, log_level="info" if mode == MODERN else None,
    )


@pytest.mark.parametrize("mode", ["legacy", MODERN])
def test_over_http(mode: str) -> None:
    transport = StreamableHTTPTransport(composed_server.build())
    tap = WireTap(transport)
    heard = Heard()
    composed_server.TRAIL.clear()

    async def main() -> None:
        async with connect(streamable_http_client(live.url), heard, mode) as official:
            await exercise(official, heard, mode)

    with LiveServer(tap, closeables=[transport]) as live:
        anyio.run(main)
    version = LEGACY if mode == "legacy" else MODERN
    assert tap.answers("tools/list")[0]["result"] == LIST_RESULT[version]
    calls = [answer["result"] for answer in tap.answers("tools/call")]
    assert calls[0] == CALL_RESULT[version]
    assert tap.assert_valid() > 0


@pytest.mark.parametrize("mode", ["legacy", MODERN])
def test_over_stdio(mode: str, tmp_path: pathlib.Path) -> None:
    log = tmp_path / "wire.jsonl"
    server = StdioServerParameters(command=sys.executable, args=[str(TEE), str(log), sys.executable, str(SERVER)])
    heard = Heard()

    async def main() -> None:
        async with connect(server, heard, mode) as official:
            await exercise(official, heard, mode)

    anyio.run(main)
    lines = [(entry["from"], json.loads(entry["line"])) for entry in map(json.loads, log.read_text().splitlines())]
    requests = {json.dumps(m["id"]): m["method"] for side, m in lines if side == "client" and "method" in m and "id" in m}
    answers: dict[str, list[t.Any]] = {}
    for side, message in lines:
        if side == "server" and "id" in message and "method" not in message:
            answers.setdefault(requests[json.dumps(message["id"])], []).append(message["result"])
    version = LEGACY if mode == "legacy" else MODERN
    assert answers["tools/list"][0] == LIST_RESULT[version]
    assert answers["tools/call"][0] == CALL_RESULT[version]


# -- the rules, on the server alone -------------------------------------------------


def call(server: Server, method: str, params: dict[str, t.Any]) -> dict[str, t.Any]:
    response = server.handle({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
    assert response is not None
    return t.cast("dict[str, t.Any]", response)


def tool_names(server: Server) -> list[str]:
    return [tool["name"] for tool in call(server, "tools/list", {})["result"]["tools"]]


def weather_server() -> Server:
    weather = Server(name="weather")

    @weather.tool(tags={"beta"})
    def get_alerts(state: str) -> str:
        """Alerts."""
        return f"weather's alerts for {state}"

    @weather.tool
    def ping() -> str:
        """Pong."""
        return "pong"

    @weather.resource("data://cities")
    def cities() -> str:
        return "Boston"

    return weather


def test_the_mounting_server_wins_a_name_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    main = Server(name="main")

    @main.tool
    def weather_get_alerts(state: str) -> str:
        """Main's own."""
        return f"main's alerts for {state}"

    with caplog.at_level(logging.WARNING, logger="mcp_sdk.server"):
        main.mount(weather_server(), prefix="weather")
    assert tool_names(main) == ["weather_get_alerts", "weather_ping"]
    result = call(main, "tools/call", {"name": "weather_get_alerts", "arguments": {"state": "CO"}})["result"]
    assert result["content"] == [{"type": "text", "text": "main's alerts for CO"}]
    assert [record.getMessage() for record in caplog.records] == [
        "tool 'weather_get_alerts' of mounted server 'weather' is not served: "
        "the mounting server or an earlier mount has one of that name"
    ]


def test_the_mounted_servers_visibility_is_followed_and_include_is_a_snapshot() -> None:
    weather = weather_server()
    main = Server(name="main")
    main.mount(weather, prefix="weather")
    main.include(weather, prefix="copy")
    weather.disable_tool("ping")
    assert tool_names(main) == ["weather_get_alerts", "copy_get_alerts", "copy_ping"]
    weather.filter_tags(exclude_tags={"beta"})
    assert tool_names(main) == ["copy_get_alerts", "copy_ping"]
    hidden = call(main, "tools/call", {"name": "weather_get_alerts", "arguments": {"state": "CO"}})
    assert hidden["error"] == {"code": -32602, "message": "Tool not found: weather_get_alerts", "data": {"name": "weather_get_alerts"}}
    weather.remove_tool("ping")
    weather.filter_tags()
    assert tool_names(main) == ["weather_get_alerts", "copy_get_alerts", "copy_ping"]
    main.filter_tags(exclude_tags={"beta"})  # the mounting server's own tag filters apply to mounted items
    assert tool_names(main) == ["copy_ping"]


def test_resources_are_read_under_the_prefix_and_contents_name_it() -> None:
    main = Server(name="main")
    main.mount(weather_server(), prefix="weather")
    listed = call(main, "resources/list", {})["result"]["resources"]
    assert listed == [{"uri": "data://weather/cities", "name": "cities"}]
    read = call(main, "resources/read", {"uri": "data://weather/cities"})["result"]
    assert read == {"contents": [{"uri": "data://weather/cities", "mimeType": "text/plain", "text": "Boston"}]}
    unknown = call(main, "resources/read", {"uri": "data://cities"})["error"]
    assert unknown == {"code": -32602, "message": "Resource not found: data://cities", "data": {"uri": "data://cities"}}


def test_a_cycle_or_a_bad_prefix_is_refused() -> None:
    first, second = Server(name="first"), Server(name="second")
    first.mount(second)
    with pytest.raises(ValueError, match="cycle"):
        second.mount(first)
    with pytest.raises(ValueError, match="cycle"):
        first.mount(first)
    with pytest.raises(ValueError, match="prefix"):
        first.mount(Server(name="third"), prefix="a b")


def test_uri_prefixes_are_path_style_as_fastmcp() -> None:
    assert prefixed_uri("weather", "weather://alerts/{state}") == "weather://weather/alerts/{state}"
    assert prefixed_uri("data", "data://users") == "data://data/users"
    assert prefixed_uri(None, "data://users") == "data://users"
    assert unprefixed_uri("data", "data://data/users") == "data://users"
    assert unprefixed_uri("data", "data://users") is None


def test_a_mounted_tools_scopes_are_kept() -> None:
    weather = Server(name="weather")

    @weather.tool(required_scopes=["weather:admin"])
    def purge() -> str:
        """Needs a scope."""
        return "purged"

    main = Server(name="main")
    main.mount(weather, prefix="weather")
    for scopes, listed in (((), []), (("weather:admin",), ["weather_purge"])):
        session = main.create_session()
        session.auth = Principal(subject="alice", client_id="app", issuer="https://issuer", scopes=scopes)
        init = {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "spec", "version": "1"}}
        main.handle_message({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}, session)
        tools = main.handle_message({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}, session)
        assert [tool["name"] for tool in tools["result"]["tools"]] == listed
        called = main.handle_message(
            {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "weather_purge", "arguments": {}}}, session
        )
        if scopes:
            assert called["result"]["content"] == [{"type": "text", "text": "purged"}]
        else:
            assert called["error"]["code"] == InsufficientScopeError.code


def test_completion_subscribe_and_updates_route_to_the_mounted_server() -> None:
    weather = weather_server()
    received: list[tuple[str, t.Any]] = []

    @weather.prompt
    def brief(city: str) -> str:
        """A brief."""
        return city

    @weather.completion_handler
    def complete(params: dict[str, t.Any]) -> dict[str, t.Any]:
        received.append(("complete", params["ref"]))
        return {"completion": {"values": ["Boston"], "hasMore": False}}

    @weather.resources_subscribe_handler
    def subscribe(params: dict[str, t.Any]) -> None:
        received.append(("subscribe", params["uri"]))

    main = Server(name="main")
    main.mount(weather, prefix="weather")
    events: list[t.Any] = []
    main.subscriptions.subscribe(events.append)
    capabilities = call(main, "initialize", {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "s", "version": "1"}})
    assert capabilities["result"]["capabilities"]["completions"] == {}
    assert capabilities["result"]["capabilities"]["resources"] == {"listChanged": True, "subscribe": True}
    completed = call(main, "completion/complete", {"ref": {"type": "ref/prompt", "name": "weather_brief"}, "argument": {"name": "city", "value": "B"}})
    assert completed["result"] == {"completion": {"values": ["Boston"], "hasMore": False}}
    assert call(main, "resources/subscribe", {"uri": "data://weather/cities"})["result"] == {}
    assert received == [("complete", {"type": "ref/prompt", "name": "brief"}), ("subscribe", "data://cities")]
    weather.notify_resources_updated("data://cities")
    weather.notify_prompts_list_changed()
    assert events == [("resource", "data://weather/cities"), ("prompts", None)]


async def elicit(context: t.Any, params: types.ElicitRequestParams) -> types.ElicitResult:
    if "Proceed" in params.message:
        return types.ElicitResult(action="accept", content={"ok": True})
    return types.ElicitResult(action="accept", content={"name": "Alice"})


@pytest.mark.parametrize("mode", ["legacy", MODERN])
def test_a_mounted_tool_asks_the_client(mode: str) -> None:
    """examples/asking_server.py mounted: an elicitation (real requests on 2025, MRTR on 2026-07-28) and
    an explicit InputRequiredResult with its request state reach the client and come back through the mount."""
    main = Server(name="main")
    main.mount(asking_server(), prefix="ask")
    transport = StreamableHTTPTransport(main)

    async def main_() -> list[str]:
        client = OfficialClient(
            streamable_http_client(live.url), mode=mode, elicitation_callback=elicit, read_timeout_seconds=TIMEOUT
        )
        async with client as official:
            texts = []
            for name in ("ask_greet", "ask_confirm"):
                result = await official.call_tool(name, {})
                texts.append(result.content[0].text)  # type: ignore[union-attr]
            return texts

    with LiveServer(transport, closeables=[transport]) as live:
        assert anyio.run(main_) == ["Hello, Alice!", "state step-1: confirmed"]


def test_mounts_nest_and_a_mount_without_prefix_keeps_the_names() -> None:
    weather = weather_server()
    region = Server(name="region")
    region.mount(weather, prefix="weather")
    main = Server(name="main")
    main.mount(region, prefix="west")
    plain = Server(name="plain")
    plain.mount(weather)
    assert tool_names(main) == ["west_weather_get_alerts", "west_weather_ping"]
    assert tool_names(plain) == ["get_alerts", "ping"]
    nested = call(main, "tools/call", {"name": "west_weather_get_alerts", "arguments": {"state": "CO"}})["result"]
    assert nested["content"] == [{"type": "text", "text": "weather's alerts for CO"}]
    read = call(main, "resources/read", {"uri": "data://west/weather/cities"})["result"]
    assert read == {"contents": [{"uri": "data://west/weather/cities", "mimeType": "text/plain", "text": "Boston"}]}
    assert call(plain, "resources/read", {"uri": "data://cities"})["result"]["contents"][0]["text"] == "Boston"

    @weather.tool
    def later() -> str:
        """Added after mounting."""
        return "later"

    assert tool_names(main) == ["west_weather_get_alerts", "west_weather_ping", "west_weather_later"]
    assert tool_names(plain) == ["get_alerts", "ping", "later"]
