"""The Streamable HTTP transport's parts on their own: event store, SSE format, guard, worker pool, WSGI edges."""

from __future__ import annotations

import functools
import os
import socket
import threading
import time
import typing as t

import pytest
from werkzeug.test import Client as WSGIClient

from mcp_sdk import Server
from mcp_sdk.errors import MCPError, TransportError
from mcp_sdk.server.transports import StreamableHTTPTransport
from mcp_sdk.server.transports.streamable_http import EventStore, HTTPRequestError, InMemoryEventStore, RebindingGuard
from mcp_sdk.server.transports.streamable_http.wire.connection import BodyDeadlines
from mcp_sdk.server.transports.streamable_http.sessions.http_session import HTTPSession, SessionRegistry
from mcp_sdk.server.transports.streamable_http.streams.sse import format_event, format_retry
from mcp_sdk.server.transports.streamable_http.capacity.workers import WorkerPool
from spec.support.http_client import ACCEPT_BOTH, initialize_message
from spec.support.waiting import wait_until

# -- event store ---------------------------------------------------------------


def test_in_memory_event_store_replays_what_followed_on_the_same_stream() -> None:
    store = InMemoryEventStore("session")
    ids = [store.store_event("1", None), store.store_event("1", {"n": 1}), store.store_event("0", {"n": 2}), store.store_event("1", {"n": 3})]
    assert ids == ["1-0", "1-1", "0-2", "1-3"]
    sent: list[tuple[str, t.Any]] = []
    assert store.replay_events_after("1-0", lambda event_id, message: sent.append((event_id, message))) == "1"
    assert sent == [("1-1", {"n": 1}), ("1-3", {"n": 3})]
    sent.clear()
    assert store.replay_events_after("1-3", lambda event_id, message: sent.append((event_id, message))) == "1"
    assert sent == []
    for unknown in ("2-0", "1", "1-", "1-x", "1-٣", ""):
        assert store.replay_events_after(unknown, lambda *args: sent.append(args)) is None
    assert sent == []


def test_in_memory_event_store_is_bounded() -> None:
    store = InMemoryEventStore(max_events_per_stream=2, max_streams=2)
    for number in range(4):
        store.store_event("a", {"n": number})
    store.store_event("b", {"n": 9})
    sent: list[t.Any] = []
    store.replay_events_after("a-0", lambda event_id, message: sent.append(event_id))
    assert sent == ["a-2", "a-3"]  # the oldest events were dropped
    store.store_event("c", {})  # a third stream pushes out the least recently written ("a")
    assert store.replay_events_after("a-0", lambda *args: None) is None
    assert store.replay_events_after("b-4", lambda *args: None) == "b"
    store.forget_stream("b")
    assert store.replay_events_after("b-4", lambda *args: None) is None
    store.close()
    assert store.replay_events_after("c-6", lambda *args: None) is None
    with pytest.raises(ValueError):
        InMemoryEventStore(max_events_per_stream=0)


def test_in_memory_event_store_drops_what_aged_on_any_stream_at_the_next_write() -> None:
    store = InMemoryEventStore(max_age=0.2)
    store.store_event("a", {"n": 1})
    store.store_event("a", {"n": 2})
    assert store.replay_events_after("a-0", lambda *args: None) == "a"
    time.sleep(0.3)  # past max_age for both of "a"'s events
    store.store_event("b", {"n": 3})  # a write to another stream trims them
    assert store.size == len('{"n":3}')
    assert store.replay_events_after("a-0", lambda *args: None) is None
    assert store.replay_events_after("b-1", lambda *args: None) == "b"


def test_an_event_given_with_its_json_is_stored_as_by_store_event() -> None:
    store = InMemoryEventStore(max_bytes=20)
    assert store.store_encoded("1", {"n": 1}, '{"n":1}') == "1-0"
    assert store.store_event("1", {"n": 2}) == "1-1"
    assert store.size == 14  # the text's length counts, as the encoding's does
    store.store_encoded("2", {"n": 3}, '{"n":3}')  # past max_bytes: the oldest event goes
    sent: list[tuple[str, t.Any]] = []
    store.replay_events_after("1-0", lambda event_id, message: sent.append((event_id, message)))
    assert sent == [("1-1", {"n": 2})] and store.size == 14


def test_a_subclass_store_event_still_sees_every_event() -> None:
    seen: list[t.Any] = []

    class Logged(InMemoryEventStore):
        def store_event(self, stream_id: str, message: dict[str, t.Any] | None) -> str:
            seen.append(message)
            return super().store_event(stream_id, message)

    store = Logged()
    assert store.store_encoded("1", {"n": 1}, '{"n":1}') == "1-0"
    assert seen == [{"n": 1}] and store.size == 7


