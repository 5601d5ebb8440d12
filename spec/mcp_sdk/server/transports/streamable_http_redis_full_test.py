"""StreamableHTTPTransport(redis_url=...) on a full Redis (issue 19, item 8; finding 18): 503 with
Retry-After on every request the full store refuses, never 500, never a 200 carrying -32603.

A real ``redis-server --maxmemory 2mb --maxmemory-policy noeviction`` is filled
until it refuses writes; the transports are served over real HTTP on 127.0.0.1.
What needs a write is refused as an outage, saying Redis is full: in 2025 a new
session, a session's activity, its GET stream; in 2026-07-28 the first request
needing the shared requestState keys, a new task, a task's change (tasks/cancel,
an answer to its question through tasks/update). Service comes back once there is room.
"""

from __future__ import annotations

import threading
import time
import typing as t

import pytest
import requests

from mcp_sdk import Configuration, Server, Tool
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support import task_tools
from spec.support.http_client import Client, initialize_message, tool_call
from spec.support.http_server import LiveServer
from spec.support.modern_http import WITH_TASKS, ModernHTTP
from spec.support.redis_server import RedisServer, wait_until
from mcp_sdk.server.transports.streamable_http.shared.redis_sessions import VERIFY_INTERVAL

FULL = {
    "jsonrpc": "2.0",
    "id": None,
    "error": {"code": -32600, "message": "Service Unavailable: the shared session store (Redis) is full; retry later"},
}


def task_store_full(request_id: t.Any) -> dict[str, t.Any]:
    """The body of the 503 refusing a request whose task the full Redis would not keep."""
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "error": {
            "code": -32603,
            "message": "Internal error: the task store (Redis) is full (maxmemory); try again later",
            "data": {"reason": "full"},
        },
    }


class Echo(Tool):
    description = "Echoes"
    input_schema = {"properties": {}}

    @classmethod
    def call(cls) -> Tool.Response:
        return Tool.Response([{"type": "text", "text": "ok"}])


def full_redis() -> RedisServer:
    return RedisServer("--maxmemory", "2mb", "--maxmemory-policy", "noeviction")


def serve(redis_url: str, reported: list[tuple[BaseException, dict[str, t.Any]]], **options: t.Any) -> LiveServer:
    configuration = Configuration(exception_reporter=lambda error, context: reported.append((error, context)))
    server = Server(name="full", tools=[Echo, task_tools.Gated, task_tools.AskName], configuration=configuration)
    transport = StreamableHTTPTransport(server, redis_url=redis_url, wsgi_threads=16, **options)
    return LiveServer(transport, closeables=[server.tasks, transport])


