"""Handlers see the HTTP request that carried their call (``server_context.request``) and run
inside the host's handler contexts, on whatever thread runs them (issue 18, part 1)."""

from __future__ import annotations

import contextlib
import contextvars
import threading
import typing as t

import pytest

from mcp_sdk import Client, Configuration, Server, Tool
from mcp_sdk.client import HTTP
from mcp_sdk.server.transports import StreamableHTTPTransport
from mcp_sdk.server.transports.streamable_http.wire.carrying_request import FRAMEWORK_REQUEST_KEY
from spec.support.client_servers import wsgi_server
from spec.support.server_helpers import Recorder, call_tool, initialize

#: What the host context sets, as a framework's context would (Flask's current_app).
HOST: contextvars.ContextVar[str] = contextvars.ContextVar("host", default="outside")


def host_server(events: list[str] | None = None, **options: t.Any) -> Server:
    server = Server(name="host", **options)

    @server.handler_context
    @contextlib.contextmanager
    def app_context(server_context: t.Any) -> t.Iterator[None]:
        token = HOST.set("inside")
        if events is not None:
            events.append(f"enter {threading.current_thread().name}")
        try:
            yield
        finally:
            HOST.reset(token)
            if events is not None:
                events.append("leave")

    @server.tool
    def where(server_context: t.Any) -> dict[str, t.Any]:
        """Says what the host context and the carrying request are."""
        request = server_context.request
        return {
            "host": HOST.get(),
            "thread": threading.current_thread().name,
            "agent": None if request is None else request.headers.get("X-Agent"),
            "remote": None if request is None else request.remote_addr,
            "kind": type(request).__name__,
        }

    @server.tool
    def plain() -> str:
        return HOST.get()

    return server


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_a_tool_over_http_sees_its_request_and_runs_in_the_host_context_in_both_eras(mode: str) -> None:
    events: list[str] = []
    transport = StreamableHTTPTransport(host_server(events))
    try:
        with wsgi_server(transport) as url:
            with Client(transport=HTTP(url=url, headers={"X-Agent": "spec-agent"})) as client:
                client.connect(mode=mode)
                where = client.call_tool("where", {})["result"]
                plain = client.call_tool("plain", {})["result"]
    finally:
        transport.close()
    assert where["structuredContent"] == {
        "host": "inside",
        "thread": where["structuredContent"]["thread"],
        "agent": "spec-agent",
        "remote": "127.0.0.1",
        "kind": "Request",
    }
    assert where["structuredContent"]["thread"].startswith("mcp-http-worker-")  # a pool thread, not the WSGI one
    assert plain["content"] == [{"type": "text", "text": "inside"}]  # a JSON answer on the WSGI thread too
    assert events.count("leave") == len([event for event in events if event.startswith("enter")]) >= 2


def test_a_framework_integration_gives_its_own_request_object() -> None:
    class FrameworkRequest:
        headers = {"X-Agent": "framework"}
        remote_addr = "10.0.0.7"

    framework_request = FrameworkRequest()
    transport = StreamableHTTPTransport(host_server())

    def app(environ: dict[str, t.Any], start_response: t.Any) -> t.Any:
        environ[FRAMEWORK_REQUEST_KEY] = framework_request
        return transport(environ, start_response)

    try:
        with wsgi_server(app) as url:
            with Client(transport=HTTP(url=url)) as client:
                client.connect(mode="legacy")
                where = client.call_tool("where", {})["result"]
    finally:
        transport.close()
    assert where["structuredContent"]["agent"] == "framework"
    assert where["structuredContent"]["kind"] == "FrameworkRequest"


def test_without_http_the_request_is_none_and_the_context_still_applies() -> None:
    server = host_server()
    initialize(server)
    result = server.handle(call_tool("where", {}, id=2))["result"]["structuredContent"]
    assert result["host"] == "inside" and result["agent"] is None and result["kind"] == "NoneType"


def test_a_context_that_fails_to_enter_is_reported_and_answered_as_an_internal_error() -> None:
    reporter = Recorder()
    server = Server(name="broken", configuration=Configuration(exception_reporter=reporter))
    failure = RuntimeError("no app")

    @server.tool
    def ping_tool() -> str:
        return "never"

    initialize(server)

    @server.handler_context
    def broken(server_context: t.Any) -> t.ContextManager[None]:
        raise failure

    message = call_tool("ping_tool", {}, id=3)
    assert server.handle(message) == {"jsonrpc": "2.0", "id": 3, "error": {"code": -32603, "message": "Internal error"}}
    assert reporter.calls == [(failure, {"request": message})]


def test_contexts_are_entered_in_order_around_around_request_and_left_in_reverse() -> None:
    order: list[str] = []

    def around(data: dict[str, t.Any], handle: t.Callable[[], t.Any]) -> None:
        order.append("around")
        handle()

    server = Server(name="order", configuration=Configuration(around_request=around))
    for name in ("first", "second"):

        def factory(server_context: t.Any, name: str = name) -> t.ContextManager[None]:
            @contextlib.contextmanager
            def context() -> t.Iterator[None]:
                order.append(f"enter {name}")
                yield
                order.append(f"leave {name}")

            return context()

        server.handler_context(factory)

    @server.tool
    def work() -> str:
        order.append("tool")
        return "done"

    initialize(server)
    order.clear()
    server.handle(call_tool("work", {}, id=4))
    assert order == ["enter first", "enter second", "around", "tool", "leave second", "leave first"]


def test_handler_context_takes_only_callables() -> None:
    with pytest.raises(TypeError, match="handler_context takes a callable returning a context manager, not 3"):
        Server().handler_context(3)  # type: ignore[type-var]


class InTask(Tool):
    """A tool that runs only as a task: its work runs on the task's own thread."""

    tool_name = "in_task"
    input_schema = {"type": "object", "properties": {}}
    task = "required"

    @classmethod
    def call(cls, server_context: t.Any = None) -> dict[str, t.Any]:
        return {
            "host": HOST.get(),
            "thread": threading.current_thread().name,
            "agent": server_context.request.headers.get("X-Agent"),
        }


def test_a_tasks_work_runs_in_the_host_context_and_sees_the_request_that_started_it() -> None:
    server = host_server()
    server.add_tool(InTask)
    transport = StreamableHTTPTransport(server)
    try:
        with wsgi_server(transport) as url:
            with Client(transport=HTTP(url=url, headers={"X-Agent": "tasker"})) as client:
                client.connect(mode="modern")
                result = client.call_tool("in_task", {})["result"]
    finally:
        transport.close()
        server.tasks.close()
    assert result["structuredContent"]["host"] == "inside"
    assert result["structuredContent"]["agent"] == "tasker"
    assert result["structuredContent"]["thread"].startswith("mcp-task-")


def test_notification_handlers_run_in_the_host_context_too() -> None:
    seen: list[str] = []
    server = host_server()
    server.roots_list_changed_handler(lambda: seen.append(f"roots {HOST.get()}"))

    @server.define_custom_method("notifications/spec")
    def spec_notification(params: t.Any) -> None:
        seen.append(f"custom {HOST.get()}")

    initialize(server)
    server.handle({"jsonrpc": "2.0", "method": "notifications/roots/list_changed"})
    server.handle({"jsonrpc": "2.0", "method": "notifications/spec"})
    assert seen == ["roots inside", "custom inside"]
