"""What the task stores keep at most (:class:`TaskLimits`): one task's bytes, each principal's tasks
and bytes, the store's; past them a :class:`TaskLimitError` naming the limit, the caller's own
finished tasks making room first, never another caller's. Both stores, the Redis one on a real
redis-server; then a too-large result over real HTTP, which fails that task only."""

from __future__ import annotations

import time
import typing as t
import uuid

import pytest

from mcp_sdk import Server, Tool
from mcp_sdk.server.redis_task_store import RedisTaskStore
from mcp_sdk.server.task_store import InMemoryTaskStore, TaskLimitError, TaskLimits, TaskRecord
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.http_server import LiveServer
from spec.support.modern_http import WITH_TASKS, ModernHTTP
from spec.support.redis_server import RedisServer

KIB = 1024
Store = t.Callable[..., t.Any]


@pytest.fixture(scope="module")
def redis_server() -> t.Iterator[RedisServer]:
    with RedisServer() as server:
        yield server


@pytest.fixture(params=["memory", "redis"])
def make_store(request: pytest.FixtureRequest) -> t.Iterator[Store]:
    """``make_store(**limits)``: a fresh store of each kind (the Redis ones under their own prefix)."""
    if request.param == "memory":
        yield InMemoryTaskStore
        return
    redis_server = request.getfixturevalue("redis_server")
    client = redis_server.client()
    yield lambda **limits: RedisTaskStore(client, prefix=f"spec-{uuid.uuid4().hex[:8]}:", **limits)
    client.close()


def record(owner: str | None, task_id: str | None = None, ttl_ms: int | None = 60_000) -> TaskRecord:
    return TaskRecord(task_id or uuid.uuid4().hex, ttl_ms=ttl_ms, poll_interval_ms=500, owner=owner)


def complete(size: int) -> t.Callable[[TaskRecord], bool]:
    def change(found: TaskRecord) -> bool:
        found.status = "completed"
        found.result = {"content": [{"type": "text", "text": "x" * size}]}
        return True

    return change


def refusal(limit: str, maximum: int) -> dict[str, t.Any]:
    error = TaskLimitError(limit, maximum)
    return {"code": error.code, "message": error.message, "data": error.data}


def test_a_result_past_max_task_bytes_is_refused_and_the_task_kept_as_it_was(make_store: Store) -> None:
    store = make_store(max_task_bytes=64 * KIB)
    task = record("alice")
    store.create(task)
    with pytest.raises(TaskLimitError) as refused:
        store.update(task.task_id, complete(100 * KIB))
    assert (refused.value.code, refused.value.data) == (-32603, {"limit": "max_task_bytes", "max": 64 * KIB})
    assert "max_task_bytes" in refused.value.message
    assert store.get(task.task_id).status == "working"
    assert store.update(task.task_id, complete(10 * KIB)).status == "completed"


def test_one_principal_past_its_bytes_is_refused_while_another_is_served(make_store: Store) -> None:
    store = make_store(max_bytes_per_principal=256 * KIB)
    working = [record("alice") for _ in range(4)]
    for task in working:
        store.create(task)
    for task in working[:3]:
        store.update(task.task_id, _park(70 * KIB))
    with pytest.raises(TaskLimitError) as refused:
        store.update(working[3].task_id, _park(70 * KIB))
    assert refused.value.data == {"limit": "max_bytes_per_principal", "max": 256 * KIB}
    bob = record("bob")
    store.create(bob)
    assert store.update(bob.task_id, complete(200 * KIB)).status == "completed"  # alice's share is hers alone
    assert all(store.get(task.task_id) is not None for task in working)


def _park(size: int) -> t.Callable[[TaskRecord], bool]:
    def change(found: TaskRecord) -> bool:  # an unfinished task: nothing of it may be forgotten
        found.status = "input_required"
        found.input_requests["k"] = {"method": "elicitation/create", "params": {"message": "y" * size}}
        return True

    return change


def test_a_principal_past_its_count_loses_its_own_oldest_finished_task_first(make_store: Store) -> None:
    store = make_store(max_tasks_per_principal=3)
    first, second, third = record("alice"), record("alice"), record("alice")
    bobs = record("bob")
    for task in (first, second, third, bobs):
        store.create(task)
    store.update(first.task_id, complete(10))
    store.update(bobs.task_id, complete(10))
    fourth = record("alice")
    store.create(fourth)  # room made from alice's own finished task
    assert store.get(first.task_id) is None
    assert store.get(bobs.task_id) is not None
    with pytest.raises(TaskLimitError) as refused:  # alice has nothing finished left to give up
        store.create(record("alice"))
    assert refused.value.data == {"limit": "max_tasks_per_principal", "max": 3}
    store.create(record("bob"))