def test_event_store_is_an_interface() -> None:
    store = EventStore()
    with pytest.raises(NotImplementedError):
        store.store_event("0", None)
    with pytest.raises(NotImplementedError):  # by default, the same as store_event
        store.store_encoded("0", {"n": 1}, '{"n":1}')
    with pytest.raises(NotImplementedError):
        store.replay_events_after("0-0", lambda *args: None)
    store.forget_stream("0")
    store.close()


def test_a_custom_event_store_is_made_per_session() -> None:
    made: list[str] = []

    def factory(session_id: str) -> EventStore:
        made.append(session_id)
        return InMemoryEventStore(session_id)

    transport = StreamableHTTPTransport(Server(name="s"), event_store=factory)
    client = WSGIClient(transport)
    headers = {"Accept": ACCEPT_BOTH}
    response = client.post("/", json=initialize_message(), headers=headers)
    session_id = response.headers["Mcp-Session-Id"]
    assert made == []  # not before a stream needs it
    threaded = {"wsgi.multithread": True}  # as on a real threaded server (see streamable_http_deployment_test)
    with client.get("/", headers={**headers, "Mcp-Session-Id": session_id}, environ_overrides=threaded) as stream:
        assert next(iter(stream.response)) == b"id: 0-0\nretry: 1000\ndata: \n\n"
    assert made == [session_id]
    transport.close()


# -- SSE format ----------------------------------------------------------------


def test_sse_format() -> None:
    assert format_event('{"a":1}') == b'data: {"a":1}\n\n'
    assert format_event('{"a":1}', "3-4") == b'id: 3-4\ndata: {"a":1}\n\n'
    assert format_event(None, "3-0", 1500) == b"id: 3-0\nretry: 1500\ndata: \n\n"
    assert format_event("one\ntwo") == b"data: one\ndata: two\n\n"
    assert format_event("é") == "data: é\n\n".encode()
    assert format_retry(250) == b"retry: 250\n\n"


# -- DNS rebinding guard -------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "origin", "allowed"),
    [
        (None, None, True),
        ("127.0.0.1:8000", None, True),
        ("localhost", "http://localhost:3000", True),
        ("[::1]:8000", "http://[::1]:5173", True),
        ("127.0.0.1:8000", "http://127.0.0.1:8000", True),
        ("LOCALHOST:1", "HTTP://LOCALHOST:2", True),
        ("evil.example.com", None, False),
        ("evil.example.com:8000", "http://evil.example.com:8000", False),
        ("127.0.0.1.evil.example.com", None, False),
        ("127.0.0.1:8000", "http://evil.example.com", False),
        ("127.0.0.1:8000", "null", False),
        ("127.0.0.1:8000", "file://", False),
        ("127.0.0.1:8000", "http://[bad", False),
    ],
)
def test_default_guard_accepts_loopback_only(host: str | None, origin: str | None, allowed: bool) -> None:
    assert (RebindingGuard().check(host, origin) is None) is allowed


def test_guard_allow_lists() -> None:
    guard = RebindingGuard(allowed_hosts=["mcp.example.com", "api.example.com:8443"], allowed_origins=["https://app.example.com/"])
    assert guard.check("mcp.example.com", "https://app.example.com") is None
    assert guard.check("mcp.example.com:443", "https://mcp.example.com") is None  # same origin, default port
    assert guard.check("api.example.com:8443", None) is None
    assert guard.check("api.example.com:9000", None) == "Forbidden: Host 'api.example.com:9000' is not allowed; name it in StreamableHTTPTransport(allowed_hosts=[...])"
    assert guard.check("mcp.example.com", "http://localhost") == "Forbidden: Origin 'http://localhost' is not allowed; name it in StreamableHTTPTransport(allowed_origins=[...])"
    anything = RebindingGuard(allowed_hosts=["*"], allowed_origins=["*"])
    assert anything.check("evil.example.com", "http://evil.example.com") is None


# -- worker pool ---------------------------------------------------------------


def test_worker_pool_bounds_its_threads_and_queues_the_rest() -> None:
    pool = WorkerPool(max_workers=2, name="spec-pool", idle_timeout=5)
    gate = threading.Event()
    done: list[str] = []
    lock = threading.Lock()

    def job(name: str) -> t.Callable[[], None]:
        def run() -> None:
            with lock:
                started.append(threading.current_thread().name)
            gate.wait(5)
            with lock:
                done.append(threading.current_thread().name)

        return run

    started: list[str] = []
    for number in range(5):
        pool.submit(job(str(number)))
    assert pool.thread_count == 2
    deadline = time.monotonic() + 5
    while len(started) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sorted(started) == ["spec-pool-1", "spec-pool-2"]  # two at once, the rest queued
    gate.set()
    while len(done) < 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(done) == 5 and set(done) <= {"spec-pool-1", "spec-pool-2"}
    pool.close()
    assert pool.thread_count == 0
    with pytest.raises(TransportError):
        pool.submit(lambda: None)


