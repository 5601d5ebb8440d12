"""``Client.from_config``: several real servers behind one client, each in its own era, a failing one left out."""

from __future__ import annotations

import json
import logging
import pathlib
import sys
import typing as t

import pytest

from mcp_sdk import Client, MCPError, RequestTimeoutError, TransportError
from mcp_sdk.client import ServerUnavailableError, UnknownServerError
from mcp_sdk.client.multi import MultiServerClient
from spec.support import multi_servers

OURS_TOOLS = ["ours_example_tool", "ours_count", "ours_shout_tool"]
OFFICIAL_TOOLS = ["official_echo", "official_confirm", "official_sample", "official_count_roots",
                  "official_hand_rolled", "official_touch"]
WEB_TOOLS = ["web_echo", "web_countdown", "web_ask_llm"]


@pytest.fixture(scope="module")
def web() -> t.Iterator[dict[str, t.Any]]:
    with multi_servers.ours_http() as entry:
        yield entry


def config(web: dict[str, t.Any]) -> dict[str, t.Any]:
    return {"mcpServers": {
        "ours": multi_servers.ours_stdio(),
        "official": multi_servers.official_stdio(),
        "web": web,
        "broken": multi_servers.missing_command(),
    }}


def text(response: dict[str, t.Any]) -> str:
    return str(response["result"]["content"][0]["text"])


def test_three_servers_and_a_missing_one(web: dict[str, t.Any], caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="mcp_sdk.client.multi"), Client.from_config(config(web), timeout=20) as servers:
        failures = servers.connect()

        assert list(failures) == ["broken"]
        assert isinstance(failures["broken"], TransportError)
        assert str(failures["broken"]) == (
            f"Failed to start MCP server {multi_servers.ROOT}/no-such-mcp-server --stdio: "
            f"[Errno 2] No such file or directory: '{multi_servers.ROOT}/no-such-mcp-server'"
        )
        assert servers.failures == failures
        assert servers.connected == ["ours", "official", "web"]
        assert servers.connect() == failures  # nothing more to do: no second warning below
        assert [record.getMessage() for record in caplog.records] == [
            f"MCP server 'broken' is unavailable, its tools, prompts and resources left out: {failures['broken']}"
        ]
        assert [tool.name for tool in servers.tools()] == OURS_TOOLS + OFFICIAL_TOOLS + WEB_TOOLS

        assert text(servers.call_tool("ours_example_tool", {"message": "hi"})) == "Hello from example tool! Message: hi"
        assert servers.call_tool("official_echo", {"message": "hi"})["result"]["structuredContent"] == {"result": "hi"}
        assert text(servers.call_tool("web_echo", {"message": "hi"})) == "Hello hi"
        tool = next(tool for tool in servers.tools() if tool.name == "web_echo")
        assert text(servers.call_tool(tool=tool, arguments={"message": "by tool"})) == "Hello by tool"

        with pytest.raises(ServerUnavailableError) as raised:
            servers.call_tool("broken_anything", {})
        assert raised.value.server == "broken"
        assert raised.value.cause is failures["broken"]
        assert str(raised.value) == f"MCP server 'broken' is unavailable: {failures['broken']}"


def test_each_server_keeps_its_own_era(web: dict[str, t.Any]) -> None:
    servers_config = {"mcpServers": {
        "ours": multi_servers.ours_stdio(),
        "everything": multi_servers.everything_stdio(),
        "web": web,
    }}
    with Client.from_config(servers_config, timeout=20) as servers:
        assert servers.connect() == {}
        assert {name: client.protocol_version for name, client in servers.clients.items()} == {
            "ours": "2026-07-28", "everything": "2025-11-25", "web": "2026-07-28",
        }
        names = [tool.name for tool in servers.tools()]
        assert names[:3] == OURS_TOOLS and names[-3:] == WEB_TOOLS
        assert "everything_echo" in names and all(name.startswith("everything_") for name in names[3:-3])
        assert text(servers.call_tool("everything_echo", {"message": "hi"})) == "Echo: hi"
        assert text(servers.call_tool("ours_shout_tool", {"message": "hi"})) == "HI"


