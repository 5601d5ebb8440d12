"""mcp_sdk.contrib.django under ``gunicorn -w 2`` (issue 18): ``requestState`` keys derived from
``SECRET_KEY``, so a 2026-07-28 input request asked by one worker is answered on the other with
nothing shared but the settings; ``MCP_SDK["REDIS_URL"]`` shares 2025 sessions between the workers;
both for the configured server (``include("mcp_sdk.contrib.django.urls")``) and for
``mcp_view(server)``. Each request is sent to the worker chosen (spec.support.scale_out.Lanes)."""

from __future__ import annotations

import json
import sys
import typing as t
from pathlib import Path

import pytest
import requests

from spec.support.http_client import Client, messages_of, tool_call
from spec.support.http_server import ServerProcess
from spec.support.modern_http import ModernHTTP
from spec.support.redis_server import RedisServer
from spec.support.scale_out import Lanes

ROUND_TRIPS = 6
ANSWER = {"elicitation-1": {"action": "accept", "content": {"name": "Ann"}}}
PATHS = ["/mcp/", "/own/"]  # the configured server, and mcp_view(own)
#: What the transport logs when several processes would each sign requestState with a key of their own.
SEVERAL_PROCESSES = "the WSGI server runs several processes (wsgi.multiprocess)"
#: The 404 of a 2025 session another worker created, while sessions live in each worker's memory.
ISSUED_ELSEWHERE = (
    "Not Found: unknown session. Sessions live in the memory of the process that created them: "
    "several server processes (gunicorn -w N) are the likely cause. Run one process with threads "
    "(gunicorn -w 1 -k gthread), share sessions on Redis (redis_url=), or pass stateless=True"
)


def two_workers(tmp_path: Path, **env: str) -> ServerProcess:
    command = [sys.executable, "-m", "gunicorn", "-k", "gthread", "--threads", "8", "-w", "2", "--keep-alive", "60"]
    command += ["--graceful-timeout", "1", "-b", "127.0.0.1:{port}", "spec.mcp_sdk.contrib.django_project.wsgi:application"]
    settings = "spec.mcp_sdk.contrib.django_project.workers_settings"
    return ServerProcess(command, env={"DJANGO_SETTINGS_MODULE": settings, "MCP_SPEC_DB": str(tmp_path / "db.sqlite3"), **env})


def post(url: str, client: ModernHTTP, http: requests.Session, message: dict[str, t.Any]) -> requests.Response:
    return http.post(url, data=json.dumps(message), headers=client.headers(message), timeout=10)


@pytest.mark.parametrize("path", PATHS)
def test_request_state_sealed_by_one_worker_is_opened_by_the_other(tmp_path: Path, path: str) -> None:
    with two_workers(tmp_path) as served:
        lanes = Lanes(served.base, workers=2, per_worker=1)
        url = served.base + path
        answers = []
        try:
            with ModernHTTP(url, {"elicitation": {}}) as client:
                for number in range(ROUND_TRIPS):
                    asking, retrying = (lanes.by_pid[lanes.pids[(number + turn) % 2]][0] for turn in (0, 1))
                    request = client.message("tools/call", {"name": "greet", "arguments": {}})
                    with post(url, client, asking, request) as first:
                        [asked] = messages_of(first)
                    assert (asked["result"]["resultType"], asked["result"]["inputRequests"]["elicitation-1"]["params"]["message"]) == (
                        "input_required",
                        "What is your name?",
                    )
                    params = {**request["params"], "inputResponses": ANSWER, "requestState": asked["result"]["requestState"]}
                    with post(url, client, retrying, {**request, "params": params}) as second:
                        [answered] = messages_of(second)
                    answers.append(answered["result"]["content"])
        finally:
            lanes.close()
        logged = served.stop()
    assert answers == [[{"type": "text", "text": "Hello, Ann!"}]] * ROUND_TRIPS
    assert SEVERAL_PROCESSES not in logged  # the derived keys count as shared


def session_on_one_worker_used_on_the_other(served: ServerProcess, path: str) -> tuple[int, t.Any, int]:
    """A 2025 session opened on one worker, a tool called in it on the other: the status, the
    answer (the pid that ran it, or the error), and the other worker's pid."""
    lanes = Lanes(served.base, workers=2, per_worker=1)
    try:
        opened = Client(served.base + path, lanes.by_pid[lanes.pids[0]][0])
        opened.initialize()
        other = lanes.client(opened, 1)
        with other.post(tool_call("worker")) as response:
            answer = messages_of(response)[-1]["result"]["content"][0]["text"] if response.status_code == 200 else response.json()["error"]
            return response.status_code, answer, lanes.pids[1]
    finally:
        lanes.close()


@pytest.mark.parametrize("path", PATHS)
def test_the_redis_url_setting_shares_sessions_between_workers(tmp_path: Path, path: str) -> None:
    with RedisServer() as redis_server, two_workers(tmp_path, MCP_SPEC_REDIS_URL=redis_server.url) as served:
        status, answer, other = session_on_one_worker_used_on_the_other(served, path)
        keys = redis_server.client()
        try:
            stored = sorted(key.decode() for key in keys.keys("*"))
        finally:
            keys.close()
    assert (status, answer) == (200, str(other))  # run by the worker the call went to, in a session the other opened
    assert stored != []  # the sessions live on Redis


def test_without_redis_the_other_worker_names_the_setting(tmp_path: Path) -> None:
    with two_workers(tmp_path) as served:
        status, answer, _ = session_on_one_worker_used_on_the_other(served, "/mcp/")
    assert (status, answer) == (404, {"code": -32600, "message": ISSUED_ELSEWHERE})