def test_idle_workers_end_and_new_ones_start_on_demand() -> None:
    pool = WorkerPool(max_workers=4, idle_timeout=0.05)
    ran = threading.Event()
    pool.submit(ran.set)
    assert ran.wait(5)
    assert wait_until(lambda: pool.thread_count == 0, 5, 0.01)
    again = threading.Event()
    pool.submit(again.set)
    assert again.wait(5)
    pool.close()


def set_and_wait(event: threading.Event, gate: threading.Event) -> None:
    event.set()
    gate.wait(5)


def test_workers_leave_no_descriptor_behind() -> None:
    # Where workers sleep on an eventfd of their own (Linux), one that ends closes it: on idling out and on close().
    before = len(os.listdir("/proc/self/fd"))
    pool = WorkerPool(max_workers=3, idle_timeout=0.05)
    for _ in range(2):
        gate = threading.Event()
        ran = [threading.Event() for _ in range(3)]
        for event in ran:
            pool.submit(functools.partial(set_and_wait, event, gate))
        assert all(event.wait(5) for event in ran) and pool.thread_count == 3
        gate.set()
        assert wait_until(lambda: pool.thread_count == 0, 5, 0.01)
    handed = threading.Event()
    pool.submit(handed.set)
    assert handed.wait(5)
    pool.close()
    assert pool.thread_count == 0
    assert len(os.listdir("/proc/self/fd")) == before


