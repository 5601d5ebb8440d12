"""Attacks on StdioTransport: duplicate ids, floods past max_queue, results JSON cannot carry,
stdout going away while tools write, SIGPIPE, and thread counts across many requests."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import threading
import time
import typing as t


from mcp_sdk import Server
from spec.support.server_helpers import nested_past_the_recursion_limit
from spec.support.stdio_serving import serving_fixture
from spec.support.stdio_peer import FIXTURE_SERVER

TIMEOUT = 10.0


def make_server() -> Server:
    server = Server(name="stdio-hardening")

    @server.define_tool(name="block")
    def block(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        server_context.cancellation.wait(TIMEOUT)
        return "finished"

    @server.define_tool(name="deep")
    def deep(args: dict[str, t.Any]) -> t.Any:
        return {"structuredContent": {"deep": nested_past_the_recursion_limit()}}

    @server.define_tool(name="chatty")
    def chatty(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        for i in range(200):
            server_context.notify_log_message(data={"i": i}, level="error")
        return "done"

    return server


def encode(message: t.Any) -> bytes:
    return json.dumps(message).encode() + b"\n"


def call(request_id: t.Any, name: str) -> bytes:
    return encode({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {"name": name}})


def ping(request_id: t.Any) -> bytes:
    return encode({"jsonrpc": "2.0", "id": request_id, "method": "ping"})


def cancel(request_id: t.Any) -> bytes:
    return encode({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": request_id}})


class Output(io.RawIOBase):
    """A stdout that keeps whole lines and lets a test wait for them; ``broken`` makes writes fail (EPIPE)."""

    def __init__(self) -> None:
        self.data = b""
        self.broken = False
        self._changed = threading.Condition()

    def writable(self) -> bool:
        return True

    def write(self, data: t.Any) -> int:
        if self.broken:
            raise BrokenPipeError(32, "Broken pipe")
        with self._changed:
            self.data += bytes(data)
            self._changed.notify_all()
        return len(data)

    def messages(self) -> list[t.Any]:
        with self._changed:
            return [json.loads(line) for line in self.data.splitlines()]

    def wait_for(self, predicate: t.Callable[[list[t.Any]], bool]) -> list[t.Any]:
        deadline = time.monotonic() + TIMEOUT
        with self._changed:
            while True:
                found = [json.loads(line) for line in self.data.splitlines()]
                if predicate(found):
                    return found
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"timed out; output so far: {found!r}")
                self._changed.wait(remaining)


def by_id(messages: list[t.Any], request_id: t.Any) -> list[t.Any]:
    return [m for m in messages if m.get("id") == request_id and "method" not in m]


serving = serving_fixture(make_server, Output)


def initialize() -> bytes:
    return encode(
        {"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}}}
    ) + encode({"jsonrpc": "2.0", "method": "notifications/initialized"})


def test_a_duplicate_of_a_running_request_is_refused_and_the_first_stays_cancellable(serving):
    running = serving()
    running.write(initialize() + call(1, "block"))
    running.write(call(1, "block") + ping(1) + ping(2))
    out = running.stdout.wait_for(lambda found: bool(by_id(found, 2)))
    assert [m["error"]["code"] for m in by_id(out, 1)] == [-32600, -32600]
    running.write(cancel(1) + ping(3))
    running.stdout.wait_for(lambda found: bool(by_id(found, 3)))
    running.close_input()
    running.join()
    assert [m.get("error", {}).get("code") for m in by_id(running.stdout.messages(), 1)] == [-32600, -32600]


def test_a_duplicate_of_a_queued_request_is_refused(serving):
    running = serving(max_workers=1, max_queue=4)
    running.write(initialize() + call("a", "block") + call("b", "block") + call("b", "block") + ping("p"))
    out = running.stdout.wait_for(lambda found: bool(by_id(found, "p")))
    assert [m["error"]["code"] for m in by_id(out, "b")] == [-32600]
    running.write(cancel("a") + cancel("b") + ping("q"))
    running.stdout.wait_for(lambda found: bool(by_id(found, "q")))
    running.close_input()
    running.join()
    assert by_id(running.stdout.messages(), "a") == []  # cancelled: no response


def test_a_result_nested_past_the_recursion_limit_is_an_error_not_the_end_of_the_connection(serving):
    running = serving()
    running.write(initialize() + call(1, "deep"))
    out = running.stdout.wait_for(lambda found: bool(by_id(found, 1)))
    told = "Tool deep returned structured content that is not JSON (a value JSON cannot carry, or nested too deep)"
    assert by_id(out, 1)[0]["result"] == {"content": [{"type": "text", "text": told}], "isError": True}
    running.write(ping(2))
    running.stdout.wait_for(lambda found: bool(by_id(found, 2)))
    running.close_input()
    running.join()


def test_a_flood_past_max_queue_is_answered_busy_and_nothing_is_lost(serving):
    running = serving(max_workers=1, max_queue=2)
    running.write(initialize() + b"".join(call(i, "block") for i in range(10)))
    out = running.stdout.wait_for(lambda found: sum(1 for m in found if "error" in m) >= 7)
    busy = sorted(m["id"] for m in out if m.get("error", {}).get("message") == "Server busy")
    assert busy == list(range(3, 10))
    running.write(b"".join(cancel(i) for i in range(3)) + ping("after"))
    running.stdout.wait_for(lambda found: bool(by_id(found, "after")))
    running.close_input()
    running.join()
    answered = {m["id"] for m in running.stdout.messages() if "id" in m}
    assert answered == {"init", "after", *range(3, 10)}  # the 3 cancelled get nothing
    assert running.transport.session is not None and running.transport.session.in_flight_count == 0


def test_stdout_breaking_while_tools_write_ends_open_quietly(serving):
    running = serving()
    running.write(initialize() + encode({"jsonrpc": "2.0", "id": "lvl", "method": "logging/setLevel", "params": {"level": "debug"}}))
    running.stdout.wait_for(lambda found: bool(by_id(found, "lvl")))
    running.stdout.broken = True
    running.write(b"".join(call(i, "chatty") for i in range(8)))
    running.join()  # open() returns without the client closing stdin


def test_many_requests_leave_no_threads_or_tracked_ids(serving):
    running = serving(max_workers=4)
    running.write(initialize())
    for batch in range(10):
        running.write(b"".join(ping(f"{batch}-{i}") for i in range(100)) + call(f"b{batch}", "block") + cancel(f"b{batch}"))
    running.write(ping("last"))
    running.stdout.wait_for(lambda found: bool(by_id(found, "last")))
    transport = running.transport
    session = transport.session
    assert session is not None
    deadline = time.monotonic() + TIMEOUT  # the last cancelled tool may still be returning
    while session.in_flight_count and time.monotonic() < deadline:
        time.sleep(0.01)
    assert session.in_flight_count == 0
    running.close_input()
    running.join()
    assert not transport._active and not transport._backlog
    threads = [*transport._threads, transport._watchdog]
    assert all(thread is not None and thread.name.startswith("mcp-stdio-") for thread in threads)
    assert [thread for thread in threads if thread is not None and thread.is_alive()] == []


def test_a_client_that_closes_its_end_of_stdout_gets_a_clean_exit():
    process = subprocess.Popen(
        [sys.executable, str(FIXTURE_SERVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        assert process.stdout is not None and process.stdin is not None
        process.stdout.close()  # SIGPIPE / EPIPE on the server's first write
        try:
            process.stdin.write(initialize() + b"".join(ping(i) for i in range(50)))
            process.stdin.flush()
        except BrokenPipeError:  # the server may already be gone
            pass
        _, stderr = process.communicate(timeout=TIMEOUT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(TIMEOUT)
    assert process.returncode == 0, stderr
    assert b"Traceback" not in stderr
    assert b"exited" in stderr
