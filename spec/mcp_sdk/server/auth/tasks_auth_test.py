"""A task belongs to the principal that created it: another token cannot see, answer or cancel it."""

from __future__ import annotations

import typing as t

import pytest

from spec.support.auth_server import JWTAuthorizationServer
from spec.support.modern_http import WITH_TASKS, ModernHTTP
from spec.support.protected_server import ProtectedServer
from spec.support.redis_server import wait_until
from spec.support.task_tools import AskName, Gated, release


def test_another_principal_cannot_reach_a_task(
    issuer: JWTAuthorizationServer, protect: t.Callable[..., ProtectedServer]
) -> None:
    release.clear()
    protected = protect()
    protected.server.add_tool(Gated)
    with ModernHTTP(protected.url, WITH_TASKS) as alice, ModernHTTP(protected.url, WITH_TASKS) as bob:
        alice.http.headers["Authorization"] = "Bearer " + issuer.mint(aud=protected.url)
        bob.http.headers["Authorization"] = "Bearer " + issuer.mint(aud=protected.url, sub="bob")
        try:
            task_id = alice.result("tools/call", {"name": "gated", "arguments": {}})["taskId"]
            for method in ("tasks/get", "tasks/update", "tasks/cancel"):
                assert bob.response(method, {"taskId": task_id, "inputResponses": {}})["error"]["code"] == -32602
            assert alice.result("tasks/get", {"taskId": task_id})["status"] == "working"  # bob's cancel did nothing
        finally:
            release.set()
            protected.server.tasks.close()


NOT_FOUND = {"code": -32602, "message": "Invalid params: task not found (unknown or expired taskId)"}


def _as(client: ModernHTTP, token: str) -> ModernHTTP:
    client.http.headers["Authorization"] = "Bearer " + token
    return client


@pytest.mark.parametrize(
    ("owner", "other"),
    [
        ({"sub": None, "client_id": "svc-a"}, {"sub": None, "client_id": "svc-b"}),  # client credentials: no sub
        ({"sub": "alice", "client_id": "app-1"}, {"sub": "alice", "client_id": "app-2"}),  # the same user, another client
    ],
    ids=["two-services-without-sub", "same-sub-another-client"],
)
def test_a_task_belongs_to_issuer_subject_and_client(
    issuer: JWTAuthorizationServer, protect: t.Callable[..., ProtectedServer], owner: dict[str, t.Any], other: dict[str, t.Any]
) -> None:
    """Issue 19, item 1: the owner was the token's ``sub`` alone."""
    release.clear()
    protected = protect()
    protected.server.add_tool(Gated)
    with ModernHTTP(protected.url, WITH_TASKS) as mine, ModernHTTP(protected.url, WITH_TASKS) as theirs:
        _as(mine, issuer.mint(aud=protected.url, **owner))
        _as(theirs, issuer.mint(aud=protected.url, **other))
        try:
            task_id = mine.result("tools/call", {"name": "gated", "arguments": {}})["taskId"]
            for method in ("tasks/get", "tasks/update", "tasks/cancel"):
                answer = theirs.response(method, {"taskId": task_id, "inputResponses": {}})
                assert answer == {"jsonrpc": "2.0", "id": answer["id"], "error": NOT_FOUND}
            _as(mine, issuer.mint(aud=protected.url, **owner))  # a fresh token of the same principal
            assert mine.result("tasks/get", {"taskId": task_id})["status"] == "working"
        finally:
            release.set()
            protected.server.tasks.close()


def test_one_principal_past_its_share_of_running_tasks_leaves_the_others_theirs(
    issuer: JWTAuthorizationServer, protect: t.Callable[..., ProtectedServer]
) -> None:
    """Issue 19, item 2: one caller parked 64 tasks in ``input_required`` and every other caller's
    task calls failed for up to an hour."""
    protected = protect()
    protected.server.add_tool(AskName)
    tasks = protected.server.tasks
    assert (tasks.max_running, tasks.max_running_per_principal) == (64, 16)
    with ModernHTTP(protected.url, WITH_TASKS) as mallory, ModernHTTP(protected.url, WITH_TASKS) as bob:
        _as(mallory, issuer.mint(aud=protected.url, sub="mallory"))
        _as(bob, issuer.mint(aud=protected.url, sub="bob"))
        try:
            parked = [mallory.result("tools/call", {"name": "ask_name", "arguments": {}})["taskId"] for _ in range(16)]
            refused = mallory.response("tools/call", {"name": "ask_name", "arguments": {}})
            assert refused["error"] == {
                "code": -32603,
                "message": "Internal error: task limit max_running_per_principal reached: "
                "this caller runs 16 tasks, the most one caller may run at once",
                "data": {"limit": "max_running_per_principal", "max": 16},
            }
            task_id = bob.result("tools/call", {"name": "ask_name", "arguments": {}})["taskId"]
            assert wait_until(lambda: bob.result("tasks/get", {"taskId": task_id})["status"] == "input_required")
            answer = {"elicitation-1": {"action": "accept", "content": {"name": "Bob"}}}
            bob.result("tasks/update", {"taskId": task_id, "inputResponses": answer})
            assert wait_until(lambda: bob.result("tasks/get", {"taskId": task_id})["status"] == "completed")
            assert bob.result("tasks/get", {"taskId": task_id})["result"]["content"][0]["text"] == "Hello, Bob!"
            mallory.result("tasks/cancel", {"taskId": parked[0]})  # a slot given back is the caller's again
            assert wait_until(lambda: tasks.running < 16)
            assert mallory.result("tools/call", {"name": "ask_name", "arguments": {}})["resultType"] == "task"
        finally:
            tasks.close()
