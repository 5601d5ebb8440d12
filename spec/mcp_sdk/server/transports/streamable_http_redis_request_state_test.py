"""2026-07-28 ``requestState`` under ``gunicorn -w 2`` (issue 19, item 7): shared on Redis, else a clear refusal.

Each multi round-trip request is sent to one real worker process and retried on
the other (keep-alive connections aimed at each, see spec.support.scale_out.Lanes).
With ``redis_url`` the workers share the keys through Redis, so every retry is
served; without it, the retry is refused with a message saying why and what to
set, and the server logged at its first 2026-07-28 request that this would happen.
"""

from __future__ import annotations

import json
import typing as t

import requests

from mcp_sdk.server.request_state import SEALED_ELSEWHERE
from mcp_sdk.server.transports.streamable_http.sessions.deployment import SEVERAL_PROCESSES
from mcp_sdk.server.transports.streamable_http.shared.redis_request_state import KEY_NAME
from spec.support.http_client import messages_of
from spec.support.http_server import PYTHON, ServerProcess
from spec.support.modern_http import ModernHTTP
from spec.support.redis_server import RedisServer
from spec.support.scale_out import Lanes

ROUND_TRIPS = 20
ANSWER = {"elicitation-1": {"action": "accept", "content": {"name": "Ann"}}}


def two_workers(**env: str) -> ServerProcess:
    command = [PYTHON, "-m", "gunicorn", "-k", "gthread", "--threads", "8", "-w", "2", "--keep-alive", "60"]
    command += ["--graceful-timeout", "1", "-b", "127.0.0.1:{port}", "spec.support.mrtr_app:app"]
    return ServerProcess(command, env=env)


def post(client: ModernHTTP, http: requests.Session, message: dict[str, t.Any]) -> requests.Response:
    return http.post(client.url, data=json.dumps(message), headers=client.headers(message), timeout=10)


def round_trips(served: ServerProcess) -> list[tuple[int, dict[str, t.Any]]]:
    """Each request asked on one worker and retried on the other: the retries' status and response."""
    lanes = Lanes(served.base, workers=2, per_worker=1)
    answers = []
    try:
        with ModernHTTP(served.url, {"elicitation": {}}) as client:
            for number in range(ROUND_TRIPS):
                asking, retrying = (lanes.by_pid[lanes.pids[(number + turn) % 2]][0] for turn in (0, 1))
                request = client.message("tools/call", {"name": "greet", "arguments": {"n": number}})
                with post(client, asking, request) as first:
                    [asked] = messages_of(first)
                assert asked["result"]["resultType"] == "input_required"
                params = {**request["params"], "inputResponses": ANSWER, "requestState": asked["result"]["requestState"]}
                with post(client, retrying, {**request, "params": params}) as second:
                    answers.append((second.status_code, second.json() if second.headers["Content-Type"] == "application/json" else messages_of(second)[-1]))
    finally:
        lanes.close()
    return answers


def test_with_redis_every_worker_opens_what_another_sealed() -> None:
    with RedisServer() as redis_server, two_workers(MCP_REDIS_URL=redis_server.url) as served:
        answers = round_trips(served)
        client = redis_server.client()
        try:
            stored = client.get(f"mcp:{KEY_NAME}")
        finally:
            client.close()
        logged = served.stop()
    texts = [(status, response["result"]["content"][0]["text"]) for status, response in answers]
    assert texts == [(200, "Hello, Ann!")] * ROUND_TRIPS
    assert stored is not None and len(bytes.fromhex(stored.decode())) == 32  # one random key, made once, shared
    assert SEVERAL_PROCESSES not in logged


def test_without_redis_a_retry_on_another_worker_says_why_and_the_server_warned() -> None:
    with two_workers() as served:
        answers = round_trips(served)
        logged = served.stop()
    assert [(status, response["error"]) for status, response in answers] == [
        (400, {"code": -32602, "message": SEALED_ELSEWHERE})
    ] * ROUND_TRIPS
    assert logged.count(SEVERAL_PROCESSES) == 2  # once per worker
