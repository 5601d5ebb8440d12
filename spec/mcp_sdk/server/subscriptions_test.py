"""subscriptions/listen (mcp_sdk/server/subscriptions.py) in-process: ack first, the filter,
subscriptionId tags, changes from other requests, graceful close, the bus."""

from __future__ import annotations

import threading
import typing as t

import pytest

from mcp_sdk import Server
from mcp_sdk.server.subscriptions import InProcessBus, agreed_filter
from mcp_sdk.errors import InvalidParamsError
from spec.support.modern import Recorder, asking_server, modern_request, serve, tool_call
from spec.support.wire_schema import assert_valid_modern

TIMEOUT = 10.0
TAG = "io.modelcontextprotocol/subscriptionId"


class Listening:
    """A listen request served on a thread, writing to its own recorder."""

    def __init__(self, server: Server, notifications: dict[str, t.Any], id: t.Any = "sub-1") -> None:
        self.server = server
        self.channel = Recorder(server)
        self.id = id
        self.response: t.Any = None
        self.thread = threading.Thread(target=self._run, args=(notifications,), name="spec-listen")
        self.thread.start()
        self.channel.wait_for(1)  # the acknowledgement: the listener is subscribed

    def _run(self, notifications: dict[str, t.Any]) -> None:
        self.response = self.server.handle_message(
            modern_request("subscriptions/listen", {"notifications": notifications}, id=self.id), self.channel
        )

    def end(self) -> dict[str, t.Any]:
        self.server.close_subscriptions()
        self.thread.join(TIMEOUT)
        assert not self.thread.is_alive()
        for message in self.channel.messages():
            assert_valid_modern("subscriptions/listen", message)
        assert_valid_modern("subscriptions/listen", self.response)
        return t.cast("dict[str, t.Any]", self.response)


@pytest.fixture
def server() -> t.Iterator[Server]:
    server = asking_server()
    yield server
    server.close_subscriptions()


def test_ack_first_then_tagged_changes_then_a_graceful_result(server: Server) -> None:
    listening = Listening(server, {"toolsListChanged": True, "promptsListChanged": True})
    serve(server, tool_call("touch", id=2))  # another request changes both lists
    listening.channel.wait_for(3)
    result = listening.end()
    assert listening.channel.written == [
        ({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {"_meta": {TAG: "sub-1"}, "notifications": {"toolsListChanged": True, "promptsListChanged": True}}}, "sub-1"),
        ({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {"_meta": {TAG: "sub-1"}}}, "sub-1"),
        ({"jsonrpc": "2.0", "method": "notifications/prompts/list_changed", "params": {"_meta": {TAG: "sub-1"}}}, "sub-1"),
    ]
    assert result == {
        "jsonrpc": "2.0",
        "id": "sub-1",
        "result": {"_meta": {TAG: "sub-1", "io.modelcontextprotocol/serverInfo": {"name": "asking_example", "version": "1.0.0"}}, "resultType": "complete"},
    }


def test_the_filter_is_honoured(server: Server) -> None:
    prompts_only = Listening(server, {"promptsListChanged": True}, id=1)
    tools_only = Listening(server, {"toolsListChanged": True}, id=2)
    serve(server, tool_call("touch", id=3))
    prompts_only.channel.wait_for(2)
    tools_only.channel.wait_for(2)
    prompts_only.end()
    tools_only.end()
    assert [m["method"] for m in prompts_only.channel.messages()] == ["notifications/subscriptions/acknowledged", "notifications/prompts/list_changed"]
    assert [m["method"] for m in tools_only.channel.messages()] == ["notifications/subscriptions/acknowledged", "notifications/tools/list_changed"]


