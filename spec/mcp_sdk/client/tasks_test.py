"""The client side of the tasks extension, against this SDK's own server on real HTTP."""

from __future__ import annotations

import threading
import typing as t

import pytest

import mcp_sdk
from mcp_sdk import Client, Server, Tool
from mcp_sdk.client import HTTP, TaskHandle
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.http_server import LiveServer

TIMEOUT = 20.0
NAME_SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
release = threading.Event()


class Gated(Tool):
    tool_name = "gated"
    input_schema = {"type": "object", "properties": {}}
    task = True

    @classmethod
    def call(cls, server_context: t.Any) -> str:
        while not release.is_set():
            if server_context.cancellation.wait(0.05):
                server_context.raise_if_cancelled()
        return "released"


class AskName(Tool):
    tool_name = "ask_name"
    input_schema = {"type": "object", "properties": {}}
    task = True

    @classmethod
    def call(cls, server_context: t.Any) -> str:
        answer = server_context.create_form_elicitation("Your name?", NAME_SCHEMA)
        return f"Hello, {answer['content']['name']}!"


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
