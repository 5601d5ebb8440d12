"""The client side of the tasks extension, against this SDK's own server on real HTTP."""

from __future__ import annotations

import sys
import typing as t

import pytest

import mcp_sdk
from mcp_sdk import Client, Server, Tool
from mcp_sdk.client import HTTP, Stdio, TaskHandle
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.http_server import LiveServer
from spec.support.stdio_peer import SUPPORT
from spec.support.task_tools import AskName, Gated, release

TIMEOUT = 20.0


class Broken(Tool):
    tool_name = "broken"
    input_schema = {"type": "object", "properties": {}}
    task = "required"

    @classmethod
    def call(cls) -> str:
        raise mcp_sdk.errors.InternalError("Internal error: it broke")


class Plain(Tool):
    tool_name = "plain"
    input_schema = {"type": "object", "properties": {}}

    @classmethod
    def call(cls) -> str:
        return "at once"


@pytest.fixture
def url() -> t.Iterator[str]:
    release.clear()
    server = Server("tasks-client-spec", tools=[Gated, AskName, Broken, Plain])
    transport = StreamableHTTPTransport(server)
    with LiveServer(transport, closeables=[transport]) as live:
        yield live.url
    release.set()
    server.tasks.close()


def connected(url: str) -> Client:
    client = Client(HTTP(url=url, timeout=TIMEOUT))
    client.connect(mode="modern")
    return client


def test_call_tool_follows_a_task_to_its_result_answering_input(url: str) -> None:
    client = connected(url)
    try:
        client.on_elicitation(lambda params: {"action": "accept", "content": {"name": "Ada"}})
        response = client.call_tool("ask_name", arguments={})
        assert response["result"] == {"content": [{"type": "text", "text": "Hello, Ada!"}], "isError": False}
    finally:
        client.close()


def test_call_tool_task_gives_a_handle(url: str) -> None:
    client = connected(url)
    try:
        handle = client.call_tool_task("gated", {})
        assert isinstance(handle, TaskHandle)
        assert handle.status()["status"] == "working"
        with pytest.raises(mcp_sdk.RequestTimeoutError):
            handle.result(timeout=0.05)
        release.set()
        assert handle.result(timeout=TIMEOUT)["content"] == [{"type": "text", "text": "released"}]
        assert handle.task_id not in repr(handle)
    finally:
        client.close()


def test_cancel_ends_the_task(url: str) -> None:
    client = connected(url)
    try:
        handle = client.call_tool_task("gated", {})
        handle.cancel()
        with pytest.raises(mcp_sdk.CancelledError):
            handle.result(timeout=TIMEOUT)
    finally:
        client.close()


def test_a_failed_task_raises_its_error(url: str) -> None:
    client = connected(url)
    try:
        with pytest.raises(Client.ServerError) as raised:
            client.call_tool("broken", arguments={})
        assert raised.value.code == -32603
    finally:
        client.close()


def test_a_direct_answer_gives_a_completed_handle(url: str) -> None:
    client = connected(url)
    try:
        handle = client.call_tool_task("plain", {})
        assert handle.status()["status"] == "completed"
        assert handle.result()["content"] == [{"type": "text", "text": "at once"}]
    finally:
        client.close()


def test_a_task_id_survives_a_reconnect(url: str) -> None:
    first = connected(url)
    try:
        task_id = first.call_tool_task("gated", {}).task_id
    finally:
        first.close()
    release.set()
    second = connected(url)
    try:
        assert second.task(task_id).result(timeout=TIMEOUT)["content"] == [{"type": "text", "text": "released"}]
        with pytest.raises(Client.ServerError) as raised:
            second.task("no-such-task").status()
        assert raised.value.code == -32602
    finally:
        second.close()


def test_call_tool_follows_a_task_over_stdio() -> None:
    client = Client(Stdio(sys.executable, [str(SUPPORT / "tasks_stdio_server.py")], read_timeout=TIMEOUT))
    try:
        client.connect(mode="modern")
        client.on_elicitation(lambda params: {"action": "accept", "content": {"name": "Pipe"}})
        handle = client.call_tool_task("ask_name", {})
        assert handle.result(timeout=TIMEOUT)["content"] == [{"type": "text", "text": "Hello, Pipe!"}]
        assert client.call_tool("ask_name", arguments={})["result"]["content"][0]["text"] == "Hello, Pipe!"
    finally:
        client.close()
