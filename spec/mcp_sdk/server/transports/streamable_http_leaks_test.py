"""Smaller leaks of the HTTP transport under a hostile client (issue 13, findings 3, 10, 11, 12).

Real werkzeug servers on 127.0.0.1 (:mod:`spec.support.http_fixtures`) and the
parts themselves; every wait is bounded.
"""

from __future__ import annotations

import threading
import time
import typing as t

import pytest
import requests

from mcp_sdk import Server
from mcp_sdk.server.transports import StreamableHTTPTransport
from mcp_sdk.server.transports.streamable_http.sessions import http_session
from mcp_sdk.server.transports.streamable_http.streams.event_store import DEFAULT_MAX_BYTES, InMemoryEventStore
from mcp_sdk.server.transports.streamable_http.streams.sse import MAX_QUEUED_BYTES
from mcp_sdk.server.transports.streamable_http.capacity.workers import WorkerPool
from spec.support.http_app import WAIT
from spec.support.http_client import Client, Event, initialize_message, read_events, text_result, tool_call
from spec.support.http_fixtures import Served, serve  # noqa: F401  (a fixture)
from spec.support.http_server import LiveServer

from .streamable_http_hardening_test import wait_until
from .streamable_http_transport_test import progress

EVENT_TEXT = "x" * 50_000


# -- 3. sessions ---------------------------------------------------------------------


def test_sessions_expire_by_default() -> None:
    with StreamableHTTPTransport(Server(name="s")) as transport:
        assert transport.session_idle_timeout == 30 * 60
        assert transport._sessions is not None and transport._sessions.unused_timeout == 30


