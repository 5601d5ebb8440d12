"""The tasks extension (``io.modelcontextprotocol/tasks``, SEP-2663) on a real HTTP server.

Every task message is checked against the extension's own schema
(``spec/support/schema/ext-tasks.json``).
"""

from __future__ import annotations

import time
import typing as t

import pytest

import mcp_sdk
from mcp_sdk import InputRequiredResult, Server, Tool
from mcp_sdk.errors import DefinitionError, InvalidParamsError
from mcp_sdk.server.input_required import form_elicitation
from mcp_sdk.server.task_store import InMemoryTaskStore, TaskRecord
from mcp_sdk.server.tasks import RunAsTask
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.http_server import LiveServer
from spec.support.modern_http import TASKS, WITH_TASKS, ModernHTTP
from spec.support.task_tools import NAME_SCHEMA, AskName, Gated, release
from spec.support.wire_schema import assert_valid

#: Seconds a test waits for a task to reach a status before it fails (generous: no timing assertions).
WAIT = 20.0


class Required(Tool):
    tool_name = "required"
    input_schema = {"type": "object", "properties": {}}
    task = "required"

    @classmethod
    def call(cls) -> Tool.Response:
        return Tool.Response("oops", error=True)


class TwoQuestions(Tool):
    tool_name = "two_questions"
    input_schema = {"type": "object", "properties": {}}
    task = "optional"

    @classmethod
    def call(cls, server_context: t.Any) -> t.Any:
        answers = server_context.input_responses
        if not answers:
            return InputRequiredResult({"a": form_elicitation("A?", NAME_SCHEMA), "b": form_elicitation("B?", NAME_SCHEMA)})
        return f"{answers['a']['content']['name']}+{answers['b']['content']['name']}"


class Broken(Tool):
    tool_name = "broken"
    input_schema = {"type": "object", "properties": {}}
    task = "optional"

    @classmethod
    def call(cls) -> str:
        raise InvalidParamsError("Invalid params: nothing to do", data={"why": "test"})


class AskThenTask(Tool):
    """MRTR first, then the rest as a task."""

    tool_name = "ask_then_task"
    input_schema = {"type": "object", "properties": {}}

    @classmethod
    def call(cls, server_context: t.Any) -> t.Any:
        name = server_context.create_form_elicitation("Your name?", NAME_SCHEMA)["content"]["name"]
        return RunAsTask(lambda task_context: f"Later, {name}!", required=True)


@pytest.fixture
def server() -> t.Iterator[Server]:
    release.clear()
    server = Server("tasks-spec", tools=[Gated, Required, AskName, TwoQuestions, Broken, AskThenTask])
    yield server
    release.set()
    server.tasks.close()


@pytest.fixture
def live(server: Server) -> t.Iterator[LiveServer]:
    transport = StreamableHTTPTransport(server)
    with LiveServer(transport, closeables=[transport]) as live:
        yield live


@pytest.fixture
def client(live: LiveServer) -> t.Iterator[ModernHTTP]:
    with ModernHTTP(live.url, WITH_TASKS) as client:
        yield client


@pytest.fixture
def plain(live: LiveServer) -> t.Iterator[ModernHTTP]:
    with ModernHTTP(live.url, {"elicitation": {}}) as client:
        yield client


def wait_for(client: ModernHTTP, task_id: str, status: str) -> dict[str, t.Any]:
    deadline = time.monotonic() + WAIT
    while True:
        task = client.result("tasks/get", {"taskId": task_id})
        assert_valid("GetTaskResult", task, "ext-tasks")
        if task["status"] == status:
            return task
        assert time.monotonic() < deadline, f"task stayed {task['status']!r}, never {status!r}"
        time.sleep(0.02)


def create(client: ModernHTTP, name: str, arguments: dict[str, t.Any] | None = None) -> dict[str, t.Any]:
    created = client.result("tools/call", {"name": name, "arguments": arguments or {}})
    assert_valid("CreateTaskResult", created, "ext-tasks")
    return created


