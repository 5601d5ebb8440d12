"""Reading ``mcpServers`` (Claude Desktop's format) into transports, and the names a MultiServerClient gives."""

from __future__ import annotations

import os
import pathlib
import typing as t

import pytest

from mcp_sdk import Client, MCPError, Server
from mcp_sdk.client import HTTP, ConfigError, InMemory, Stdio
from mcp_sdk.client.multi import MultiServerClient, prefix_uri, split_uri
from mcp_sdk.client.server_config import load, transport_for
from mcp_sdk.client.stdio_environment import default_environment
from spec.support import multi_servers


def test_a_stdio_entry_gives_a_stdio_transport() -> None:
    entry = {"command": "python", "args": ["server.py", "--x"], "env": {"KEY": "v"}, "cwd": "/srv", "alwaysAllow": []}
    transport = transport_for("weather", entry, timeout=7.0)
    assert isinstance(transport, Stdio)
    assert (transport.command, transport.args, transport.env, transport.cwd, transport.read_timeout) == (
        "python", ["server.py", "--x"], {"KEY": "v"}, "/srv", 7.0
    )
    assert isinstance(transport_for("w", {"command": "srv", "type": "stdio"}), Stdio)


@pytest.mark.parametrize("kind", [None, "http", "streamable-http", "streamable_http", "streamableHttp"])
def test_a_url_entry_gives_an_http_transport(kind: str | None) -> None:
    entry: dict[str, t.Any] = {"url": "http://127.0.0.1:1/mcp", "headers": {"Authorization": "Bearer t"}}
    if kind is not None:
        entry["transport"] = kind
    transport = transport_for("search", entry)
    assert isinstance(transport, HTTP)
    assert (transport.url, transport.headers, transport.timeout) == ("http://127.0.0.1:1/mcp", {"Authorization": "Bearer t"}, 60.0)
    transport.close()


@pytest.mark.parametrize("entry,message", [
    ({}, "server 's': give command (stdio) or url (HTTP)"),
    ({"command": "a", "url": "http://x"}, "server 's': give either command (stdio) or url (HTTP), not both"),
    ({"command": ""}, "server 's': command must be a non-empty string"),
    ({"command": "a", "args": "b"}, "server 's': args must be a list of strings"),
    ({"command": "a", "env": {"N": 1}}, "server 's': env must map strings to strings"),
    ({"command": "a", "transport": "http"}, "server 's': command runs over stdio, not 'http'"),
    ({"url": "http://x", "transport": "sse"},
     "server 's': the HTTP+SSE transport of MCP 2024-11-05 is not supported; use Streamable HTTP"),
    ({"url": "http://x", "type": "websocket"}, "server 's': unknown transport 'websocket' for a url"),
    ({"url": "http://x", "transport": 3}, "server 's': transport must be a string"),
])
def test_malformed_entries_are_refused(entry: dict[str, t.Any], message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        transport_for("s", entry)
    assert str(raised.value) == message
    assert isinstance(raised.value, MCPError) and isinstance(raised.value, ValueError)


@pytest.mark.parametrize("config,message", [
    ({}, 'an MCP configuration needs an "mcpServers" object'),
    ({"mcpServers": []}, 'an MCP configuration needs an "mcpServers" object'),
    ({"mcpServers": {}}, '"mcpServers" names no server'),
    ({"mcpServers": {"a/b": {"command": "x"}}}, "server name 'a/b': use letters, digits, '.', '-' and '_' (it prefixes tool names and goes in resource URIs)"),
    ({"mcpServers": {"a": "x"}}, "server 'a': the entry must be an object"),
])
def test_malformed_configurations_are_refused(config: dict[str, t.Any], message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        Client.from_config(config)
    assert str(raised.value) == message


def test_a_file_that_is_not_json_is_refused(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text("{not json")
    with pytest.raises(ConfigError, match=r"^cannot read the MCP configuration '.*mcp\.json': Expecting property name"):
        load(path)
    with pytest.raises(ConfigError, match="No such file"):
        load(str(tmp_path / "missing.json"))


def test_uris_take_the_server_after_the_scheme_as_fastmcp_does() -> None:
    assert prefix_uri("weather://alerts/CA", "weather") == "weather://weather/alerts/CA"
    assert prefix_uri("file:///etc/hosts", "fs") == "file://fs//etc/hosts"
    assert prefix_uri("urn:isbn:123", "books") == "urn:books/isbn:123"
    assert prefix_uri("no-scheme", "x") is None
    for uri in ["weather://alerts/CA", "file:///etc/hosts", "urn:isbn:123", "demo://r/{id}"]:
        prefixed = prefix_uri(uri, "srv")
        assert prefixed is not None and split_uri(prefixed) == (uri, "srv")
    assert split_uri("example://readme") is None
    assert split_uri("plain") is None


def answering_server(name: str, tool: str) -> Server:
    server = Server(name=name)

    @server.define_tool(tool, input_schema={"properties": {}})
    def answer(server_context: t.Any = None) -> str:
        return f"{name}/{tool}"

    return server


def test_names_route_to_the_server_whose_listing_gave_them() -> None:
    clients = {
        "a": Client(transport=InMemory(answering_server("a", "x"))),
        "a_b": Client(transport=InMemory(answering_server("a_b", "tool"))),
    }
    with MultiServerClient(clients) as servers:
        assert servers.connect() == {}
        assert [tool.name for tool in servers.tools()] == ["a_x", "a_b_tool"]
        assert servers.call_tool("a_b_tool")["result"]["content"] == [{"type": "text", "text": "a_b/tool"}]
        assert servers.call_tool("a_x")["result"]["content"] == [{"type": "text", "text": "a/x"}]


def test_a_multi_server_client_needs_servers_with_usable_names() -> None:
    with pytest.raises(ConfigError, match="^MultiServerClient needs at least one server$"):
        MultiServerClient({})
    with pytest.raises(ConfigError, match="^server name 'a/b' cannot be a prefix$"):
        MultiServerClient({"a/b": Client(transport=Stdio(command="unused"))})


def environment_of(servers: MultiServerClient[Client], server: str) -> tuple[list[str], str | None]:
    """The names of a recorder server's whole environment, and its ``HOST_ONLY_SECRET``."""
    recorder = servers.clients[server]
    names = recorder.request("environ")["result"]["names"]
    return names, recorder.request("env", {"name": "HOST_ONLY_SECRET"})["result"]["value"]


def test_a_configured_stdio_server_reads_no_variable_it_was_not_given(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOST_ONLY_SECRET", "s3cret")
    config = {"mcpServers": {"recorder": multi_servers.recorder_stdio(str(tmp_path / "log"), GIVEN="yes")}}
    with Client.from_config(config, timeout=20, mode="legacy") as servers:
        assert servers.connect() == {}
        names, secret = environment_of(servers, "recorder")
    assert secret is None
    # LC_CTYPE: Python sets it itself when it coerces the C locale (PEP 538).
    assert sorted(set(names) - {"LC_CTYPE"}) == sorted({*default_environment(), "GIVEN"})


def test_inherit_env_hands_configured_servers_every_variable(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOST_ONLY_SECRET", "s3cret")
    config = {"mcpServers": {"recorder": multi_servers.recorder_stdio(str(tmp_path / "log"), GIVEN="yes")}}
    with Client.from_config(config, timeout=20, mode="legacy", inherit_env=True) as servers:
        assert servers.connect() == {}
        names, secret = environment_of(servers, "recorder")
    assert secret == "s3cret" and set(names) >= {*os.environ, "GIVEN"}
