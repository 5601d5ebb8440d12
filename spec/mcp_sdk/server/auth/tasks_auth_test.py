"""A task belongs to the principal that created it: another token cannot see, answer or cancel it."""

from __future__ import annotations

import typing as t

from spec.support.auth_server import JWTAuthorizationServer
from spec.support.modern_http import WITH_TASKS, ModernHTTP
from spec.support.protected_server import ProtectedServer
from spec.support.task_tools import Gated, release


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
