"""Finding 13: ``<server>_<name>`` collisions. Server ``a`` lists ``b_delete_everything`` and
server ``a_b`` lists ``delete_everything``: both are ``a_b_delete_everything``. A call used to go
to the longest prefix (``a_b``); now the name is refused, with both servers named, and routing
follows the listings, never a prefix."""

from __future__ import annotations

import contextlib
import logging
import typing as t

import pytest

from mcp_sdk import Client, Server
from mcp_sdk.client import HTTP, NameCollisionError, UnknownServerError
from mcp_sdk.client.multi import MultiServerClient
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.client_servers import TIMEOUT, Recorder, wsgi_server

DELETE_EVERYTHING = "a_b_delete_everything"


def answering(text: str) -> t.Callable[..., str]:
    def answer(server_context: t.Any = None) -> str:
        return text

    return answer


def server_of(name: str, *tools: str) -> Server:
    """A server whose tools answer ``<server>/<tool>``."""
    server = Server(name=name)
    for tool in tools:
        server.define_tool(tool, input_schema={"properties": {}}, handler=answering(f"{name}/{tool}"))
    return server


@contextlib.contextmanager
def served(servers: dict[str, Server], **client_options: t.Any) -> t.Iterator[tuple[MultiServerClient[Client], dict[str, Recorder]]]:
    """Each server over Streamable HTTP on 127.0.0.1, and a MultiServerClient of them all (connected)."""
    with contextlib.ExitStack() as stack:
        recorders: dict[str, Recorder] = {}
        clients: dict[str, Client] = {}
        for name, server in servers.items():
            transport = StreamableHTTPTransport(server)
            stack.callback(transport.close)
            recorders[name] = Recorder(transport)
            clients[name] = Client(HTTP(url=stack.enter_context(wsgi_server(recorders[name])), timeout=TIMEOUT), **client_options)
        multi = stack.enter_context(MultiServerClient(clients))
        assert multi.connect() == {}
        yield multi, recorders


def tool_calls(recorders: dict[str, Recorder]) -> dict[str, list[t.Any]]:
    return {name: [body["params"]["name"] for body in recorder.bodies("tools/call")] for name, recorder in recorders.items()}


def test_a_name_two_servers_list_is_refused_and_reaches_neither(caplog: pytest.LogCaptureFixture) -> None:
    servers = {"a": server_of("a", "b_delete_everything", "x"), "a_b": server_of("a_b", "delete_everything", "y")}
    with served(servers) as (multi, recorders), caplog.at_level(logging.WARNING, logger="mcp_sdk.client.multi"):
        assert [tool.name for tool in multi.tools()] == ["a_x", "a_b_y"]
        assert [record.getMessage() for record in caplog.records] == [
            f"MCP servers 'a' and 'a_b' all list tool {DELETE_EVERYTHING!r}; refused: it is listed for none and calls "
            "to it fail ('a' lists 'b_delete_everything', 'a_b' lists 'delete_everything')"
        ]
        with pytest.raises(NameCollisionError) as raised:
            multi.call_tool(DELETE_EVERYTHING, {})
        assert str(raised.value) == (
            f"{DELETE_EVERYTHING!r} is refused: server 'a' lists tool 'b_delete_everything' and server 'a_b' lists tool"
            " 'delete_everything'; rename one of the servers in the configuration"
        )
        assert raised.value.servers == ["a", "a_b"]
        assert raised.value.listed_by == (("a", "b_delete_everything"), ("a_b", "delete_everything"))
        assert isinstance(raised.value, UnknownServerError)
        assert multi.tools() and len(caplog.records) == 1  # warned once, when the collision appears

        assert multi.call_tool("a_x")["result"]["content"] == [{"type": "text", "text": "a/x"}]
        assert multi.call_tool("a_b_y")["result"]["content"] == [{"type": "text", "text": "a_b/y"}]
        assert tool_calls(recorders) == {"a": ["x"], "a_b": ["y"]}


def test_a_collision_is_refused_before_any_listing_too() -> None:
    servers = {"a": server_of("a", "b_delete_everything"), "a_b": server_of("a_b", "delete_everything")}
    with served(servers) as (multi, recorders):
        with pytest.raises(NameCollisionError):
            multi.call_tool(DELETE_EVERYTHING, {})  # nothing listed yet: both servers are listed first
        assert tool_calls(recorders) == {"a": [], "a_b": []}


def test_calls_go_where_the_listing_says_not_to_the_longest_prefix() -> None:
    # Only server "a" lists "b_tool": the call goes to "a", although "a_b" is the longer prefix.
    servers = {"a": server_of("a", "b_tool"), "a_b": server_of("a_b", "other")}
    with served(servers) as (multi, recorders):
        assert [tool.name for tool in multi.tools()] == ["a_b_tool", "a_b_other"]
        assert multi.call_tool("a_b_tool")["result"]["content"] == [{"type": "text", "text": "a/b_tool"}]
        with pytest.raises(UnknownServerError) as raised:
            multi.call_tool("a_b_missing")
        assert str(raised.value) == "'a_b_missing' is no tool listed by server 'a' or 'a_b'"
        assert tool_calls(recorders) == {"a": ["b_tool"], "a_b": []}


def test_a_tool_added_since_the_last_listing_is_found_by_listing_again() -> None:
    servers = {"a": server_of("a", "x"), "a_b": server_of("a_b", "y")}
    with served(servers, cache=False) as (multi, recorders):  # a cached listing is kept for its ttlMs
        assert [tool.name for tool in multi.tools()] == ["a_x", "a_b_y"]
        servers["a_b"].define_tool("late", input_schema={"properties": {}}, handler=answering("late"))
        assert multi.call_tool("a_b_late")["result"]["content"] == [{"type": "text", "text": "late"}]
        assert tool_calls(recorders) == {"a": [], "a_b": ["late"]}
