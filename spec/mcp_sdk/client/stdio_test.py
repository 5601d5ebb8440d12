"""Stdio: a real server subprocess, the bytes on its stdin, and the process's life and death."""

from __future__ import annotations

import json
import logging
import os
import pathlib
import signal
import sys
import threading
import time
import typing as t

import pytest

import mcp_sdk
from mcp_sdk import Client
from mcp_sdk.client import Stdio
from mcp_sdk.client.stdio_environment import default_environment
from spec.support.client_servers import TIMEOUT, fixture_stdio, script_stdio


def read_log(path: pathlib.Path, lines: int) -> list[bytes]:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        data = path.read_bytes() if path.exists() else b""
        if data.count(b"\n") >= lines:
            return data.splitlines(keepends=True)
        time.sleep(0.01)
    raise AssertionError(f"expected {lines} lines in {path}, got {data!r}")


def ignored_signals(pid: int) -> int:
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigIgn:"):
            return int(line.split()[1], 16)
    return 0


def assert_reaped(pid: int) -> None:
    """The child is gone and was waited for: no zombie is left."""
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


class TestWire:
    def test_newline_delimited_compact_json(self, tmp_path: pathlib.Path) -> None:
        log = tmp_path / "stdin.log"
        transport = script_stdio("client_stdio_recorder.py", str(log))
        with Client(transport=transport) as client:
            client.connect(mode="legacy", client_info={"name": "spec", "version": "1"})
            client.ping(meta={"traceparent": "00-ab-cd-01"})
            client.call_tool(name="echo", arguments={"text": "héllo"})
            lines = read_log(log, 4)
        assert lines == [
            b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
            b'"capabilities":{},"clientInfo":{"name":"spec","version":"1"}}}\n',
            b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
            b'{"jsonrpc":"2.0","id":2,"method":"ping","params":{"_meta":{"traceparent":"00-ab-cd-01"}}}\n',
            '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"héllo"}}}\n'.encode(),
        ]

    def test_server_requests_are_answered_on_stdin(self, tmp_path: pathlib.Path) -> None:
        log = tmp_path / "stdin.log"
        transport = script_stdio("client_stdio_recorder.py", str(log))
        with Client(transport=transport) as client:
            client.on_roots(lambda params: [{"uri": "file:///work", "name": "work"}])
            client.connect(mode="legacy")
            said = [
                {"jsonrpc": "2.0", "id": "srv-1", "method": "roots/list"},
                {"jsonrpc": "2.0", "id": "srv-2", "method": "sampling/createMessage", "params": {}},
            ]
            client.request("say", {"messages": said})
            lines = read_log(log, 5)
        answers = sorted((json.loads(line) for line in lines[3:]), key=lambda m: m["id"])
        assert answers == [
            {"jsonrpc": "2.0", "id": "srv-1", "result": {"roots": [{"uri": "file:///work", "name": "work"}]}},
            {"jsonrpc": "2.0", "id": "srv-2", "error": {"code": -32601, "message": "Method not found: sampling/createMessage"}},
        ]

    def test_env_and_cwd(self, tmp_path: pathlib.Path) -> None:
        transport = script_stdio("client_stdio_recorder.py", env={"MCP_SPEC_VALUE": "42"}, cwd=str(tmp_path))
        with Client(transport=transport) as client:
            client.connect(mode="legacy")
            result = client.request("env", {"name": "MCP_SPEC_VALUE"})["result"]
            path = client.request("env", {"name": "PATH"})["result"]["value"]
        assert result == {"value": "42", "cwd": str(tmp_path)}
        assert path == os.environ["PATH"]  # env adds to the inherited variables, it does not replace them

    def test_a_server_inherits_only_the_default_variables(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("HOST_ONLY_SECRET", "s3cret")
        monkeypatch.setenv("SHELL", "() { :; }; echo pwned")  # an exported bash function is not passed on
        with Client(transport=script_stdio("client_stdio_recorder.py", env={"GIVEN": "yes"})) as client:
            client.connect(mode="legacy")
            names = client.request("environ")["result"]["names"]
            secret = client.request("env", {"name": "HOST_ONLY_SECRET"})["result"]["value"]
        # LC_CTYPE: Python sets it itself when it coerces the C locale (PEP 538).
        assert sorted(set(names) - {"LC_CTYPE"}) == sorted({*default_environment(), "GIVEN"})
        assert "SHELL" not in names and secret is None

    def test_inherit_env_passes_every_variable_on(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("HOST_ONLY_SECRET", "s3cret")
        with Client(transport=script_stdio("client_stdio_recorder.py", env={"GIVEN": "yes"}, inherit_env=True)) as client:
            client.connect(mode="legacy")
            names = client.request("environ")["result"]["names"]
            secret = client.request("env", {"name": "HOST_ONLY_SECRET"})["result"]["value"]
        assert set(names) >= {*os.environ, "GIVEN"} and secret == "s3cret"


class TestAgainstTheServer:
    def test_everything_over_stdio(self) -> None:
        transport = fixture_stdio()
        with Client(transport=transport) as client:
            client.on_sampling(lambda p: {"role": "assistant", "content": {"type": "text", "text": "42"}, "model": "m"})
            client.on_elicitation(lambda p: {"action": "accept", "content": {"nickname": "jd"}})
            client.on_roots(lambda p: [{"uri": "file:///a"}])
            progress: list[t.Any] = []
            client.on_progress(progress.append)
            result = client.connect(mode="legacy")
            assert result["serverInfo"]["name"] == "client_fixture"
            assert client.instructions == "Use the echo tool."
            assert len(client.tools()) == 12 and client.list_tools().next_cursor is not None
            assert [r["uri"] for r in client.resources()] == ["fixture://a", "fixture://b", "fixture://c"]

            def text(name: str, **arguments: t.Any) -> str:
                return client.call_tool(name=name, arguments=arguments)["result"]["content"][0]["text"]

            assert text("sample") == "model said: 42"
            assert json.loads(text("elicit")) == {
                "action": "accept",
                "content": {"name": "John Doe", "age": 30, "score": 95.5, "status": "active", "verified": True, "nickname": "jd"},
            }
            assert text("roots") == "file:///a"
            assert text("ping_client") == "{}"
            client.call_tool(name="progress", arguments={"steps": 2}, progress_token="p")
            assert progress == [
                {"progressToken": "p", "progress": 1, "total": 2, "message": "step 1"},
                {"progressToken": "p", "progress": 2, "total": 2, "message": "step 2"},
            ]

    def test_many_threads_share_one_client(self) -> None:
        with Client(transport=fixture_stdio()) as client:
            client.on_sampling(lambda p: {"role": "assistant", "content": {"type": "text", "text": "ok"}, "model": "m"})
            client.connect(mode="legacy")
            results: dict[int, list[str]] = {}

            def work(number: int) -> None:
                results[number] = [
                    client.call_tool(name="echo" if i % 5 else "sample", arguments={"message": f"{number}-{i}"})
                    ["result"]["content"][0]["text"]
                    for i in range(15)
                ]

            threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(TIMEOUT * 3)
            for number in range(6):
                assert results[number] == [
                    "model said: ok" if i % 5 == 0 else f"echo: {number}-{i}" for i in range(15)
                ]

    def test_a_handler_may_itself_call_the_server(self) -> None:
        with Client(transport=fixture_stdio()) as client:

            @client.on_sampling
            def sample(params: dict[str, t.Any]) -> dict[str, t.Any]:
                inner = client.call_tool(name="echo", arguments={"message": "inner"})["result"]["content"][0]["text"]
                return {"role": "assistant", "content": {"type": "text", "text": inner}, "model": "m"}

            client.connect(mode="legacy")
            assert client.call_tool(name="sample")["result"]["content"][0]["text"] == "model said: echo: inner"

    def test_cancellation_reaches_the_server(self) -> None:
        transport = fixture_stdio()
        with Client(transport=transport) as client:
            client.connect(mode="legacy")
            cancellation = mcp_sdk.Cancellation()
            threading.Timer(0.2, cancellation.cancel, kwargs={"reason": "stop it"}).start()
            with pytest.raises(mcp_sdk.CancelledError):
                client.call_tool(name="slow", arguments={"seconds": TIMEOUT}, cancellation=cancellation)
            deadline = time.monotonic() + TIMEOUT
            while "cancelled: stop it" not in transport.stderr_lines and time.monotonic() < deadline:
                time.sleep(0.01)
            assert "cancelled: stop it" in transport.stderr_lines
            assert client.ping() == {}  # the connection is still usable

    def test_read_timeout(self) -> None:
        transport = script_stdio("client_stdio_recorder.py", read_timeout=0.2)
        with Client(transport=transport) as client:
            client.connect(mode="legacy")
            with pytest.raises(mcp_sdk.RequestTimeoutError, match="silence got no response within 0.2 seconds"):
                client.request("silence")
            assert client.ping(timeout=TIMEOUT) == {}


class TestStderr:
    def test_drained_kept_and_logged(self, caplog: pytest.LogCaptureFixture) -> None:
        caplog.set_level(logging.INFO, logger="mcp_sdk.client.stdio")
        transport = fixture_stdio(stderr_lines=50)
        with Client(transport=transport) as client:
            client.connect(mode="legacy")
            # Far more than a pipe buffer holds: a server blocked on stderr would hang here.
            client.call_tool(name="stderr", arguments={"text": "x" * 99, "repeat": 3000})
            client.call_tool(name="stderr", arguments={"text": "last words"})
            deadline = time.monotonic() + TIMEOUT
            while (not transport.stderr_lines or transport.stderr_lines[-1] != "last words") and time.monotonic() < deadline:
                time.sleep(0.01)
        assert transport.stderr_lines[-1] == "last words"
        assert len(transport.stderr_lines) == 50
        assert any(record.getMessage().endswith("last words") for record in caplog.records)


class TestFailures:
    def test_command_not_found(self) -> None:
        transport = Stdio(command="/nonexistent/mcp-server", args=["--flag"])
        with pytest.raises(mcp_sdk.TransportError, match="Failed to start MCP server /nonexistent/mcp-server --flag"):
            Client(transport=transport).connect(mode="legacy")
        transport.close()

    def test_server_dies_mid_call(self) -> None:
        transport = fixture_stdio()
        with Client(transport=transport) as client:
            client.connect(mode="legacy")
            with pytest.raises(mcp_sdk.TransportError) as raised:
                client.call_tool(name="crash")
            message = str(raised.value)
            assert "spec.support.client_fixture_server exited with code 3" in message
            assert "fixture: crashing on purpose" in message
            with pytest.raises(mcp_sdk.TransportError, match="exited with code 3"):
                client.ping()
        assert transport.returncode == 3

    def test_server_exits_at_once(self) -> None:
        transport = Stdio(command=sys.executable, args=["-c", "import sys; print('bad config', file=sys.stderr); sys.exit(2)"])
        with pytest.raises(mcp_sdk.TransportError, match="exited with code 2; its last stderr lines: bad config"):
            Client(transport=transport).connect(mode="legacy")
        transport.close()

    def test_closed_transport_refuses(self) -> None:
        transport = fixture_stdio()
        client = Client(transport=transport)
        client.connect(mode="legacy")
        client.close()
        client.close()  # idempotent
        with pytest.raises(mcp_sdk.TransportError, match="is closed"):
            client.ping()


class TestClose:
    def test_graceful(self) -> None:
        transport = fixture_stdio()
        client = Client(transport=transport)
        client.connect(mode="legacy")
        names = {thread.name for thread in threading.enumerate()}
        assert {"mcp-client-stdio-reader-python", "mcp-client-stdio-writer-python", "mcp-client-stdio-stderr-python"} <= {
            name.replace(os.path.basename(sys.executable), "python") for name in names
        }
        process = transport.process
        assert process is not None
        client.close()
        assert process.returncode == 0
        assert_reaped(process.pid)
        assert not [thread for thread in threading.enumerate() if thread.name.startswith("mcp-client-stdio")]

    def test_terminates_a_server_that_ignores_stdin(self) -> None:
        transport = Stdio(command=sys.executable, args=["-c", "import time; time.sleep(60)"], close_timeout=0.3)
        transport.start()
        process = transport.process
        assert process is not None
        transport.close()
        assert process.returncode == -15  # SIGTERM
        assert_reaped(process.pid)

    def test_kills_a_server_that_ignores_sigterm(self) -> None:
        code = "import signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print('ready', flush=True); time.sleep(60)"
        transport = Stdio(command=sys.executable, args=["-c", code], close_timeout=0.3)
        transport.start()
        deadline = time.monotonic() + TIMEOUT
        process = transport.process
        assert process is not None
        # Wait until SIGTERM is ignored (bit 15 of the mask /proc shows).
        while transport.returncode is None and time.monotonic() < deadline:
            if ignored_signals(process.pid) & (1 << (signal.SIGTERM - 1)):
                break
            time.sleep(0.01)
        transport.close()
        assert process.returncode == -9  # SIGKILL
        assert_reaped(process.pid)

    def test_concurrent_first_use_starts_one_process(self, monkeypatch: pytest.MonkeyPatch) -> None:
        spawned: list[int] = []
        original = Stdio._spawn

        def slow_spawn(self: Stdio) -> t.Any:
            time.sleep(0.1)  # widen the window in which the other threads arrive
            process = original(self)
            spawned.append(process.pid)
            return process

        monkeypatch.setattr(Stdio, "_spawn", slow_spawn)
        transport = fixture_stdio()
        threads = [threading.Thread(target=transport.start) for _ in range(5)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(TIMEOUT)
        assert len(spawned) == 1 and transport.process is not None and transport.process.pid == spawned[0]
        with Client(transport=transport) as client:
            assert client.connect(mode="legacy")["serverInfo"]["name"] == "client_fixture"

    def test_close_before_start_does_nothing(self) -> None:
        transport = Stdio(command="never-started")
        transport.close()
        assert transport.process is None
