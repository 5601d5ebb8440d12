"""``Server(lifespan=fn)`` (issue 22, item 4): startup and shutdown code run once per process
around serving, its value on ``server_context.lifespan``; in process, on a real stdio subprocess
driven by the official Python client in both eras, and under a real gunicorn with two workers
forked from a preloaded app (each worker runs it once)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import textwrap
import threading
import typing as t
from pathlib import Path

import anyio
import pytest
from werkzeug.test import Client as WSGIClient

from mcp_sdk import Server
from mcp_sdk.server.lifespan import Lifespan, LifespanError
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.http_server import ROOT, ServerProcess
from spec.support.modern import serve, tool_call
from spec.support.server_helpers import Recorder, call_tool, initialize
from spec.support.wire_tap import Exchange, assert_valid_exchanges, stdio_exchanges

SCRIPT = str(Path(__file__).resolve().parents[2] / "support" / "lifespan_server.py")
TIMEOUT = 30.0


class Journal:
    """A lifespan factory that records what it did."""

    def __init__(self) -> None:
        self.events: list[str] = []

    @contextlib.contextmanager
    def __call__(self, server: Server) -> t.Iterator[dict[str, t.Any]]:
        self.events.append(f"enter {server.name}")
        yield {"db": f"connection {len(self.events)}"}
        self.events.append("exit")


def lifespan_server(factory: t.Any) -> Server:
    server = Server(name="app", lifespan=factory)

    @server.tool
    def state(server_context: t.Any = None) -> str:
        return json.dumps(server_context.lifespan)

    return server


class TestLifespan:
    def test_entered_by_the_first_holder_and_exited_by_the_last(self) -> None:
        journal = Journal()
        server = lifespan_server(journal)
        first, second = object(), object()
        assert (server.lifespan.running(), server.lifespan.value) == (False, None)
        assert server.lifespan.enter(first) == {"db": "connection 1"}
        assert server.lifespan.enter(second) == {"db": "connection 1"}
        assert server.lifespan.enter(first) == {"db": "connection 1"}  # holding twice is holding
        server.lifespan.leave(first)
        assert (journal.events, server.lifespan.running()) == (["enter app"], True)
        server.lifespan.leave(second)
        server.lifespan.leave(second)
        assert (journal.events, server.lifespan.running(), server.lifespan.value) == (["enter app", "exit"], False, None)
        assert server.lifespan.enter(first) == {"db": "connection 3"}  # a later holder starts it again
        server.lifespan.exit()
        assert journal.events == ["enter app", "exit", "enter app", "exit"]

    def test_a_generator_function_or_any_context_manager_factory(self) -> None:
        def generator(server: Server) -> t.Iterator[str]:
            yield f"{server.name} ready"

        class Manager:
            def __init__(self, server: Server) -> None:
                self.name = server.name

            def __enter__(self) -> str:
                return f"{self.name} managed"

            def __exit__(self, *exc_info: t.Any) -> None:
                pass

        for factory, value in [(generator, "app ready"), (Manager, "app managed")]:
            server = lifespan_server(factory)
            assert server.lifespan.enter(self) == value
            server.lifespan.exit()
        assert Server().lifespan.enter(self) is None  # no lifespan: nothing to run
        with pytest.raises(TypeError, match="context manager"):
            Server(lifespan="not callable")  # type: ignore[arg-type]

    def test_a_failed_startup_holds_nothing_and_the_next_holder_tries_again(self) -> None:
        attempts: list[int] = []

        @contextlib.contextmanager
        def flaky(server: Server) -> t.Iterator[str]:
            attempts.append(1)
            if len(attempts) == 1:
                raise ConnectionError("database down")
            yield "up"

        server = lifespan_server(flaky)
        with pytest.raises(LifespanError, match="database down") as raised:
            server.lifespan.enter(self)
        assert isinstance(raised.value.__cause__, ConnectionError)
        assert server.lifespan.running() is False
        assert server.lifespan.enter(self) == "up"
        server.lifespan.exit()

    def test_a_shutdown_error_goes_to_the_exception_reporter(self) -> None:
        reporter = Recorder()

        def failing(server: Server) -> t.Iterator[None]:
            yield
            raise RuntimeError("flush failed")

        server = Server(lifespan=failing)
        server.configuration.exception_reporter = reporter
        server.lifespan.enter(self)
        server.lifespan.leave(self)
        assert [(str(error), context) for error, context in reporter.calls] == [("flush failed", {"lifespan": "exit"})]

    def test_concurrent_first_holders_wait_for_one_startup(self) -> None:
        started, release = threading.Event(), threading.Event()
        calls: list[int] = []

        @contextlib.contextmanager
        def slow(server: Server) -> t.Iterator[int]:
            calls.append(1)
            started.set()
            assert release.wait(TIMEOUT)
            yield 42

        lifespan = Lifespan(slow, Server())
        values: list[int] = []
        threads = [threading.Thread(target=lambda: values.append(lifespan.enter(threading.current_thread()))) for _ in range(4)]
        threads[0].start()
        assert started.wait(TIMEOUT)
        for thread in threads[1:]:
            thread.start()
        release.set()
        for thread in threads:
            thread.join(TIMEOUT)
        assert (values, calls) == ([42, 42, 42, 42], [1])
        lifespan.exit()

    def test_a_forked_child_starts_its_own_and_leaves_the_parents_alone(self) -> None:
        # In a process of its own: pytest's threads must not be forked along.
        completed = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(FORKING)], cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert completed.returncode == 0, completed.stderr
        lines = [json.loads(line) for line in completed.stdout.splitlines()]
        pid = lines[0]["pid"]
        child = lines[1]["pid"]
        assert lines == [
            {"pid": pid, "entered": {"pid": pid}},
            {"pid": child, "running": False, "value": None, "entered": {"pid": child}},
            {"pid": child, "events": [f"enter {pid}", f"enter {child}", f"exit {child}"]},  # at the child's exit: its own only
            {"pid": pid, "value": {"pid": pid}, "child_exit": 0},
            {"pid": pid, "events": [f"enter {pid}", f"exit {pid}"]},  # at the parent's exit: once
        ], completed.stdout


FORKING = """
    import json, os, sys
    from mcp_sdk import Server

    events = []

    def lifespan(server):
        events.append(f"enter {os.getpid()}")
        yield {"pid": os.getpid()}
        events.append(f"exit {os.getpid()}")
        print(json.dumps({"pid": os.getpid(), "events": events}), flush=True)

    server = Server(lifespan=lifespan)
    print(json.dumps({"pid": os.getpid(), "entered": server.lifespan.enter("parent")}), flush=True)
    child = os.fork()
    if child == 0:
        seen = {"pid": os.getpid(), "running": server.lifespan.running(), "value": server.lifespan.value}
        print(json.dumps({**seen, "entered": server.lifespan.enter("child")}), flush=True)
        sys.exit(0)  # atexit exits the child's lifespan
    _, status = os.waitpid(child, 0)
    print(json.dumps({"pid": os.getpid(), "value": server.lifespan.value, "child_exit": status}), flush=True)