def test_the_store_total_is_never_made_from_another_principals_tasks(make_store: Store) -> None:
    store = make_store(max_tasks=4, max_bytes=200 * KIB, max_bytes_per_principal=150 * KIB)
    alices = [record("alice") for _ in range(2)]
    for task in alices:
        store.create(task)
        store.update(task.task_id, complete(60 * KIB))  # finished: the owner's to give up, nobody else's
    bob = record("bob")
    store.create(bob)
    with pytest.raises(TaskLimitError) as refused:
        store.update(bob.task_id, complete(90 * KIB))
    assert refused.value.data == {"limit": "max_bytes", "max": 200 * KIB}
    assert all(store.get(task.task_id) is not None for task in alices)
    store.create(record("carol"))
    with pytest.raises(TaskLimitError) as refused:
        store.create(record("carol"))
    assert refused.value.data == {"limit": "max_tasks", "max": 4}


def test_expired_tasks_give_their_room_back(make_store: Store) -> None:
    store = make_store(max_tasks_per_principal=2)
    if isinstance(store, RedisTaskStore):
        store.retention = 1  # seconds a task without ttlMs is kept (Redis adds no grace to it)
        old = [record("alice", ttl_ms=None) for _ in range(2)]
    else:
        old = [record("alice", ttl_ms=300) for _ in range(2)]
    for task in old:
        store.create(task)
    with pytest.raises(TaskLimitError):
        store.create(record("alice"))
    time.sleep(1.2)
    store.create(record("alice"))
    assert all(store.get(task.task_id) is None for task in old)


def test_heartbeats_are_never_refused(make_store: Store) -> None:
    """A change no client sees (a worker's heartbeat) is the server's bookkeeping: kept even at the cap."""
    task = record("alice")
    store = make_store(max_bytes_per_principal=task.size)
    store.create(task)

    def beat(found: TaskRecord) -> bool:
        found.heartbeat_at = found.heartbeat_at + 0.123456789
        return False

    assert store.update(task.task_id, beat) is not None


def test_limits_are_positive_ints() -> None:
    with pytest.raises(ValueError, match="max_bytes"):
        TaskLimits(max_bytes=0)
    assert TaskLimits() == TaskLimits(
        max_tasks=10_000,
        max_tasks_per_principal=1_000,
        max_bytes=256 * 1024 * 1024,
        max_bytes_per_principal=32 * 1024 * 1024,
        max_task_bytes=4 * 1024 * 1024,
    )


class Echo(Tool):
    """Returns ``size`` bytes of text, as a task."""

    tool_name = "echo"
    input_schema = {"type": "object", "properties": {"size": {"type": "integer"}}, "required": ["size"]}
    task = True

    @classmethod
    def call(cls, size: int) -> str:
        return "z" * size


def test_a_too_large_result_fails_that_task_only(make_store: Store) -> None:
    server = Server("limits", tools=[Echo], task_store=make_store(max_task_bytes=64 * KIB))
    transport = StreamableHTTPTransport(server)
    with LiveServer(transport, closeables=[server.tasks, transport]) as live, ModernHTTP(live.url, WITH_TASKS) as client:
        big = client.result("tools/call", {"name": "echo", "arguments": {"size": 100 * KIB}})["taskId"]
        small = client.result("tools/call", {"name": "echo", "arguments": {"size": 10 * KIB}})["taskId"]
        failed = _settled(client, big)
        assert failed["status"] == "failed"
        assert failed["error"] == refusal("max_task_bytes", 64 * KIB)
        done = _settled(client, small)
        assert done["status"] == "completed" and len(done["result"]["content"][0]["text"]) == 10 * KIB


def _settled(client: ModernHTTP, task_id: str) -> dict[str, t.Any]:
    deadline = time.monotonic() + 20
    while (task := client.result("tasks/get", {"taskId": task_id}))["status"] == "working":
        assert time.monotonic() < deadline, "the task never ended"
        time.sleep(0.02)
    return task