def test_a_forked_child_runs_its_own_jobs_and_leaves_the_parents_workers_alone() -> None:
    pool = WorkerPool(max_workers=1, idle_timeout=30)
    warmed = threading.Event()
    pool.submit(warmed.set)
    assert warmed.wait(5)
    wait_until(lambda: pool.thread_count == 1, 5, 0.01)
    time.sleep(0.05)  # the worker goes back to sleep, idle
    child = os.fork()
    if child == 0:  # the child: its job runs on a thread of its own
        ran = threading.Event()
        pool.submit(ran.set)
        os._exit(0 if ran.wait(5) else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    again = threading.Event()
    pool.submit(again.set)  # the parent's idle worker was not woken by the child: it takes this one
    assert again.wait(5)
    pool.close()


def descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_forked_child_keeps_no_descriptor_of_the_parents_workers_idle_or_busy() -> None:
    pool = WorkerPool(max_workers=2, idle_timeout=30)
    before = descriptors()
    gate, busy, warmed = threading.Event(), threading.Event(), threading.Event()
    pool.submit(functools.partial(set_and_wait, busy, gate))  # busy at the fork
    assert busy.wait(5)
    pool.submit(warmed.set)  # idle at the fork
    assert warmed.wait(5) and wait_until(lambda: pool.thread_count == 2, 5, 0.01)
    time.sleep(0.05)  # the second worker goes back to sleep, idle
    assert descriptors() == before + 2 or not hasattr(os, "eventfd")  # an eventfd each (Linux)
    child = os.fork()
    if child == 0:  # the child: both workers' eventfds are closed, idle and busy alike
        os._exit(0 if descriptors() == before else 1)
    _, status = os.waitpid(child, 0)
    gate.set()
    pool.close()
    assert os.waitstatus_to_exitcode(status) == 0
    assert descriptors() == before


def test_a_failing_job_does_not_kill_its_worker(caplog: pytest.LogCaptureFixture) -> None:
    pool = WorkerPool(max_workers=1)
    ran = threading.Event()
    pool.submit(lambda: 1 / 0)  # type: ignore[func-returns-value]
    pool.submit(ran.set)
    assert ran.wait(5)
    pool.close()
    assert "MCP HTTP worker job failed" in caplog.text


# -- body deadlines --------------------------------------------------------------


def test_a_read_whose_deadline_comes_sooner_wakes_the_deadline_thread() -> None:
    deadlines = BodyDeadlines(timeout=60.0)
    pairs = [socket.socketpair(), socket.socketpair()]
    try:
        slow = deadlines.watch({"gunicorn.socket": pairs[0][1]})
        time.sleep(0.2)  # the thread starts and goes to sleep until this read's deadline, a minute away
        deadlines.timeout = 0.1
        soon = deadlines.watch({"gunicorn.socket": pairs[1][1]})
        pairs[1][1].settimeout(10)  # a failure here raises instead of hanging for the first read's minute
        assert pairs[1][1].recv(1) == b""  # its reading side was shut at its deadline
        assert deadlines.done(soon) and not deadlines.done(slow)
    finally:
        for pair in pairs:
            for end in pair:
                end.close()
        deadlines.close()


# -- transport construction and WSGI edges ---------------------------------------


def test_invalid_options_are_refused() -> None:
    server = Server(name="s")
    for options in [
        {"session_idle_timeout": 0},
        {"unused_session_timeout": -1},
        {"wsgi_threads": 0},
        {"max_streams": 0},
        {"max_streams_per_session": True},
        {"max_requests_per_session": 0},
        {"body_timeout": 0},
        {"max_body_bytes": 0},
        {"max_body_bytes": True},
        {"max_sessions": 0},
        {"keepalive_interval": 0},
    ]:
        with pytest.raises(ValueError):
            StreamableHTTPTransport(server, **options)  # type: ignore[arg-type]


def test_refusals_are_mcp_errors() -> None:
    error = HTTPRequestError(409, "Conflict")
    assert isinstance(error, TransportError) and isinstance(error, MCPError)
    response = error.response()
    assert (response.status_code, response.get_json()) == (409, {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Conflict"}})


def test_a_bug_in_the_transport_is_a_500_reported_to_the_server() -> None:
    reported: list[tuple[BaseException, t.Any]] = []
    from mcp_sdk import Configuration

    server = Server(name="s", configuration=Configuration(exception_reporter=lambda error, context: reported.append((error, context))))
    transport = StreamableHTTPTransport(server)
    transport._post = lambda *args: 1 / 0  # type: ignore[assignment, method-assign]
    response = WSGIClient(transport).post("/mcp", json={}, headers={"Accept": ACCEPT_BOTH})
    assert (response.status_code, response.get_json()) == (
        500,
        {"jsonrpc": "2.0", "id": None, "error": {"code": -32603, "message": "Internal error"}},
    )
    assert [(type(error), context) for error, context in reported] == [(ZeroDivisionError, {"http_request": "POST /mcp"})]
    transport.close()


def test_a_chunked_body_without_length_is_read_up_to_the_limit() -> None:
    transport = StreamableHTTPTransport(Server(name="s"), max_body_bytes=64)
    client = WSGIClient(transport)
    body = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}'
    environ = {"wsgi.input_terminated": True, "HTTP_TRANSFER_ENCODING": "chunked"}
    response = client.post("/", data=body, content_type="application/json", headers={"Accept": ACCEPT_BOTH}, environ_overrides=environ)
    assert response.status_code == 413
    transport.close()


def test_the_transport_is_a_context_manager() -> None:
    with StreamableHTTPTransport(Server(name="s")) as transport:
        response = WSGIClient(transport).post("/", json=initialize_message(), headers={"Accept": ACCEPT_BOTH})
        assert response.status_code == 200
        assert transport.session_ids == [response.headers["Mcp-Session-Id"]]
    assert transport.session_ids == []
    assert transport.close_sse_stream("nope", 1) is False
    assert transport.close_standalone_sse_stream("nope") is False


def test_a_session_keeps_only_the_last_few_finished_streams() -> None:
    from mcp_sdk.server.transports.streamable_http.sessions.http_session import RETAINED_STREAMS

    session = HTTPSession(Server(name="s"), "session-id", InMemoryEventStore)
    for number in range(20):  # answers nobody came back for
        stream = session.open_request_stream([number])
        session.finish_request_stream(stream, {"jsonrpc": "2.0", "id": number, "result": {}}, "{}")
    kept = [str(number) for number in range(21 - RETAINED_STREAMS, 21)]
    assert [stream_id for stream_id in kept if session.find_stream(stream_id)] == kept
    assert session.find_stream("1") is None
    assert session.store.replay_events_after("1-0", lambda *args: None) is None  # its events are gone too
    replayed: list[str] = []
    assert session.store.replay_events_after("20-0", lambda event_id, message: replayed.append(event_id)) == "20"
    assert replayed == ["20-19"]  # event numbers count across the session's streams
    session.close()


def test_a_session_a_request_just_took_is_not_reaped_under_it(monkeypatch: pytest.MonkeyPatch) -> None:
    registry = SessionRegistry()  # no reaper thread: the test reaps by hand
    registry.idle_timeout = 0.05
    try:
        session = HTTPSession(Server(name="s"), "session-id", InMemoryEventStore)
        registry.add(session)
        real_idle_for = session.idle_for
        checks: list[float] = []

        def idle_then_a_request_arrives(now: float) -> float:
            checks.append(now)
            if len(checks) == 1:  # the reaper's first look: idle for long...
                session.last_active = time.monotonic()  # ...and right then a request marks it active
                return 1.0
            return real_idle_for(now)

        monkeypatch.setattr(session, "idle_for", idle_then_a_request_arrives)
        session.last_active -= 1.0  # idle past the timeout: expired() looks at idle_for
        assert registry.reap() == 0
        assert not session.closed and registry.get("session-id") is session
        session.last_active -= 1.0
        assert registry.reap() == 1 and session.closed
    finally:
        registry.close()
