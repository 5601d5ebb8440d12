"""The tasks extension over real stdio: a server subprocess, task messages checked against the extension's schema."""

from __future__ import annotations

import itertools
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


def wait_for(peer: StdioPeer, task_id: str, status: str, ids: t.Iterator[int]) -> dict[str, t.Any]:
    deadline = time.monotonic() + WAIT
    while (task := peer.request(next(ids), "tasks/get", envelope({"taskId": task_id}))["result"])["status"] != status:
        assert time.monotonic() < deadline, task
        time.sleep(0.02)
    assert_valid("GetTaskResult", task, "ext-tasks")
    return t.cast("dict[str, t.Any]", task)


def test_a_task_over_stdio_asks_through_tasks_update_and_completes() -> None:
    peer = StdioPeer([str(SUPPORT / "tasks_stdio_server.py")])
    ids = itertools.count(1)
    try:
        created = peer.request(next(ids), "tools/call", envelope({"name": "ask_name", "arguments": {}}))["result"]
        assert_valid("CreateTaskResult", created, "ext-tasks")
        task_id = created["taskId"]
        (key,) = wait_for(peer, task_id, "input_required", ids)["inputRequests"]
        answer = {"action": "accept", "content": {"name": "Stdio"}}
        ack = peer.request(next(ids), "tasks/update", envelope({"taskId": task_id, "inputResponses": {key: answer}}))["result"]
        assert_valid("UpdateTaskResult", ack, "ext-tasks")
        task = wait_for(peer, task_id, "completed", ids)
        assert task["result"] == {"content": [{"type": "text", "text": "Hello, Stdio!"}], "isError": False}
    finally:
        leftover = peer.finish()
    assert leftover == []  # nothing but answers: no progress or stray notification from the task