def test_discover_advertises_the_extension(client: ModernHTTP) -> None:
    result = client.result("server/discover")
    assert result["capabilities"]["extensions"] == {TASKS: {}}


def test_a_task_tool_answers_create_task_result_at_once_and_completes(client: ModernHTTP) -> None:
    created = create(client, "gated")
    assert created["resultType"] == "task"
    assert created["status"] == "working"
    assert set(created) == {"resultType", "taskId", "status", "createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs", "_meta"}
    assert created["ttlMs"] == 3_600_000 and created["pollIntervalMs"] == 500
    working = client.result("tasks/get", {"taskId": created["taskId"]})
    assert_valid("GetTaskResult", working, "ext-tasks")
    assert (working["resultType"], working["status"]) == ("complete", "working")
    assert "result" not in working
    release.set()
    done = wait_for(client, created["taskId"], "completed")
    assert done["result"] == {"content": [{"type": "text", "text": "released"}], "isError": False}
    assert done["createdAt"] == created["createdAt"]


def test_without_the_extension_the_call_runs_as_always(plain: ModernHTTP) -> None:
    release.set()
    result = plain.result("tools/call", {"name": "gated", "arguments": {}})
    assert result["content"] == [{"type": "text", "text": "released"}]
    assert result["resultType"] == "complete" and "taskId" not in result


def test_a_task_only_tool_refuses_a_client_without_the_extension(plain: ModernHTTP) -> None:
    response = plain.response("tools/call", {"name": "required", "arguments": {}})
    assert response["error"]["code"] == -32021
    assert response["error"]["data"] == {"requiredCapabilities": {"extensions": {TASKS: {}}}}


@pytest.mark.parametrize("method", ["tasks/get", "tasks/update", "tasks/cancel"])
def test_task_methods_need_the_extension(plain: ModernHTTP, method: str) -> None:
    response = plain.response(method, {"taskId": "whatever", "inputResponses": {}})
    assert response["error"]["code"] == -32021


@pytest.mark.parametrize("method", ["tasks/get", "tasks/update", "tasks/cancel"])
def test_an_unknown_task_is_invalid_params(client: ModernHTTP, method: str) -> None:
    response = client.response(method, {"taskId": "no-such-task", "inputResponses": {}})
    assert response["error"]["code"] == -32602


def test_removed_v1_methods_are_not_found(client: ModernHTTP) -> None:
    assert client.response("tasks/result", {"taskId": "x"})["error"]["code"] == -32601
    assert client.response("tasks/list", {})["error"]["code"] == -32601


def test_a_tool_error_completes_with_is_error(client: ModernHTTP) -> None:
    done = wait_for(client, create(client, "required")["taskId"], "completed")
    assert done["result"] == {"content": [{"type": "text", "text": "oops"}], "isError": True}


def test_a_json_rpc_error_fails_the_task(client: ModernHTTP) -> None:
    failed = wait_for(client, create(client, "broken")["taskId"], "failed")
    assert failed["error"] == {"code": -32602, "message": "Invalid params: nothing to do", "data": {"why": "test"}}
    assert "result" not in failed


def test_an_ask_inside_a_task_waits_for_tasks_update(client: ModernHTTP) -> None:
    task_id = create(client, "ask_name")["taskId"]
    parked = wait_for(client, task_id, "input_required")
    assert parked["inputRequests"] == {
        "elicitation-1": {
            "method": "elicitation/create",
            "params": {"mode": "form", "message": "Your name?", "requestedSchema": NAME_SCHEMA},
        }
    }
    ack = client.result("tasks/update", {"taskId": task_id, "inputResponses": {"unknown": {"action": "accept"}}})
    assert_valid("UpdateTaskResult", ack, "ext-tasks")
    assert wait_for(client, task_id, "input_required")["inputRequests"].keys() == {"elicitation-1"}
    answer = {"action": "accept", "content": {"name": "Ada"}}
    assert client.result("tasks/update", {"taskId": task_id, "inputResponses": {"elicitation-1": answer}})["resultType"] == "complete"
    done = wait_for(client, task_id, "completed")
    assert done["result"]["content"] == [{"type": "text", "text": "Hello, Ada!"}]


