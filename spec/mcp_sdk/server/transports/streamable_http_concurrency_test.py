"""Many sessions at once on a threaded WSGI server: each gets its own progress, nothing leaks across."""

from __future__ import annotations

import concurrent.futures
import threading
import typing as t

import pytest

from spec.support.http_client import Client, read_events, text_result, tool_call
from spec.support.http_fixtures import Served

from .streamable_http_transport_test import log, progress

SESSIONS = 50
STEPS = 3


def one_session(served: Served, number: int, start: threading.Barrier) -> list[t.Any]:
    client = served.client()
    client.initialize()
    client.call({"jsonrpc": "2.0", "id": 1, "method": "logging/setLevel", "params": {"level": "info"}})
    start.wait(60)  # every session calls its tool at the same moment (generous: CI machines are busy)
    with client.post(tool_call("progress", {"steps": STEPS}, id=2, progress_token=f"session-{number}")) as response:
        return [event.message for event in read_events(response) if event.data]


@pytest.mark.parametrize("max_workers", [64, 4], ids=["pool-64", "pool-4-queueing"])
def test_fifty_concurrent_sessions_each_see_only_their_own_progress(serve: t.Callable[..., Served], max_workers: int) -> None:
    # werkzeug's server has a thread per connection: room for all fifty streams at once (this is
    # about isolation, not the stream caps, which streamable_http_hostile_test.py covers).
    served = serve(max_workers=max_workers, wsgi_threads=4 * SESSIONS)
    start = threading.Barrier(SESSIONS)
    with concurrent.futures.ThreadPoolExecutor(SESSIONS, thread_name_prefix="spec-client") as pool:
        futures = [pool.submit(one_session, served, number, start) for number in range(SESSIONS)]
        results = [future.result(timeout=120) for future in futures]
    for number, messages in enumerate(results):
        token = f"session-{number}"
        expected: list[t.Any] = []
        for step in range(1, STEPS + 1):
            expected += [progress(token, step, STEPS, f"step {step}"), log(f"step {step}")]
        assert messages == [*expected, text_result("done", id=2)]
    assert len(served.transport.session_ids) == SESSIONS
    assert served.reported == []


def test_broadcasts_reach_every_open_get_stream(serve: t.Callable[..., Served]) -> None:
    served = serve()
    clients = [served.client() for _ in range(10)]
    responses = []
    try:
        for client in clients:
            client.initialize()
            responses.append(client.get())
        streams = [read_events(response) for response in responses]
        for events in streams:
            assert next(events).data == ""
        served.server.notify_tools_list_changed()
        for events in streams:
            assert next(events).message == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
    finally:
        for response in responses:
            response.close()


def test_one_client_cannot_block_another_by_not_reading(serve: t.Callable[..., Served]) -> None:
    served = serve()
    slow, fast = served.client(), served.client()
    slow.initialize()
    fast.initialize()
    with slow.get() as stalled:  # opened, never read past the headers
        for _ in range(200):
            served.server.notify_tools_list_changed()
        assert Client.call(fast, tool_call("echo", {"text": "still here"})) == [text_result("echo: still here")]
        assert stalled.status_code == 200
