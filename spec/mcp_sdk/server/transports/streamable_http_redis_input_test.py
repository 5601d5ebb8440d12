"""StreamableHTTPTransport(redis_url=...): what a client sends is checked before it reaches Redis (issue 19, item 9).

Two transports on one real ``redis-server`` act as two workers, served over real
HTTP on 127.0.0.1; Redis's own ``MONITOR`` feed shows which values reached it.
A session id, a response's routing key (the worker id in ``"<worker>:<n>"``) and
a ``Last-Event-ID`` are checked against the form the SDK gives them first.
"""

from __future__ import annotations

import typing as t

import pytest
import requests

from mcp_sdk import Configuration, Server, Tool
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.http_client import ACCEPT_BOTH, LATEST, Client, read_events, tool_call
from spec.support.http_server import LiveServer
from spec.support.redis_monitor import RedisMonitor
from spec.support.redis_server import RedisServer

ENDED = "Not Found: the session expired or was ended; send initialize to start a new one"


class Steps(Tool):
    description = "Reports progress, then answers"
    input_schema = {"properties": {}}

    @classmethod
    def call(cls, server_context: t.Any = None) -> Tool.Response:
        server_context.report_progress(1, total=1)
        return Tool.Response([{"type": "text", "text": "done"}])


@pytest.fixture(scope="module")
def redis_server() -> t.Iterator[RedisServer]:
    with RedisServer() as server:
        yield server


@pytest.fixture
def reported() -> list[BaseException]:
    return []


@pytest.fixture
def workers(redis_server: RedisServer, reported: list[BaseException]) -> t.Iterator[tuple[LiveServer, LiveServer]]:
    configuration = Configuration(exception_reporter=lambda error, context: reported.append(error))
    first = StreamableHTTPTransport(Server(name="a", tools=[Steps], configuration=configuration), redis_url=redis_server.url, redis_prefix="in:")
    second = StreamableHTTPTransport(Server(name="b", tools=[Steps], configuration=configuration), redis_url=redis_server.url, redis_prefix="in:")
    with LiveServer(first, closeables=[first]) as a, LiveServer(second, closeables=[second]) as b:
        yield a, b


def started(url: str) -> Client:
    client = Client(url, requests.Session())
    client.initialize()
    return client


def headers(session_id: str, **extra: str) -> dict[str, str]:
    return {"Accept": ACCEPT_BOTH, "Content-Type": "application/json", "Mcp-Session-Id": session_id, "MCP-Protocol-Version": LATEST, **extra}


class TestSessionIds:
    def test_a_session_id_of_another_form_is_404_and_never_reaches_redis(
        self, redis_server: RedisServer, workers: tuple[LiveServer, LiveServer], reported: list[BaseException]
    ) -> None:
        a, b = workers
        with started(a.url) as client:
            assert client.session_id is not None
            with client.post(tool_call("steps", id=2)) as answered:  # the session now has its :evs set in Redis
                assert [event.message["id"] for event in read_events(answered) if event.data][-1] == 2
            hostile = [f"{client.session_id}:evs", f"{client.session_id}:run", "x" * 4000, "*", "a b"]
            with RedisMonitor(redis_server.port) as monitor:
                for server in (a, b):
                    for session_id in hostile:
                        for method in ("POST", "GET", "DELETE"):
                            with requests.request(
                                method, server.url, json=tool_call("steps", id=3), headers=headers(session_id, Accept=ACCEPT_BOTH), timeout=5
                            ) as refused:
                                assert (refused.status_code, refused.json()) == (
                                    404,
                                    {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": ENDED}},
                                ), (method, session_id)
                with client.post(tool_call("steps", id=4)) as control:  # the real id still works, and does reach Redis
                    assert control.status_code == 200
                    list(read_events(control))
                fed = monitor.commands()
        assert client.session_id in fed
        assert ":evs" not in fed.replace(f"{client.session_id}:evs", "")  # only the store's own use of the real key
        assert f"{client.session_id}:evs:" not in fed and "xxxxxxxx" not in fed and '"*"' not in fed
        assert reported == []

    def test_initialize_with_a_session_id_of_another_form_is_404(self, workers: tuple[LiveServer, LiveServer]) -> None:
        a, _ = workers
        message = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": LATEST, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}
        with requests.post(a.url, json=message, headers=headers("nope:evs"), timeout=5) as refused:
            assert (refused.status_code, refused.json()["error"]["message"]) == (404, ENDED)


class TestRoutingKeys:
    def test_a_response_naming_a_malformed_or_unknown_worker_is_dropped_never_published(
        self, redis_server: RedisServer, workers: tuple[LiveServer, LiveServer], reported: list[BaseException]
    ) -> None:
        a, b = workers
        with started(a.url) as client, RedisMonitor(redis_server.port) as monitor:
            assert client.session_id is not None
            for server in (a, b):
                for response_id in ("X:1", "in:all:1", "0123456789ab:1", "0123456789AB:1", "0123456789ab:x", ":1"):
                    response = {"jsonrpc": "2.0", "id": response_id, "result": {}}
                    with requests.post(server.url, json=response, headers=headers(client.session_id), timeout=5) as accepted:
                        assert (accepted.status_code, accepted.content) == (202, b""), response_id
            fed = monitor.commands()
        published = [line for line in fed.splitlines() if '"PUBLISH"' in line.upper()]
        assert [line for line in published if '"PUBLISH" "in:all"' not in line] == []  # no worker's channel
        assert '"in:w:X"' not in fed and "0123456789" not in fed.replace('"EXISTS" "in:alive:0123456789ab"', "")
        assert reported == []


class TestLastEventIds:
    @pytest.mark.parametrize("last_event_id", ["x:evs-1", "0:evs-1", "*-1", "../0-1", "0123456789ab.0-1", f"{'a' * 12}.1:x-1"])
    def test_a_last_event_id_of_another_form_is_unknown_and_never_reaches_redis(
        self, redis_server: RedisServer, workers: tuple[LiveServer, LiveServer], reported: list[BaseException], last_event_id: str
    ) -> None:
        a, b = workers
        with started(a.url) as client, RedisMonitor(redis_server.port) as monitor:
            assert client.session_id is not None
            with client.get(headers(client.session_id, Accept="text/event-stream", **{"Last-Event-ID": last_event_id})) as refused:
                assert (refused.status_code, refused.json()) == (
                    400,
                    {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": f"Bad Request: unknown Last-Event-ID {last_event_id!r}"}},
                )
            fed = monitor.commands()
        assert last_event_id.rpartition("-")[0] not in fed.replace(f"in:s:{client.session_id}", "")
        assert reported == []