def test_partial_answers_keep_the_task_waiting(client: ModernHTTP) -> None:
    task_id = create(client, "two_questions")["taskId"]
    parked = wait_for(client, task_id, "input_required")
    assert set(parked["inputRequests"]) == {"a", "b"}
    client.result("tasks/update", {"taskId": task_id, "inputResponses": {"a": {"action": "accept", "content": {"name": "x"}}}})
    still = client.result("tasks/get", {"taskId": task_id})
    assert still["status"] == "input_required" and set(still["inputRequests"]) == {"b"}
    client.result("tasks/update", {"taskId": task_id, "inputResponses": {"b": {"action": "accept", "content": {"name": "y"}}}})
    assert wait_for(client, task_id, "completed")["result"]["content"][0]["text"] == "x+y"


def test_cancel_is_acknowledged_and_ends_the_task(client: ModernHTTP) -> None:
    task_id = create(client, "gated")["taskId"]
    ack = client.result("tasks/cancel", {"taskId": task_id})
    assert_valid("CancelTaskResult", ack, "ext-tasks")
    assert set(ack) == {"resultType", "_meta"}
    cancelled = wait_for(client, task_id, "cancelled")
    assert "result" not in cancelled and "error" not in cancelled
    assert client.result("tasks/cancel", {"taskId": task_id})["resultType"] == "complete"  # idempotent
    release.set()
    assert client.result("tasks/get", {"taskId": task_id})["status"] == "cancelled"  # the first terminal status stands


def test_mrtr_first_then_a_task(client: ModernHTTP) -> None:
    first = client.result("tools/call", {"name": "ask_then_task", "arguments": {}})
    assert first["resultType"] == "input_required" and "taskId" not in first
    (key,) = first["inputRequests"]
    second = client.result(
        "tools/call",
        {
            "name": "ask_then_task",
            "arguments": {},
            "inputResponses": {key: {"action": "accept", "content": {"name": "Bo"}}},
            "requestState": first["requestState"],
        },
    )
    assert_valid("CreateTaskResult", second, "ext-tasks")
    assert "requestState" not in second
    done = wait_for(client, second["taskId"], "completed")
    assert done["result"]["content"] == [{"type": "text", "text": "Later, Bo!"}]


def test_mismatched_mcp_name_on_tasks_get_is_rejected(client: ModernHTTP) -> None:
    task_id = create(client, "gated")["taskId"]
    message = client.message("tasks/get", {"taskId": task_id})
    answer = client.post(message, **{"Mcp-Name": "another-task"})
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == -32020


def test_task_status_notifications_on_subscriptions_listen(client: ModernHTTP) -> None:
    task_id = create(client, "gated")["taskId"]
    stream = client.stream("subscriptions/listen", {"notifications": {"taskIds": [task_id]}})
    try:
        ack = next(stream)
        assert ack["method"] == "notifications/subscriptions/acknowledged"
        assert ack["params"]["notifications"] == {"taskIds": [task_id]}
        release.set()
        notification = next(stream)
        assert_valid("TaskStatusNotification", notification, "ext-tasks")
        assert notification["params"]["status"] == "completed"
        assert notification["params"]["taskId"] == task_id
        assert notification["params"]["result"]["content"] == [{"type": "text", "text": "released"}]
    finally:
        stream.close()


def test_listening_for_tasks_needs_the_extension(plain: ModernHTTP) -> None:
    response = plain.response("subscriptions/listen", {"notifications": {"taskIds": ["x"]}})
    assert response["error"]["code"] == -32021


def test_an_expired_task_is_gone(server: Server, client: ModernHTTP) -> None:
    server.tasks.ttl_ms = 1
    task_id = create(client, "required")["taskId"]
    deadline = time.monotonic() + WAIT
    while "error" not in (response := client.response("tasks/get", {"taskId": task_id})):
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert response["error"]["code"] == -32602


