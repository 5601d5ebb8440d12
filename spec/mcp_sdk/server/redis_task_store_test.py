"""The tasks extension on Redis: ``StreamableHTTPTransport(server, redis_url=...)`` moves the server's
tasks to a :class:`RedisTaskStore`, so any worker answers for a task running on another, and a task
whose worker died ends ``failed`` (real redis-server, real HTTP servers, a real killed process)."""

from __future__ import annotations

import signal
import threading
import typing as t

import pytest

from mcp_sdk import Server
from mcp_sdk.server.redis_task_store import RedisTaskStore
from mcp_sdk.server.task_store import InMemoryTaskStore, TaskRecord
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support import task_tools
from spec.support.http_server import PYTHON, LiveServer, ServerProcess
from spec.support.modern_http import WITH_TASKS, ModernHTTP
from spec.support.redis_server import RedisServer, wait_until


@pytest.fixture(scope="module")
def redis_server() -> t.Iterator[RedisServer]:
    with RedisServer() as server:
        yield server


def worker(redis_url: str, **options: t.Any) -> LiveServer:
    server = Server(name="worker", tools=[task_tools.Gated, task_tools.AskName])
    transport = StreamableHTTPTransport(server, redis_url=redis_url, wsgi_threads=16, **options)
    return LiveServer(transport, closeables=[server.tasks, transport])  # tasks still asking end with the worker


def status(client: ModernHTTP, task_id: str) -> dict[str, t.Any]:
    return client.result("tasks/get", {"taskId": task_id})


class TestRedisTaskStore:
    def test_a_record_round_trips_and_changes_atomically(self, redis_server: RedisServer) -> None:
        client = redis_server.client()
        try:
            self._round_trip(RedisTaskStore(client, prefix="spec-store:"))
        finally:
            client.close()

    def _round_trip(self, store: RedisTaskStore) -> None:
        record = TaskRecord("t-1", ttl_ms=60_000, poll_interval_ms=500, owner="alice")
        store.create(record)
        assert store.get("t-1").detailed() == record.detailed()  # type: ignore[union-attr]
        assert store.get("missing") is None

        def add(key: str) -> t.Callable[[TaskRecord], bool]:
            def change(found: TaskRecord) -> bool:
                found.answers[key] = {"action": "accept"}
                return True

            return change

        threads = [threading.Thread(target=store.update, args=("t-1", add(f"k{n}"))) for n in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        final = store.get("t-1")
        assert final is not None and sorted(final.answers) == sorted(f"k{n}" for n in range(20))  # no change lost
        assert store.update("missing", add("x")) is None

    def test_the_transport_moves_a_default_store_to_redis_but_keeps_one_given(self, redis_server: RedisServer) -> None:
        default = StreamableHTTPTransport(Server(name="a"), redis_url=redis_server.url)
        own = InMemoryTaskStore()
        given = StreamableHTTPTransport(Server(name="b", task_store=own), redis_url=redis_server.url)
        try:
            assert isinstance(default.server.tasks.store, RedisTaskStore)
            assert given.server.tasks.store is own
        finally:
            default.close()
            given.close()


class TestAcrossWorkers:
    def test_any_worker_answers_for_a_task_running_on_another(self, redis_server: RedisServer) -> None:
        task_tools.release.clear()
        with worker(redis_server.url) as first, worker(redis_server.url) as second:
            with ModernHTTP(first.url, WITH_TASKS) as on_first, ModernHTTP(second.url, WITH_TASKS) as on_second:
                created = on_first.result("tools/call", {"name": "gated"})
                task_id = created["taskId"]
                assert status(on_second, task_id)["status"] == "working"
                task_tools.release.set()
                assert wait_until(lambda: status(on_second, task_id)["status"] == "completed")
                assert status(on_second, task_id)["result"]["content"] == [{"type": "text", "text": "released"}]

    def test_an_answer_given_to_one_worker_reaches_the_task_on_another(self, redis_server: RedisServer) -> None:
        with worker(redis_server.url) as first, worker(redis_server.url) as second:
            with ModernHTTP(first.url, WITH_TASKS) as on_first, ModernHTTP(second.url, WITH_TASKS) as on_second:
                task_id = on_first.result("tools/call", {"name": "ask_name"})["taskId"]
                assert wait_until(lambda: status(on_second, task_id)["status"] == "input_required")
                [key] = status(on_second, task_id)["inputRequests"]
                answer = {key: {"action": "accept", "content": {"name": "Ann"}}}
                on_second.result("tasks/update", {"taskId": task_id, "inputResponses": answer})
                assert wait_until(lambda: status(on_first, task_id)["status"] == "completed")
                assert status(on_first, task_id)["result"]["content"] == [{"type": "text", "text": "Hello, Ann!"}]

    @pytest.mark.parametrize("attempt", range(5))
    def test_a_new_task_is_never_cancelled_by_its_own_first_heartbeat(self, redis_server: RedisServer, attempt: int) -> None:
        """Regression: the heartbeat thread could beat a task before the store had it, find nothing,
        and cancel it (seen as 'cancelled' a few milliseconds after creation)."""
        with worker(redis_server.url) as only, ModernHTTP(only.url, WITH_TASKS) as client:
            task_id = client.result("tools/call", {"name": "ask_name"})["taskId"]
            assert wait_until(lambda: status(client, task_id)["status"] != "working")
            assert status(client, task_id)["status"] == "input_required"

    def test_a_task_whose_worker_was_killed_ends_failed(self, redis_server: RedisServer) -> None:
        dying = ServerProcess([PYTHON, "-m", "spec.support.task_worker", "{port}", redis_server.url])
        try:
            with ModernHTTP(dying.url, WITH_TASKS) as on_dying:
                task_id = on_dying.result("tools/call", {"name": "gated"})["taskId"]
            dying.process.send_signal(signal.SIGKILL)
            dying.process.wait(30)
        finally:
            dying.stop()
        with worker(redis_server.url) as survivor, ModernHTTP(survivor.url, WITH_TASKS) as client:
            survivor.closeables[0].worker_timeout = 2.0  # its TaskManager: seconds without a heartbeat
            assert status(client, task_id)["status"] == "working"  # its heartbeat is still fresh
            assert wait_until(lambda: status(client, task_id)["status"] == "failed", timeout=30)