"""


class TestHandlers:
    def test_handlers_read_the_value_in_both_eras(self) -> None:
        server = lifespan_server(Journal())
        initialize(server)
        assert server.handle(call_tool("state"))["result"]["content"] == [{"type": "text", "text": "null"}]  # not started
        server.lifespan.enter(self)
        legacy = server.handle(call_tool("state"))["result"]["content"]
        modern = serve(server, tool_call("state"))["result"]["content"]
        assert legacy == modern == [{"type": "text", "text": '{"db": "connection 1"}'}]
        server.lifespan.exit()

    def test_the_http_transport_enters_at_its_first_request_and_exits_at_close(self) -> None:
        journal = Journal()
        server = lifespan_server(journal)
        transport = StreamableHTTPTransport(server, stateless=True)
        assert journal.events == []  # built: nothing started (it may be forked before it serves)
        http = WSGIClient(transport)
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        for _ in range(2):
            answer = http.post("/mcp", data=json.dumps(call_tool("state")), headers=headers)
            assert '"text":"{\\"db\\": \\"connection 1\\"}"' in answer.get_data(as_text=True)
        assert journal.events == ["enter app"]
        transport.close()
        assert journal.events == ["enter app", "exit"]

    def test_a_failed_startup_answers_the_request_with_an_internal_error(self) -> None:
        reporter = Recorder()

        def broken(server: Server) -> t.Iterator[None]:
            raise ConnectionError("database down")
            yield

        server = Server(lifespan=broken)
        server.configuration.exception_reporter = reporter
        with StreamableHTTPTransport(server, stateless=True) as transport:
            answer = WSGIClient(transport).post(
                "/mcp", data=json.dumps(call_tool("x")), headers={"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
            )
        assert answer.status_code == 500
        (error,) = reporter.errors
        assert isinstance(error, LifespanError) and "database down" in str(error)


def lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_a_stdio_server_runs_it_once_around_its_loop_for_the_official_client(mode: str, tmp_path: Path) -> None:
    from mcp import Client as OfficialClient
    from mcp.client.stdio import StdioServerParameters

    async def main() -> list[str]:
        parameters = StdioServerParameters(command=sys.executable, args=[SCRIPT, "stdio", str(tmp_path)], cwd=str(ROOT))
        async with OfficialClient(parameters, mode=mode, read_timeout_seconds=TIMEOUT) as official:
            answers = [await official.call_tool("state", {}) for _ in range(3)]
            return [answer.content[0].text for answer in answers]  # type: ignore[union-attr]

    texts = anyio.run(main)
    (entered,) = [line for line in lines(tmp_path / "lifespan.log") if line.startswith("enter")]
    pid = int(entered.split()[1])
    assert pid != os.getpid()
    assert texts == [json.dumps({"entries": 1, "pid": pid, "server": "lifespan-demo"}, sort_keys=True)] * 3
    assert lines(tmp_path / "lifespan.log") == [f"enter {pid}", f"exit {pid}"]  # exited when stdin closed
    requests = [json.loads(line) for line in lines(tmp_path / "stdin.jsonl")]
    answers = [json.loads(line) for line in lines(tmp_path / "stdout.jsonl")]
    exchanges = stdio_exchanges(requests, answers)
    assert {exchange.protocol_version for exchange in exchanges if exchange.request["method"] == "tools/call"} == {
        None if mode == "legacy" else "2026-07-28"
    }
    assert assert_valid_exchanges(exchanges) >= 3


def test_gunicorn_workers_forked_from_a_preloaded_app_each_run_it_once(tmp_path: Path) -> None:
    from mcp import Client as OfficialClient

    command = [sys.executable, "-m", "gunicorn", "--preload", "-w", "2", "-k", "sync", "-b", "127.0.0.1:{port}"]
    server = ServerProcess([*command, "spec.support.lifespan_server:app"], env={"LIFESPAN_DIR": str(tmp_path)})
    master = server.process.pid
    seen: dict[str, list[str]] = {}

    def use(mode: str) -> None:
        async def main() -> list[str]:
            async with OfficialClient(server.url, mode=mode, read_timeout_seconds=TIMEOUT) as official:
                # Both calls at once: a sync worker serves one at a time, so each is in its own worker.
                met = await official.call_tool("rendezvous", {"workers": 2})
                later = [await official.call_tool("state", {}) for _ in range(4)]
                return [answer.content[0].text for answer in [met, *later]]  # type: ignore[union-attr]

        seen[mode] = anyio.run(main)

    try:
        callers = [threading.Thread(target=use, args=(mode,)) for mode in ["legacy", "2026-07-28"]]
        for caller in callers:
            caller.start()
        for caller in callers:
            caller.join(TIMEOUT * 2)
    finally:
        server.stop()
    log = lines(tmp_path / "lifespan.log")
    workers = sorted(int(line.split()[1]) for line in log if line.startswith("enter"))
    assert len(workers) == 2 and master not in workers
    assert sorted(log) == sorted([f"enter {pid}" for pid in workers] + [f"exit {pid}" for pid in workers])
    assert all(log.index(f"enter {pid}") < log.index(f"exit {pid}") for pid in workers)
    answers = [json.loads(text) for texts in seen.values() for text in texts]
    assert len(answers) == 10
    assert {answer["pid"] for answer in answers[0:1] + answers[5:6]} == set(workers)  # the two rendezvous met
    assert all(answer == {"entries": 1, "pid": answer["pid"], "server": "lifespan-demo"} for answer in answers)
    assert {answer["pid"] for answer in answers} <= set(workers)
    exchanges = [
        Exchange(**json.loads(line)) for pid in workers for line in lines(tmp_path / f"wire-{pid}.jsonl")
    ]
    assert {exchange.protocol_version for exchange in exchanges} >= {"2025-11-25", "2026-07-28"}
    assert assert_valid_exchanges(exchanges) >= 10