def test_task_ids_are_unguessable_and_not_in_reprs(client: ModernHTTP, server: Server) -> None:
    task_id = create(client, "required")["taskId"]
    assert len(task_id) >= 32
    record = server.tasks.store.get(task_id)
    assert record is not None and task_id not in repr(record)


def test_a_custom_store_is_used() -> None:
    store = InMemoryTaskStore()
    server = Server("custom-store", tools=[Required], task_store=store)
    transport = StreamableHTTPTransport(server)
    with LiveServer(transport, closeables=[transport]) as other, ModernHTTP(other.url, WITH_TASKS) as client:
        task_id = create(client, "required")["taskId"]
        assert store.get(task_id) is not None
        wait_for(client, task_id, "completed")


def test_tool_task_setting_is_checked() -> None:
    assert Tool.define("t", task=True, handler=lambda: "x").task == "optional"
    assert Tool.define("t", task=False, handler=lambda: "x").task is None
    with pytest.raises(DefinitionError):
        Tool.define("t", task="sometimes", handler=lambda: "x")


def test_a_2025_session_never_sees_the_extension() -> None:
    server = Server("old", tools=[Gated])
    session = server.create_session(send=lambda message, related: None)
    response = session.handle(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}},
        }
    )
    assert "extensions" not in response["result"]["capabilities"]
    assert mcp_sdk.RunAsTask is RunAsTask


def test_an_expired_task_stops_its_work(server: Server, client: ModernHTTP) -> None:
    server.tasks.ttl_ms = 1
    create(client, "gated")  # never released: only the expiry ends it
    deadline = time.monotonic() + WAIT
    while server.tasks.running:
        assert time.monotonic() < deadline, "the expired task's tool kept running"
        time.sleep(0.02)


def test_a_task_whose_worker_stopped_ends_failed(server: Server, client: ModernHTTP) -> None:
    """As a shared store shows a task of a process that died: unfinished, its heartbeat old."""
    orphan = TaskRecord("orphan-task-of-a-dead-process", ttl_ms=600_000, poll_interval_ms=500, created_at=time.time() - 120)
    server.tasks.store.create(orphan)
    failed = client.result("tasks/get", {"taskId": orphan.task_id})
    assert_valid("GetTaskResult", failed, "ext-tasks")
    assert failed["status"] == "failed"
    assert failed["error"] == {"code": -32603, "message": "Internal error: the task's worker stopped"}


def test_a_running_task_keeps_beating(server: Server, client: ModernHTTP) -> None:
    server.tasks.worker_timeout = 5.0
    task_id = create(client, "gated")["taskId"]
    record = server.tasks.store.get(task_id)
    assert record is not None
    first, updated = record.heartbeat_at, record.updated_at
    deadline = time.monotonic() + WAIT
    while (record := server.tasks.store.get(task_id)) is not None and record.heartbeat_at == first:
        assert time.monotonic() < deadline, "no heartbeat"
        time.sleep(0.05)
    assert record is not None and record.updated_at == updated  # a heartbeat is not a change a client sees
    assert client.result("tasks/get", {"taskId": task_id})["status"] == "working"


def test_a_cancel_written_to_the_store_reaches_the_work(server: Server, client: ModernHTTP) -> None:
    """As when another process sharing the store served tasks/cancel: only the record says so."""
    task_id = create(client, "gated")["taskId"]

    def cancelled_elsewhere(record: TaskRecord) -> bool:
        record.status = "cancelled"
        return True

    server.tasks.store.update(task_id, cancelled_elsewhere)
    deadline = time.monotonic() + WAIT
    while server.tasks.running:
        assert time.monotonic() < deadline, "the work never saw the cancel"
        time.sleep(0.02)
    assert client.result("tasks/get", {"taskId": task_id})["status"] == "cancelled"
