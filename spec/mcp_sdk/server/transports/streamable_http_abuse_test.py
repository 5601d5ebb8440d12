"""One abusive client against every deployment of the many-sessions specs, with the transport's
defaults (issue 17: issue 13's bounds hold on every worker class, with no setting sized by hand).

A client of protocol 2025-06-18 cannot resume a stream the server closes, so its streams are held
and capped: sessions of one abusive client each open their GET stream and long tool calls until
refused, ``429`` past a session's share and ``503`` past the total, at once and with
``Retry-After``. The caps follow the WSGI threads the transport finds (waitress 4: 2 streams, 2 a
session; gunicorn, Flask and Django with 8 threads: 6 and 3; 16 threads: 12 and 6), so the
refusals also prove the thread count was found. Meanwhile another client's ``ping`` is answered,
and its 2025-11-25 GET stream is never refused: it gets a ``retry`` at once and polls.

On gunicorn's default ``sync`` worker (one request at a time, no GET stream at all), a 2025-11-25
client's long call is polled and never keeps the only worker from another client's ``ping``.
"""

from __future__ import annotations

import contextlib
import time

import pytest
import requests

from mcp_sdk.server.transports.streamable_http.capacity.limits import streams_for_threads
from spec.support.hostile_servers import session
from spec.support.http_client import Client, read_events, request, tool_call
from spec.support.http_server import PYTHON, ServerProcess
from spec.support.polling_deployments import DEPLOYMENTS

HOLDING = "2025-06-18"
#: Sessions the abusive client opens at most.
MAX_SESSIONS = 10


def stream(client: Client, number: int) -> requests.Response:
    """The session's GET stream first, then tool calls answered over SSE that run 30 s."""
    return client.get() if number == 0 else client.post(tool_call("hold", {"seconds": 30}, id=number))


@pytest.mark.parametrize("deployment", list(DEPLOYMENTS))
def test_an_abusive_client_is_refused_with_retry_after_and_never_blocks_a_ping(deployment: str) -> None:
    command, threads, path, env = DEPLOYMENTS[deployment]
    total = streams_for_threads(threads)
    share = max(2, total // 2)
    with ServerProcess(command, path=path, env=env) as served, contextlib.ExitStack() as held:
        victim = session(served.url)
        answers, expected = [], []
        opened = 0
        for _ in range(MAX_SESSIONS):
            attacker = session(served.url, HOLDING)
            for number in range(share + 1):
                response = held.enter_context(stream(attacker, number))
                answers.append((response.status_code, response.headers.get("Retry-After")))
                status = 429 if number == share else 503 if opened == total else 200
                expected.append((status, None if status == 200 else "1"))
                if status != 200:
                    break
                opened += 1
            if opened == total:
                break
        with stream(session(served.url, HOLDING), 0) as refused:
            answers.append((refused.status_code, refused.headers.get("Retry-After")))
            expected.append((503, "1"))
        assert answers == expected
        assert victim.call(request("ping", id=7)) == [{"jsonrpc": "2.0", "id": 7, "result": {}}]
        with victim.get() as polled:  # 2025-11-25: never refused, answered at once with a retry
            assert polled.status_code == 200
            assert [(event.data, event.retry) for event in read_events(polled)] == [("", 1000), (None, 1000)]


def test_on_gunicorns_sync_worker_a_long_call_polls_and_never_keeps_the_only_worker() -> None:
    # The sync worker serves one request at a time: the transport counts it as one thread (not its
    # unused worker_connections, 1000), so a 2025-11-25 call's SSE answer is closed at once with a
    # retry while the tool runs on the transport's pool, and the worker serves the next request.
    command = [PYTHON, "-m", "gunicorn", "-w", "1", "--graceful-timeout", "1", "-b", "127.0.0.1:{port}", "spec.support.polling_app:app"]
    with ServerProcess(command) as served:
        caller, victim = session(served.url), session(served.url)
        with caller.post(tool_call("hold", {"seconds": 3}, id=5)) as polled:
            assert polled.headers["Content-Length"]  # the whole answer for now: the worker is free again
            events = list(read_events(polled))
        assert [(event.data, event.retry) for event in events] == [("", 1000), (None, 1000)]
        priming = events[0]
        assert victim.call(request("ping", id=7)) == [{"jsonrpc": "2.0", "id": 7, "result": {}}]
        messages, last_id = [], priming.id
        while not messages:
            with caller.get(caller.headers(Accept="text/event-stream", **{"Last-Event-ID": str(last_id)})) as resumed:
                assert resumed.status_code == 200
                for event in read_events(resumed):
                    last_id = event.id or last_id
                    if event.data:
                        messages.append(event.message)
            time.sleep(priming.retry / 1000)
        assert messages == [{"jsonrpc": "2.0", "id": 5, "result": {"content": [{"type": "text", "text": "held"}], "isError": False}}]