def test_a_full_registry_makes_room_by_closing_a_session_idle_long_enough(
    serve: t.Callable[..., Served], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(http_session, "EVICTABLE_AFTER", 0.5)
    served = serve(max_sessions=3)
    streaming, oldest, newest, newcomer = (served.client() for _ in range(4))
    for client in (streaming, oldest, newest):
        client.initialize()
    with streaming.get() as stream:
        assert stream.status_code == 200
        with newcomer.post(initialize_message(), stream=False) as refused:  # everyone was active just now
            assert (refused.status_code, refused.headers["Retry-After"]) == (503, "60")
        time.sleep(0.6)
        newcomer.initialize()  # the least recently used idle session made room
        with oldest.post(tool_call("echo", {"text": "?"}), stream=False) as gone:
            assert gone.status_code == 404
        for client in (streaming, newest):  # an open stream is never closed to make room
            assert client.call(tool_call("echo", {"text": "on"})) == [text_result("echo: on")]


# -- 4. the worker pool takes sessions in turn -----------------------------------------


def test_the_worker_pool_takes_owners_in_turn() -> None:
    pool = WorkerPool(max_workers=1, name="spec-fair")
    gate = threading.Event()
    order: list[str] = []
    running = threading.Event()
    pool.submit(lambda: (running.set(), gate.wait(WAIT)) and None, owner="busy")  # occupies the only thread
    assert running.wait(WAIT)
    for number in range(5):
        pool.submit(lambda number=number: order.append(f"busy-{number}"), owner="busy")  # type: ignore[misc]
    pool.submit(lambda: order.append("other"), owner="other")
    gate.set()
    assert wait_until(lambda: len(order) == 6)
    pool.close()
    assert order[:2] == ["busy-0", "other"]  # not behind the whole queue of "busy"


# -- 10. a connection that is not read -------------------------------------------------


def flooding_server() -> Server:
    server = Server(name="flood")

    @server.define_tool(name="flood", input_schema={"properties": {"count": {"type": "integer"}}})
    def flood(args: dict[str, t.Any], server_context: t.Any = None) -> str:
        for step in range(args["count"]):
            server_context.report_progress(step, message=EVENT_TEXT)
        return "flooded"

    return server


def test_a_connection_that_is_not_read_queues_bounded_bytes_and_the_rest_is_resumable() -> None:
    transport = StreamableHTTPTransport(flooding_server(), wsgi_threads=32)
    with LiveServer(transport, closeables=[transport]) as live, requests.Session() as http:
        client = Client(live.url, http)
        client.initialize()
        session = transport._sessions.get(client.session_id)  # type: ignore[union-attr, arg-type]
        assert session is not None
        count = 400  # 20 MB of events
        with client.post(tool_call("flood", {"count": count}, progress_token="f")) as unread:
            assert unread.status_code == 200  # then not a byte read
            assert wait_until(lambda: session.running_requests == 0, timeout=30)
            stream = session.find_stream("1")
            assert stream is not None and not stream.attached  # the connection was let go
            assert stream._queued_bytes <= MAX_QUEUED_BYTES
            assert t.cast(InMemoryEventStore, session.store).size <= DEFAULT_MAX_BYTES
            with client.get(client.headers(Accept="text/event-stream", **{"Last-Event-ID": "1-0"})) as resumed:
                events = list(read_events(resumed))
        assert events[-1] == Event(id=f"1-{count + 1}", data=events[-1].data)
        assert events[-1].message == text_result("flooded")
        newest = [event.message["params"]["progress"] for event in events[:-1]]
        assert newest == list(range(count - len(newest), count)) and 40 <= len(newest) < 90  # the newest 4 MB


# -- 11. event retention ------------------------------------------------------------------


def test_the_event_store_is_bounded_in_bytes_and_in_time() -> None:
    store = InMemoryEventStore(max_bytes=200_000, max_age=0.3)
    for number in range(50):
        store.store_event("0", {"jsonrpc": "2.0", "method": "m", "params": {"n": number, "text": EVENT_TEXT}})
    assert store.size <= 200_000
    replayed: list[str] = []
    assert store.replay_events_after("0-0", lambda event_id, message: replayed.append(event_id)) == "0"
    assert replayed == ["0-47", "0-48", "0-49"]  # the newest that fit (about 50 KB each)
    time.sleep(0.4)
    replayed.clear()
    store.replay_events_after("0-0", lambda event_id, message: replayed.append(event_id))
    assert (replayed, store.size) == ([], 0)


def test_a_get_stream_keeps_a_bounded_number_of_bytes_of_broadcasts(serve: t.Callable[..., Served]) -> None:
    served = serve(event_store=lambda session_id: InMemoryEventStore(session_id, max_bytes=100_000))
    client = served.client()
    client.initialize()
    with client.get() as stream:
        assert next(read_events(stream)).data == ""
    session = served.transport._sessions.get(client.session_id)  # type: ignore[union-attr, arg-type]
    assert session is not None
    for _ in range(300):
        served.server.notify_tools_list_changed()
    assert 0 < t.cast(InMemoryEventStore, session.store).size <= 100_000


def test_events_past_their_age_are_dropped_while_the_session_lives_on(serve: t.Callable[..., Served]) -> None:
    served = serve(session_idle_timeout=0.8, event_store=lambda session_id: InMemoryEventStore(session_id, max_age=0.3))
    client = served.client()
    client.initialize()
    with client.get() as stream:
        events = read_events(stream)
        assert next(events).data == ""
        for _ in range(10):
            served.server.notify_tools_list_changed()
        assert [next(events).message["method"] for _ in range(10)] == ["notifications/tools/list_changed"] * 10
        session = served.transport._sessions.get(client.session_id)  # type: ignore[union-attr, arg-type]
        assert session is not None
        store = t.cast(InMemoryEventStore, session.store)
        assert store.size > 0
        assert wait_until(lambda: store.size == 0)  # the reaper expires them, no new event needed
        assert client.session_id in served.transport.session_ids  # the stream kept the session


# -- 12. streams stay with their connection --------------------------------------------------


def test_a_refused_duplicate_request_id_leaves_the_original_its_events(serve: t.Callable[..., Served]) -> None:
    served = serve()
    client = served.client()
    client.initialize()
    with client.post(tool_call("wait", id=1, progress_token="w")) as original:
        events = read_events(original)
        assert next(events) == Event(id="1-0", data="", retry=1000)
        assert served.probe.started.wait(WAIT)
        with client.post(tool_call("progress", id=1, progress_token="d")) as duplicate:
            refused = [event.message for event in read_events(duplicate) if event.data]
        assert len(refused) == 1 and refused[0]["id"] == 1 and "error" in refused[0]
        served.probe.release.set()
        assert [event.message for event in events] == [progress("w", 1, 1), text_result("released")]
