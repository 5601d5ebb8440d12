"""StreamableHTTPTransport(redis_url=...) on a full Redis (issue 19, item 8): 503 with Retry-After, never 500.

A real ``redis-server --maxmemory 2mb --maxmemory-policy noeviction`` is filled
until it refuses writes; the transports are served over real HTTP on 127.0.0.1.
What needs a write (a new session, a session's activity, a new task) is refused
as an outage, saying Redis is full, and service comes back once there is room.
"""

from __future__ import annotations

import time
import typing as t

import requests

from mcp_sdk import Configuration, Server, Tool
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support import task_tools
from spec.support.http_client import Client, initialize_message, tool_call
from spec.support.http_server import LiveServer
from spec.support.modern_http import WITH_TASKS, ModernHTTP
from spec.support.redis_server import RedisServer
from mcp_sdk.server.transports.streamable_http.redis_sessions import VERIFY_INTERVAL

FULL = {
    "jsonrpc": "2.0",
    "id": None,
    "error": {"code": -32600, "message": "Service Unavailable: the shared session store (Redis) is full; retry later"},
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
    server = Server(name="full", tools=[Echo, task_tools.Gated], configuration=configuration)
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

    def test_task_creation_says_the_task_store_is_full(self) -> None:
        reported: list[tuple[BaseException, dict[str, t.Any]]] = []
        with full_redis() as redis_server, serve(redis_server.url, reported, stateless=True) as served:
            with ModernHTTP(served.url, WITH_TASKS) as client:
                assert client.result("tools/call", {"name": "echo"})["content"] == [{"type": "text", "text": "ok"}]
                assert redis_server.fill() > 0
                message = client.message("tools/call", {"name": "gated"})
                with client.post(message) as answer:
                    assert answer.status_code == 200
                    assert answer.json() == {
                        "jsonrpc": "2.0",
                        "id": message["id"],
                        "error": {
                            "code": -32603,
                            "message": "Internal error: the task store (Redis) is full (maxmemory); try again later",
                            "data": {"reason": "full"},
                        },
                    }
        assert reported == []