def test_a_crashing_server_and_a_refused_url_leave_the_others_working(web: dict[str, t.Any]) -> None:
    refused = multi_servers.refused_url()
    servers_config = {"mcpServers": {
        "crashing": multi_servers.crashing_command(),
        "ours": multi_servers.ours_stdio(),
        "refused": refused,
    }}
    with Client.from_config(servers_config, timeout=20) as servers:
        failures = servers.connect()
        assert list(failures) == ["crashing", "refused"]
        assert "exited with code 3" in str(failures["crashing"])
        assert str(failures["refused"]).startswith(f"POST {refused['url']} failed: ")
        assert [tool.name for tool in servers.tools()] == OURS_TOOLS
        assert [prompt["name"] for prompt in servers.prompts()] == ["ours_greeting"]
        with pytest.raises(ServerUnavailableError, match="'refused' is unavailable"):
            servers.get_prompt("refused_greeting")


def test_a_server_that_does_not_answer_in_time_is_left_out() -> None:
    silent = {"command": sys.executable, "args": ["-c", "import time; time.sleep(60)"]}
    servers_config = {"mcpServers": {"silent": silent, "ours": multi_servers.ours_stdio()}}
    with Client.from_config(servers_config, connect_timeout=6) as servers:
        failures = servers.connect()
        assert list(failures) == ["silent"]
        assert isinstance(failures["silent"], RequestTimeoutError)
        assert str(failures["silent"]) == "no connection within 6 s"
        assert [tool.name for tool in servers.tools()] == OURS_TOOLS
        process = servers.clients["silent"].transport.process
        assert process is not None and process.returncode is not None  # closed, not left running


def test_a_server_that_dies_later_is_taken_out(web: dict[str, t.Any]) -> None:
    with Client.from_config(config(web), timeout=20) as servers:
        servers.connect()
        process = servers.clients["ours"].transport.process
        process.kill()
        process.wait(10)
        with pytest.raises(ServerUnavailableError) as raised:
            servers.call_tool("ours_example_tool", {"message": "hi"})
        assert raised.value.server == "ours"
        assert isinstance(raised.value.__cause__, TransportError)
        assert list(servers.failures) == ["broken", "ours"]
        assert [tool.name for tool in servers.tools()] == OFFICIAL_TOOLS + WEB_TOOLS


def test_prompts_and_resources_route_with_the_prefix_stripped(web: dict[str, t.Any]) -> None:
    with Client.from_config(config(web), timeout=20) as servers:
        servers.connect()
        assert [prompt["name"] for prompt in servers.prompts()] == ["ours_greeting", "official_greet"]
        assert servers.get_prompt("ours_greeting", {"name": "Ann"})["messages"] == [
            {"role": "user", "content": {"type": "text", "text": "Please greet Ann warmly."}}
        ]
        assert servers.get_prompt("official_greet", {"name": "Ann"})["messages"] == [
            {"role": "user", "content": {"type": "text", "text": "Say hello to Ann"}}
        ]
        assert [resource["uri"] for resource in servers.resources()] == ["example://ours/readme", "fixture://official/greeting"]
        assert servers.read_resource("example://ours/readme") == [
            {"uri": "example://ours/readme", "mimeType": "text/plain", "text": "An example MCP server on stdio."}
        ]
        assert servers.read_resource("fixture://official/greeting") == [
            {"uri": "fixture://official/greeting", "mimeType": "text/plain", "text": "hi there"}
        ]
        assert servers.resource_templates() == []


def test_names_without_a_known_server_are_refused(web: dict[str, t.Any]) -> None:
    with Client.from_config(config(web), timeout=20) as servers:
        servers.connect()
        with pytest.raises(UnknownServerError) as raised:
            servers.call_tool("nobody_echo")
        assert str(raised.value) == "'nobody_echo' names none of the servers ours, official, web, broken (<server>_<name>)"
        assert isinstance(raised.value, MCPError) and isinstance(raised.value, LookupError)
        with pytest.raises(UnknownServerError, match="scheme://<server>/path"):
            servers.read_resource("example://readme")
        with pytest.raises(TypeError):
            servers.call_tool()


def test_a_json_file_and_calls_before_connect(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"ours": multi_servers.ours_stdio()}}))
    with Client.from_config(str(path)) as servers:
        assert isinstance(servers, MultiServerClient)
        with pytest.raises(ServerUnavailableError, match="^MCP server 'ours' is unavailable$"):
            servers.call_tool("ours_count", {"to": 1})
        assert servers.connect() == {}
        assert text(servers.call_tool("ours_count", {"to": 2})) == "Counted to 2"
    assert servers.connected == []
