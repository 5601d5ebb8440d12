"""The examples on real WSGI servers: waitress, gunicorn (gthread), Flask and Django, over HTTP."""

from __future__ import annotations

import importlib
import typing as t

import pytest
import requests

from spec.support.http_client import TIMEOUT, Client, Event, read_events, request, text_result, tool_call
from spec.support.http_server import PYTHON, ROOT, LiveServer, ServerProcess

from .streamable_http_transport_test import progress, summary

GUNICORN = [PYTHON, "-m", "gunicorn", "-k", "gthread", "--threads", "16", "-w", "1", "--graceful-timeout", "1"]


def exercise(url: str, tool: str, arguments: dict[str, t.Any], expected: list[t.Any]) -> None:
    """A whole session: handshake, a streamed tool call, the GET stream, DELETE."""
    with Client(url, requests.Session()) as client:
        initialized = client.initialize()
        assert initialized["result"]["protocolVersion"] == "2025-11-25" and client.session_id
        assert client.call(request("logging/setLevel", {"level": "info"}, id=1)) == [{"jsonrpc": "2.0", "id": 1, "result": {}}]
        with client.post(tool_call(tool, arguments, id=2, progress_token="t")) as response:
            assert response.headers["Content-Type"] == "text/event-stream"
            events = list(read_events(response))
        assert events[0] == Event(id="1-0", data="", retry=1000)
        assert [event.message for event in events[1:]] == expected
        with client.get() as stream:
            assert next(read_events(stream)) == Event(id=f"0-{len(events)}", data="", retry=1000)
            assert client.delete().status_code == 204
        with client.post(request("ping", id=3)) as response:
            assert response.status_code == 404


COUNTDOWN = [
    progress("t", 1, 2, "2..."),
    {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "logger": "countdown", "data": "2..."}},
    progress("t", 2, 2, "1..."),
    {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "logger": "countdown", "data": "1..."}},
    text_result("Liftoff!", id=2),
]


def sampling_round_trip(url: str) -> None:
    with Client(url, requests.Session()) as client:
        client.initialize(capabilities={"sampling": {}})
        with client.post(tool_call("ask_llm", {"question": "2+2?"}, id=5)) as response:
            events = read_events(response)
            next(events)
            asked = next(events).message
            assert asked["method"] == "sampling/createMessage"
            reply = {"role": "assistant", "content": {"type": "text", "text": "4"}, "model": "m"}
            with client.post({"jsonrpc": "2.0", "id": asked["id"], "result": reply}) as answered:
                assert answered.status_code == 202
            assert [event.message for event in events] == [text_result("4", id=5)]



def test_waitress() -> None:
    with ServerProcess([PYTHON, "examples/http_server.py", "--server", "waitress", "--port", "{port}", "--threads", "8"]) as served:
        exercise(served.url, "countdown", {"start": 2, "delay": 0}, COUNTDOWN)
        sampling_round_trip(served.url)
        with requests.get(served.base + "/elsewhere", timeout=TIMEOUT) as other:
            assert other.status_code == 404


def test_gunicorn_gthread() -> None:
    with ServerProcess([*GUNICORN, "-b", "127.0.0.1:{port}", "examples.http_server:app"]) as served:
        exercise(served.url, "countdown", {"start": 2, "delay": 0}, COUNTDOWN)
        sampling_round_trip(served.url)


def test_gunicorn_stateless_json_mode() -> None:
    env = {"MCP_STATELESS": "1", "MCP_JSON_RESPONSE": "1"}
    with ServerProcess([*GUNICORN, "-b", "127.0.0.1:{port}", "examples.http_server:app"], env=env) as served:
        with Client(served.url, requests.Session()) as client:
            with client.post(tool_call("echo", {"message": "stateless"})) as response:
                assert (response.status_code, response.json()) == (200, text_result("Hello stateless"))
            with client.get() as response:
                assert response.status_code == 405


def test_django_project_under_gunicorn() -> None:
    command = [*GUNICORN, "-b", "127.0.0.1:{port}", "django_project.wsgi:application"]
    with ServerProcess(command, cwd=ROOT / "examples") as served:
        with requests.get(served.base + "/", timeout=TIMEOUT) as page:
            assert (page.status_code, page.text) == (200, "An ordinary Django page; the MCP endpoint is /mcp")
        exercise(served.url, "add", {"a": 2, "b": 3}, [progress("t", 1, 1, "adding"), text_result("5", id=2)])


def test_flask_app_mounted_and_per_request() -> None:
    module = importlib.import_module("examples.flask_app")
    with LiveServer(module.app, closeables=[module.transport]) as live:
        with requests.get(live.base + "/", timeout=TIMEOUT) as page:
            assert (page.status_code, page.text) == (200, "An ordinary Flask page; the MCP endpoint is /mcp")
        exercise(live.url, "add", {"a": 1, "b": 2}, [progress("t", 1, 1), text_result("3", id=2)])
        with Client(live.base + "/stateless-mcp", requests.Session()) as client:
            client.protocol_version = "2025-11-25"
            with client.post(tool_call("add", {"a": 1, "b": 1}, progress_token="p"), headers=client.headers(**{"X-User": "ada"})) as response:
                assert summary(read_events(response)) == [(None, progress("p", 1, 1), None), (None, text_result("2"), None)]
            [whoami] = client.call(tool_call("whoami"))
            assert whoami == text_result("You are anonymous")
            with client.get() as response:
                assert response.status_code == 405


@pytest.mark.parametrize("mode", ["json", "sse"])
def test_waitress_many_requests_on_kept_alive_connections(mode: str) -> None:
    command = [PYTHON, "examples/http_server.py", "--server", "waitress", "--port", "{port}", "--threads", "4"]
    if mode == "json":
        command.append("--json-response")
    with ServerProcess(command) as served, Client(served.url, requests.Session()) as client:
        client.initialize()
        for number in range(30):
            assert client.call(tool_call("echo", {"message": str(number)}, id=number)) == [text_result(f"Hello {number}", id=number)]
