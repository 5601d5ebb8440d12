"""StreamableHTTPTransport(redis_url=...): 2025 sessions served by any of several processes.

examples/scale_out runs under real ``gunicorn -k gthread -w 4`` on a real
``redis-server``; each test aims its requests at different workers (keep-alive
connections, see spec.support.scale_out.Lanes) and checks the wire. The expiry,
capacity and outage cases also run two transports in one process (two workers
of one Redis) for exact timing control.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import typing as t

import pytest
import requests

from mcp_sdk import Server, Tool
from mcp_sdk.server.transports import StreamableHTTPTransport
from mcp_sdk.server.transports.streamable_http.sessions.deployment import ENDED
from spec.support.http_client import Client, read_events, request, tool_call
from spec.support.http_server import LiveServer, ROOT
from spec.support.redis_server import RedisServer, wait_until
from spec.support.scale_out import Lanes, gunicorn_cluster

SAMPLING = {"sampling": {}}


@pytest.fixture(scope="module")
def redis_server() -> t.Iterator[RedisServer]:
    with RedisServer() as server:
        yield server


@pytest.fixture(scope="module")
def cluster(redis_server: RedisServer) -> t.Iterator[t.Any]:
    with gunicorn_cluster(redis_server.url) as served:
        yield served


@pytest.fixture(scope="module")
def lanes(cluster: t.Any) -> t.Iterator[Lanes]:
    found = Lanes(cluster.base, workers=3, per_worker=3)
    yield found
    found.close()


def started(url: str, capabilities: dict[str, t.Any] | None = None) -> Client:
    client = Client(url, requests.Session())
    client.initialize(capabilities=capabilities)
    return client


def text_of(message: dict[str, t.Any]) -> str:
    return str(message["result"]["content"][0]["text"])


class TestSessions:
    def test_every_worker_serves_every_request_of_one_session(self, cluster: t.Any, lanes: Lanes) -> None:
        first = started(cluster.url)
        pids = []
        for worker in range(3):
            with lanes.client(first, worker) as aimed:
                [answer] = aimed.call(tool_call("whoami", id=10 + worker))
                pids.append(int(text_of(answer)))
        assert pids == [lanes.worker_of(worker) for worker in range(3)]
        assert len(set(pids)) == 3

    def test_log_level_set_on_one_worker_holds_on_another(self, cluster: t.Any, lanes: Lanes) -> None:
        first = started(cluster.url)
        with lanes.client(first, 0) as on_a, lanes.client(first, 1) as on_b:
            assert on_a.call(request("logging/setLevel", {"level": "info"}, id=2)) == [{"jsonrpc": "2.0", "id": 2, "result": {}}]
            messages = on_b.call(tool_call("countdown", {"start": 2, "delay": 0}, id=3))
        logs = [m["params"]["data"] for m in messages if m.get("method") == "notifications/message"]
        assert logs == ["2...", "1..."]
        assert text_of(messages[-1]) == f"Liftoff from {lanes.worker_of(1)}"

    def test_delete_on_one_worker_ends_the_session_everywhere(self, cluster: t.Any, lanes: Lanes) -> None:
        first = started(cluster.url)
        with lanes.client(first, 0, lane=1) as on_a, lanes.client(first, 1, lane=1) as on_b, lanes.client(first, 2) as on_c:
            stream = on_a.get()
            assert stream.status_code == 200
            running = on_b.post(tool_call("countdown", {"start": 1000, "delay": 0.05}, id=5, progress_token="p"))
            events = read_events(running)
            next(event for event in events if event.data and "progress" in event.data)
            assert on_c.delete().status_code == 204
            # Both streams, on two other workers, end; the request was cancelled (no response).
            rest = [event.message for event in events if event.data]
            assert not [message for message in rest if message.get("id") == 5]
            assert [event for event in read_events(stream) if event.data] == []
            stream.close()
            running.close()
            with on_b.post(tool_call("whoami", id=6)) as gone:
                assert gone.status_code == 404
                assert gone.json()["error"]["message"] == ENDED


class TestRouting:
    def test_a_clients_response_reaches_the_worker_whose_tool_waits(self, cluster: t.Any, lanes: Lanes) -> None:
        first = started(cluster.url, SAMPLING)
        with lanes.client(first, 0, lane=1) as on_a, lanes.client(first, 1) as on_b:
            with on_a.post(tool_call("ask_llm", {"question": "6x7?"}, id=7)) as answer:
                events = read_events(answer)
                asked = next(event.message for event in events if event.data)
                assert asked["method"] == "sampling/createMessage"
                assert type(asked["id"]) is str  # "<worker id>:<n>": names the worker that waits
                reply = {"role": "assistant", "content": {"type": "text", "text": "42"}, "model": "spec"}
                with on_b.post({"jsonrpc": "2.0", "id": asked["id"], "result": reply}) as accepted:
                    assert accepted.status_code == 202
                final = [event.message for event in events if event.data]
        assert final == [{"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": "42"}], "isError": False}}]

    def test_cancelled_reaches_the_worker_running_the_request(self, cluster: t.Any, lanes: Lanes) -> None:
        first = started(cluster.url)
        with lanes.client(first, 0, lane=1) as on_a, lanes.client(first, 2) as on_c:
            started_at = time.monotonic()
            with on_a.post(tool_call("countdown", {"start": 1000, "delay": 0.05}, id=8, progress_token="p")) as running:
                events = read_events(running)
                next(event for event in events if event.data and "progress" in event.data)
                cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 8, "reason": "enough"}}
                with on_c.post(cancel) as accepted:
                    assert accepted.status_code == 202
                rest = [event.message for event in events if event.data]
        assert not [message for message in rest if message.get("id") == 8]
        assert time.monotonic() - started_at < 40  # 1000 steps would take 50 s: it stopped

    def test_session_notifications_and_list_changed_reach_the_get_stream_on_another_worker(
        self, cluster: t.Any, lanes: Lanes
    ) -> None:
        first, other = started(cluster.url), started(cluster.url)
        with lanes.client(first, 0, lane=2) as on_a, lanes.client(first, 1) as on_b, lanes.client(other, 2, lane=1) as other_on_c:
            listening, other_listening = on_a.get(), other_on_c.get()
            events, other_events = read_events(listening), read_events(other_listening)
            assert next(events).data == ""  # the priming event: the stream is open
            assert next(other_events).data == ""
            on_b.call(tool_call("touch", {"uri": "file:///a.txt"}, id=9))
            assert next(events).message == {
                "jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": "file:///a.txt"}
            }
            other_on_c.call(tool_call("reload", id=10))
            assert next(events).message == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
            # The other session sees its own list_changed, and never the first session's resources/updated.
            assert next(other_events).message == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
            listening.close()
            other_listening.close()

    def test_a_second_get_stream_on_another_worker_is_refused(self, cluster: t.Any, lanes: Lanes) -> None:
        first = started(cluster.url)
        with lanes.client(first, 0, lane=2) as on_a, lanes.client(first, 1, lane=1) as on_b:
            with on_a.get() as listening:
                assert listening.status_code == 200
                with on_b.get() as second:
                    assert second.status_code == 409


class TestSDKClient:
    def test_the_sdk_client_samples_and_calls_across_the_workers(self, cluster: t.Any, lanes: Lanes) -> None:
        from mcp_sdk import Client as SDKClient
        from mcp_sdk.client import HTTP

        client = SDKClient(transport=HTTP(cluster.url, timeout=30))
        asked: list[str] = []

        @client.on_sampling
        def sample(params: dict[str, t.Any]) -> dict[str, t.Any]:
            asked.append(params["messages"][0]["content"]["text"])
            return {"role": "assistant", "content": {"type": "text", "text": "42"}, "model": "spec"}

        client.connect(mode="legacy")
        try:
            answers = [client.call_tool(name="ask_llm", arguments={"question": f"q{n}"}) for n in range(4)]
            assert [answer["result"] for answer in answers] == [
                {"content": [{"type": "text", "text": "42"}], "isError": False}
            ] * 4
            assert asked == ["q0", "q1", "q2", "q3"]
        finally:
            client.close()


class TestResumption:
    def test_a_stream_resumes_on_another_worker(self, cluster: t.Any, lanes: Lanes) -> None:
        first = started(cluster.url)
        with lanes.client(first, 0, lane=1) as on_a, lanes.client(first, 1) as on_b:
            with on_a.post(tool_call("countdown", {"start": 6, "delay": 0.2}, id=11, progress_token="p")) as running:
                events = read_events(running)
                priming = next(events)
                seen = [next(event for event in events if event.data)]
            last_id = seen[-1].id or priming.id
            messages = [seen[0].message]
            deadline = time.monotonic() + 30
            while not any(message.get("id") == 11 for message in messages) and time.monotonic() < deadline:
                with on_b.get(on_b.headers(Accept="text/event-stream", **{"Last-Event-ID": str(last_id)})) as resumed:
                    if resumed.status_code == 409:  # the cut connection is not noticed yet: Retry-After
                        time.sleep(1)
                        continue
                    assert resumed.status_code == 200, (resumed.text, last_id, messages)
                    for event in read_events(resumed):
                        if event.data:
                            messages.append(event.message)
                            last_id = event.id
                time.sleep(0.2)
        progress = [m["params"]["progress"] for m in messages if m.get("method") == "notifications/progress"]
        assert progress == [1, 2, 3, 4, 5, 6]
        assert text_of(messages[-1]).startswith("Liftoff from ")


class TestProtocol20260728:
    def test_subscriptions_listen_hears_list_changes_from_every_worker(self, cluster: t.Any, lanes: Lanes) -> None:
        version = "2026-07-28"
        meta = {"io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientCapabilities": {}}
        listen = request("subscriptions/listen", {"_meta": meta, "notifications": {"toolsListChanged": True}}, id="sub")
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
                   "MCP-Protocol-Version": version, "Mcp-Method": "subscriptions/listen"}
        http_a = lanes.by_pid[lanes.pids[0]][2]
        with http_a.post(cluster.url, json=listen, headers=headers, stream=True, timeout=10) as listening:
            events = read_events(listening)
            assert next(events).message["method"] == "notifications/subscriptions/acknowledged"
            first = started(cluster.url)
            with lanes.client(first, 1, lane=2) as on_b:
                on_b.call(tool_call("reload", id=12))
            assert next(events).message == {
                "jsonrpc": "2.0",
                "method": "notifications/tools/list_changed",
                "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": "sub"}},
            }


class TestFailures:
    def test_a_worker_killed_mid_stream_leaves_its_client_the_events_then_an_error(self, redis_server: RedisServer) -> None:
        with gunicorn_cluster(redis_server.url, workers=2) as served:
            found = Lanes(served.base, workers=2, per_worker=1)
            try:
                first = started(served.url)
                on_a, on_b = found.client(first, 0), found.client(first, 1)
                with on_a.post(tool_call("countdown", {"start": 1000, "delay": 0.05}, id=13, progress_token="p")) as running:
                    events = read_events(running)
                    priming = next(events)
                    progress = next(event for event in events if event.data)
                    os.kill(found.pids[0], signal.SIGKILL)
                last_id, messages = progress.id or priming.id, [progress.message]
                deadline = time.monotonic() + 60
                while not any(message.get("id") == 13 for message in messages) and time.monotonic() < deadline:
                    with on_b.get(on_b.headers(Accept="text/event-stream", **{"Last-Event-ID": str(last_id)})) as resumed:
                        assert resumed.status_code == 200
                        for event in read_events(resumed):
                            if event.data:
                                messages.append(event.message)
                                last_id = event.id
                    time.sleep(0.3)
            finally:
                found.close()
        steps = [m["params"]["progress"] for m in messages if m.get("method") == "notifications/progress"]
        assert steps == list(range(1, len(steps) + 1))  # every event stored before the death, in order
        assert messages[-1] == {
            "jsonrpc": "2.0",
            "id": 13,
            "error": {"code": -32603, "message": "The server process running this request ended; send it again"},
        }

    def test_redis_stopped_gives_503_then_service_resumes(self) -> None:
        with RedisServer() as own_redis, gunicorn_cluster(own_redis.url, workers=2) as served:
            client = started(served.url)
            own_redis.stop()
            time.sleep(1.5)  # a worker trusts its copy of a session for a second without asking Redis
            began = time.monotonic()
            with client.post(tool_call("whoami", id=2)) as refused:
                assert refused.status_code == 503
                assert refused.headers["Retry-After"] == "1"
                assert refused.json()["error"]["message"] == (
                    "Service Unavailable: the shared session store (Redis) is unreachable; retry shortly"
                )
            assert time.monotonic() - began < 30
            own_redis.start()
            assert wait_until(lambda: _initializes(served.url), timeout=30)
            again = started(served.url)
            assert text_of(again.call(tool_call("whoami", id=3))[0]).isdigit()


def _echoes(client: Client) -> bool:
    with client.post(tool_call("echo", id=4)) as response:
        return response.status_code == 200


def _initializes(url: str) -> bool:
    try:
        started(url)
    except AssertionError:
        return False
    return True


class Echo(Tool):
    description = "Echoes"
    input_schema = {"properties": {}}

    @classmethod
    def call(cls) -> Tool.Response:
        return Tool.Response([{"type": "text", "text": "ok"}])


class Steps(Tool):
    description = "Reports progress every step"
    input_schema = {"properties": {"count": {"type": "integer"}}}

    @classmethod
    def call(cls, count: int = 5, server_context: t.Any = None) -> Tool.Response:
        for step in range(1, count + 1):
            server_context.report_progress(step, total=count)
            time.sleep(0.1)
        return Tool.Response([{"type": "text", "text": "done"}])


class TestTwoWorkersInOneProcess:
    """Two transports on one Redis act as two workers; here time is under the test's control."""

    def pair(self, redis_url: str, **options: t.Any) -> tuple[LiveServer, LiveServer]:
        first = StreamableHTTPTransport(Server(name="a", tools=[Echo, Steps]), redis_url=redis_url, **options)
        second = StreamableHTTPTransport(Server(name="b", tools=[Echo, Steps]), redis_url=redis_url, **options)
        return LiveServer(first, closeables=[first]), LiveServer(second, closeables=[second])

    def test_idle_expiry_holds_across_workers(self, redis_server: RedisServer) -> None:
        a, b = self.pair(redis_server.url, session_idle_timeout=1.0, redis_prefix="idle:")
        with a, b:
            client = started(a.url)
            elsewhere = Client(b.url, requests.Session())
            elsewhere.session_id, elsewhere.protocol_version = client.session_id, client.protocol_version
            for _ in range(3):  # activity on either worker keeps it alive
                time.sleep(0.5)
                assert elsewhere.call(tool_call("echo", id=2))[0]["result"]["content"][0]["text"] == "ok"
            time.sleep(2.5)
            for expired in (client, elsewhere):
                with expired.post(tool_call("echo", id=3)) as gone:
                    assert gone.status_code == 404
            elsewhere.close()

    def test_max_sessions_holds_across_workers(self, redis_server: RedisServer) -> None:
        a, b = self.pair(redis_server.url, max_sessions=2, redis_prefix="cap:")
        with a, b:
            started(a.url)
            started(b.url)
            refused = Client(a.url, requests.Session())
            from spec.support.http_client import initialize_message

            with refused.post(initialize_message(), stream=False) as full:
                assert full.status_code == 503
                assert full.json()["error"]["message"] == "Service Unavailable: 2 sessions are open"

    def test_a_stream_outlives_redis_stopping_under_it(self) -> None:
        with RedisServer() as own_redis:
            a, b = self.pair(own_redis.url)
            with a, b:
                client = started(a.url)
                with client.post(tool_call("steps", {"count": 10}, id=2, progress_token="t")) as running:
                    events = read_events(running)
                    next(event for event in events if event.data)
                    own_redis.stop()
                    rest = [event.message for event in events if event.data]
                own_redis.start()
        steps = [m["params"]["progress"] for m in rest if m.get("method") == "notifications/progress"]
        assert steps == list(range(steps[0], 11))  # live all along, none lost
        assert rest[-1] == {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "done"}], "isError": False}}

    def test_a_redis_that_stops_answering_gives_503_in_bounded_time_then_recovers(self) -> None:
        with RedisServer() as own_redis:
            a, b = self.pair(own_redis.url)
            with a, b:
                client = started(a.url)
                elsewhere = Client(b.url, requests.Session())
                elsewhere.session_id, elsewhere.protocol_version = client.session_id, client.protocol_version
                assert own_redis.process is not None
                own_redis.process.send_signal(signal.SIGSTOP)  # alive, listening, answering nothing
                try:
                    began = time.monotonic()
                    with elsewhere.post(tool_call("echo", id=2)) as refused:
                        assert refused.status_code == 503
                        assert refused.headers["Retry-After"] == "1"
                    assert time.monotonic() - began < 30  # a 2 s socket timeout, one retry: never a hang
                finally:
                    own_redis.process.send_signal(signal.SIGCONT)
                assert wait_until(lambda: _echoes(elsewhere), timeout=30)
                elsewhere.close()

    def test_missing_redis_py_names_the_extra(self) -> None:
        code = (
            "import sys; sys.modules['redis'] = None\n"
            "from mcp_sdk import Server, MissingExtraError\n"
            "from mcp_sdk.server.transports import StreamableHTTPTransport\n"
            "try:\n StreamableHTTPTransport(Server(name='x'), redis_url='redis://127.0.0.1:1/0')\n"
            "except MissingExtraError as error:\n print(error)\n"
        )
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert done.stdout.strip() == "Sharing sessions across processes needs redis-py: pip install 'mcp_sdk[redis]'"
