"""The tasks extension over real stdio: a server subprocess, task messages checked against the extension's schema."""

from __future__ import annotations

import time
import typing as t

from spec.support.modern_http import MODERN, WITH_TASKS
from spec.support.stdio_peer import SUPPORT, StdioPeer
from spec.support.wire_schema import assert_valid

WAIT = 20.0


def envelope(params: dict[str, t.Any]) -> dict[str, t.Any]:
    return {
        **params,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": WITH_TASKS,
        },
    }


def test_a_task_over_stdio_asks_through_tasks_update_and_completes() -> None:
    peer = StdioPeer([str(SUPPORT / "tasks_stdio_server.py")])
    try:
        created = peer.request(1, "tools/call", envelope({"name": "ask_name", "arguments": {}}))["result"]
        assert_valid("CreateTaskResult", created, "ext-tasks")
        task_id = created["taskId"]
        deadline = time.monotonic() + WAIT
        request_id = 2
        while (task := peer.request(request_id, "tasks/get", envelope({"taskId": task_id}))["result"])["status"] != "input_required":
            assert time.monotonic() < deadline, task
            request_id += 1
            time.sleep(0.02)
        assert_valid("GetTaskResult", task, "ext-tasks")
        (key,) = task["inputRequests"]
        answer = {"action": "accept", "content": {"name": "Stdio"}}
        ack = peer.request(100, "tasks/update", envelope({"taskId": task_id, "inputResponses": {key: answer}}))["result"]
        assert_valid("UpdateTaskResult", ack, "ext-tasks")
        request_id = 101
        while (task := peer.request(request_id, "tasks/get", envelope({"taskId": task_id}))["result"])["status"] != "completed":
            assert time.monotonic() < deadline, task
            request_id += 1
            time.sleep(0.02)
        assert_valid("GetTaskResult", task, "ext-tasks")
        assert task["result"] == {"content": [{"type": "text", "text": "Hello, Stdio!"}], "isError": False}
    finally:
        leftover = peer.finish()
    assert leftover == []  # nothing but answers: no progress or stray notification from the task