class TestFullRedis:
    def test_initialize_and_a_sessions_requests_get_503_with_retry_after_then_service_resumes(self) -> None:
        reported: list[tuple[BaseException, dict[str, t.Any]]] = []
        with full_redis() as redis_server, serve(redis_server.url, reported) as served:
            before = Client(served.url, requests.Session())
            before.initialize()  # a session made while there was room
            assert redis_server.fill() > 0
            fresh = Client(served.url, requests.Session())
            with fresh.post(initialize_message(), stream=False) as refused:
                assert (refused.status_code, refused.headers["Retry-After"], refused.json()) == (503, "5", FULL)
            time.sleep(VERIFY_INTERVAL + 0.2)  # past the time a worker trusts its copy: the session's record is touched
            with before.post(tool_call("echo", id=2), stream=False) as refused:  # its activity is a write too
                assert (refused.status_code, refused.headers["Retry-After"], refused.json()) == (503, "5", FULL)
            assert [context for _, context in reported] == [{"shared_store": "full"}] * 2
            client = redis_server.client()
            try:
                client.flushdb()  # room again
            finally:
                client.close()
            again = Client(served.url, requests.Session())
            assert again.initialize()["result"]["serverInfo"]["name"] == "full"
            for one in (before, fresh, again):
                one.close()

    @pytest.mark.parametrize("stateless", [True, False])
    def test_task_creation_gets_503_with_retry_after_saying_the_task_store_is_full(self, stateless: bool) -> None:
        reported: list[tuple[BaseException, dict[str, t.Any]]] = []
        with full_redis() as redis_server, serve(redis_server.url, reported, stateless=stateless) as served:
            with ModernHTTP(served.url, WITH_TASKS) as client:
                assert client.result("tools/call", {"name": "echo"})["content"] == [{"type": "text", "text": "ok"}]
                assert redis_server.fill() > 0
                message = client.message("tools/call", {"name": "gated"})
                with client.post(message) as answer:  # before: 200 carrying the -32603, no Retry-After
                    assert (answer.status_code, answer.headers.get("Retry-After")) == (503, "5")
                    assert answer.json() == task_store_full(message["id"])
        assert reported == []

    def test_a_tasks_change_gets_503_with_retry_after_then_goes_through(self) -> None:
        reported: list[tuple[BaseException, dict[str, t.Any]]] = []
        task_tools.release.clear()
        try:
            with full_redis() as redis_server, serve(redis_server.url, reported, stateless=True) as served:
                with ModernHTTP(served.url, WITH_TASKS) as client:
                    task_id = client.result("tools/call", {"name": "gated"})["taskId"]
                    assert redis_server.fill() > 0
                    message = client.message("tasks/cancel", {"taskId": task_id})
                    with client.post(message) as answer:  # its new status is a write Redis refuses
                        assert (answer.status_code, answer.headers.get("Retry-After"), answer.json()) == (
                            503, "5", task_store_full(message["id"]),
                        )
                    make_room(redis_server)
                    assert client.result("tasks/cancel", {"taskId": task_id})["resultType"] == "complete"
                    assert client.result("tasks/get", {"taskId": task_id})["status"] == "cancelled"
                    assert wait_until(lambda: not task_threads()), task_threads()  # its last write done
        finally:
            task_tools.release.set()
        assert reported == []

    def test_an_answer_to_a_tasks_question_gets_503_with_retry_after_then_goes_through(self) -> None:
        reported: list[tuple[BaseException, dict[str, t.Any]]] = []
        with full_redis() as redis_server, serve(redis_server.url, reported, stateless=True) as served:
            with ModernHTTP(served.url, WITH_TASKS) as client:
                task_id = client.result("tools/call", {"name": "ask_name"})["taskId"]
                assert wait_until(lambda: client.result("tasks/get", {"taskId": task_id})["status"] == "input_required")
                assert redis_server.fill() > 0
                answers = {"elicitation-1": {"action": "accept", "content": {"name": "Ada"}}}
                message = client.message("tasks/update", {"taskId": task_id, "inputResponses": answers})
                with client.post(message) as answer:  # the answer grows the task: a write Redis refuses
                    assert (answer.status_code, answer.headers.get("Retry-After"), answer.json()) == (
                        503, "5", task_store_full(message["id"]),
                    )
                make_room(redis_server)
                assert client.result("tasks/update", {"taskId": task_id, "inputResponses": answers})["resultType"] == "complete"
                assert wait_until(lambda: client.result("tasks/get", {"taskId": task_id})["status"] == "completed")
                assert client.result("tasks/get", {"taskId": task_id})["result"]["content"] == [{"type": "text", "text": "Hello, Ada!"}]
                assert wait_until(lambda: not task_threads()), task_threads()
        assert reported == []

    def test_the_first_request_needing_the_shared_request_state_keys_gets_503(self) -> None:
        reported: list[tuple[BaseException, dict[str, t.Any]]] = []
        with full_redis() as redis_server, serve(redis_server.url, reported, stateless=True) as served:
            assert redis_server.fill() > 0  # before any request: the keys are not made yet
            with ModernHTTP(served.url, WITH_TASKS) as client:
                with client.post(client.message("tools/call", {"name": "echo"})) as answer:
                    assert (answer.status_code, answer.headers["Retry-After"], answer.json()) == (503, "5", FULL)
                flush(redis_server)
                assert client.result("tools/call", {"name": "echo"})["content"] == [{"type": "text", "text": "ok"}]
        assert [context for _, context in reported] == [{"shared_store": "full"}]

    def test_a_2025_sessions_get_stream_gets_503(self) -> None:
        reported: list[tuple[BaseException, dict[str, t.Any]]] = []
        with full_redis() as redis_server, serve(redis_server.url, reported) as served:
            with Client(served.url, requests.Session()) as client:
                client.initialize()
                assert redis_server.fill() > 0
                with client.get() as refused:  # claiming the session's GET stream is a write
                    assert (refused.status_code, refused.headers["Retry-After"], refused.json()) == (503, "5", FULL)
        assert [context for _, context in reported] == [{"shared_store": "full"}]


def make_room(redis_server: RedisServer) -> None:
    """Room again, everything kept: ``maxmemory`` raised well above what Redis holds."""
    client = redis_server.client()
    try:
        client.config_set("maxmemory", "64mb")
    finally:
        client.close()


def task_threads() -> list[str]:
    """The threads running tasks (the tasks' watcher aside)."""
    return [thread.name for thread in threading.enumerate() if thread.name.startswith("mcp-task-") and thread.name != "mcp-task-watch"]


def flush(redis_server: RedisServer) -> None:
    """Room again: everything the spec filled Redis with (and what the server kept) goes."""
    client = redis_server.client()
    try:
        client.flushdb()
    finally:
        client.close()