def test_resource_updates_reach_only_subscribers_of_that_uri(server: Server) -> None:
    readme = Listening(server, {"resourceSubscriptions": ["example://readme", "example://readme"]}, id=1)
    clock = Listening(server, {"resourceSubscriptions": ["example://clock"]}, id=2)
    serve(server, tool_call("touch", {"uri": "example://readme"}, id=3))
    server.notify_resources_updated("example://clock")
    readme.channel.wait_for(2)
    clock.channel.wait_for(2)
    readme.end()
    clock.end()
    assert readme.channel.messages()[0]["params"]["notifications"] == {"resourceSubscriptions": ["example://readme"]}
    assert readme.channel.messages()[1:] == [
        {"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"_meta": {TAG: 1}, "uri": "example://readme"}}
    ]
    assert clock.channel.messages()[1:] == [
        {"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"_meta": {TAG: 2}, "uri": "example://clock"}}
    ]


def test_the_listener_leaves_the_bus_when_it_ends(server: Server) -> None:
    bus = server.subscriptions
    assert isinstance(bus, InProcessBus)
    listening = Listening(server, {"toolsListChanged": True})
    assert bus.listener_count == 1
    listening.end()
    assert bus.listener_count == 0


@pytest.mark.parametrize(
    "notifications",
    [None, [], {"toolsListChanged": "yes"}, {"resourceSubscriptions": "example://readme"}, {"resourceSubscriptions": [1]}],
)
def test_a_malformed_filter_is_minus_32602(server: Server, notifications: t.Any) -> None:
    params = {} if notifications is None else {"notifications": notifications}
    response = serve(server, modern_request("subscriptions/listen", params, id=8))
    assert response["id"] == 8 and response["error"]["code"] == -32602


def test_agreed_filter_drops_unknown_and_false_flags() -> None:
    assert agreed_filter({"notifications": {"toolsListChanged": False, "promptsListChanged": True, "somethingElse": True}}) == {"promptsListChanged": True}
    with pytest.raises(InvalidParamsError):
        agreed_filter({"notifications": {"resourceSubscriptions": ["u"] * 1001}})


def test_a_2025_session_still_gets_list_changed_as_before(server: Server) -> None:
    written: list[dict[str, t.Any]] = []
    session = server.create_session(lambda message, related: written.append(message))
    server.handle_message({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}, session)
    server.handle_message({"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    listening = Listening(server, {"toolsListChanged": True})
    server.notify_tools_list_changed()
    listening.channel.wait_for(2)
    listening.end()
    assert written == [{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}]


def test_a_connection_serving_only_modern_requests_gets_no_session_broadcasts(server: Server) -> None:
    written: list[dict[str, t.Any]] = []
    connection = server.create_session(lambda message, related: written.append(message))
    serve(server, modern_request("tools/list"), connection)
    server.notify_tools_list_changed()
    server.notify_prompts_list_changed()
    server.notify_resources_list_changed()
    assert written == []  # 2026-07-28 delivers list_changed only on subscriptions/listen streams
    server.handle_message({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}, connection)
    server.notify_tools_list_changed()
    assert written[-1] == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}


def test_a_change_racing_the_acknowledgement_arrives_after_it() -> None:
    """A change made while the ack is being written (the client reacting to it at once, say)
    reaches the listener, after the ack: it is subscribed before the ack goes out."""
    server = asking_server()

    class Racing(Recorder):
        def _record(self, message: dict[str, t.Any], related: t.Any) -> None:
            super()._record(message, related)
            if message["method"] == "notifications/subscriptions/acknowledged":
                server.notify_tools_list_changed()

    channel = Racing(server)
    thread = threading.Thread(
        target=server.handle_message,
        args=(modern_request("subscriptions/listen", {"notifications": {"toolsListChanged": True}}, id="race"), channel),
        name="spec-listen-race",
    )
    thread.start()
    try:
        assert [m["method"] for m in channel.wait_for(2)] == [
            "notifications/subscriptions/acknowledged",
            "notifications/tools/list_changed",
        ]
    finally:
        server.close_subscriptions()
        thread.join(TIMEOUT)
