"""StdioTransport through real pipes to a server subprocess (spec/support/stdio_fixture_server.py)."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import typing as t

import pytest

from spec.support.stdio_peer import FIXTURE_SERVER, TIMEOUT, StdioPeer
from spec.support.wire_schema import assert_valid_notification, assert_valid_response

EXAMPLE = pathlib.Path(__file__).parents[4] / "examples" / "stdio_server.py"
VERSION = "2025-11-25"


@pytest.fixture
def spawn() -> t.Iterator[t.Callable[..., StdioPeer]]:
    """Start fixture servers; at the end kill them and check stdout held only JSON lines."""
    peers: list[StdioPeer] = []

    def start(**options: t.Any) -> StdioPeer:
        peer = StdioPeer.fixture(**options)
        peers.append(peer)
        return peer

    yield start
    for peer in peers:
        peer.kill()
        assert_only_json_lines(peer)


def assert_only_json_lines(peer: StdioPeer) -> None:
    for line in peer.stdout_lines:
        assert line.endswith(b"\n"), line
        assert isinstance(json.loads(line), dict), line


def call(request_id: t.Any, name: str, arguments: dict[str, t.Any] | None = None, **meta: t.Any) -> dict[str, t.Any]:
    params: dict[str, t.Any] = {"name": name, "arguments": arguments or {}}
    if meta:
        params["_meta"] = meta
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def text_result(request_id: t.Any, text: str) -> dict[str, t.Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": {"content": [{"type": "text", "text": text}], "isError": False}}


def cancel(request_id: t.Any, reason: str | None = None) -> dict[str, t.Any]:
    params: dict[str, t.Any] = {"requestId": request_id}
    if reason is not None:
        params["reason"] = reason
    return {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params}


def start_slow(peer: StdioPeer, request_id: t.Any, tool: str = "slow", seconds: float = 30) -> None:
    """Call a slow tool and wait until it is running (its progress 0 notification)."""
    peer.send(call(request_id, tool, {"seconds": seconds}, progressToken=f"p-{request_id}"))
    assert peer.recv() == {
        "jsonrpc": "2.0",
        "method": "notifications/progress",
        "params": {"progressToken": f"p-{request_id}", "progress": 0},
    }


def null_error(code: int, message: str) -> dict[str, t.Any]:
    """An error answer to a message whose id could not be read."""
    return {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}


def ids_in(messages: list[t.Any]) -> list[t.Any]:
    return [m.get("id") for m in messages if isinstance(m, dict) and "method" not in m]


FIXTURE_TOOLS = [
    {
        "name": "echo",
        "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]},
    },
    {
        "name": "slow",
        "description": "Waits (cooperatively) until cancelled or ``seconds`` pass; reports progress 0 when it starts.",
        "inputSchema": {"type": "object", "properties": {"seconds": {"type": "number"}}},
    },
    {
        "name": "stubborn",
        "description": "Sleeps, ignoring cancellation.",
        "inputSchema": {"type": "object", "properties": {"seconds": {"type": "number"}}},
    },
    {"name": "observed_cancellations", "inputSchema": {"type": "object"}},
    {"name": "roots", "inputSchema": {"type": "object"}},
    {"name": "sample", "inputSchema": {"type": "object", "properties": {"prompt": {"type": "string"}}}},
    {"name": "progress", "inputSchema": {"type": "object", "properties": {"steps": {"type": "integer"}}}},
    {"name": "log", "inputSchema": {"type": "object"}},
    {"name": "chatty", "inputSchema": {"type": "object"}},
    {"name": "unserializable", "inputSchema": {"type": "object"}},
    {"name": "surrogate", "inputSchema": {"type": "object"}},
]


class TestConversation:
    def test_initialize_tools_list_and_call(self, spawn: t.Callable[..., StdioPeer]) -> None:
        peer = spawn()
        initialized = peer.initialize()
        assert initialized == {
            "jsonrpc": "2.0",
            "id": 0,
            "result": {
                "protocolVersion": VERSION,
                "capabilities": {"tools": {"listChanged": True}, "logging": {}},
                "serverInfo": {"name": "stdio_fixture", "version": "1.0.0"},
            },
        }
        assert_valid_response("initialize", initialized, VERSION)

        listed = peer.request(1, "tools/list")
        assert listed == {"jsonrpc": "2.0", "id": 1, "result": {"tools": FIXTURE_TOOLS}}
        assert_valid_response("tools/list", listed, VERSION)

        peer.send(call(2, "echo", {"message": "hi"}))
        called = peer.recv()
        assert called == text_result(2, "echo: hi")
        assert_valid_response("tools/call", called, VERSION)

        assert peer.finish() == []
        assert peer.process.returncode == 0

    def test_a_session_typed_by_hand_needs_no_initialize(self, spawn: t.Callable[..., StdioPeer]) -> None:
        peer = spawn()
        peer.send_raw(b'{"jsonrpc":"2.0","id":"1","method":"ping"}\n')
        assert peer.recv() == {"jsonrpc": "2.0", "id": "1", "result": {}}
        peer.send_raw(b'{"jsonrpc":"2.0","id":"2","method":"tools/list"}\r\n')
        assert peer.recv() == {"jsonrpc": "2.0", "id": "2", "result": {"tools": FIXTURE_TOOLS}}
        peer.send_raw(
            b'  {"jsonrpc":"2.0","id":"3","method":"tools/call","params":{"name":"echo","arguments":{"message":"Hello"}}}  \n'
        )
        assert peer.recv() == text_result("3", "echo: Hello")

    @pytest.mark.parametrize("request_id", [0, "0", -1, 2**53 + 1, "", "ü-✓"])
    def test_ids_come_back_with_their_type(self, spawn: t.Callable[..., StdioPeer], request_id: t.Any) -> None:
        peer = spawn()
        assert peer.request(request_id, "ping") == {"jsonrpc": "2.0", "id": request_id, "result": {}}
        peer.send(call(request_id, "echo", {"message": "x"}))
        assert peer.recv() == text_result(request_id, "echo: x")

    def test_last_line_without_newline_is_answered_at_eof(self, spawn: t.Callable[..., StdioPeer]) -> None:
        peer = spawn()
        peer.send_raw(json.dumps(call(1, "echo", {"message": "end"})).encode())
        assert peer.finish() == [text_result(1, "echo: end")]
        assert peer.process.returncode == 0


class TestBadInput:
    def test_each_bad_line_is_answered_and_the_loop_goes_on(self, spawn: t.Callable[..., StdioPeer]) -> None:
        peer = spawn(max_line_bytes=200)
        too_long = json.dumps(call(9, "echo", {"message": "x" * 300})).encode()
        peer.send_raw(
            b"this is not json\n"
            b"\n"
            b"   \t \r\n"
            b"42\n"
            b'"a string"\n'
            b'{"id": 3}\n'
            b'{"jsonrpc":"2.0","id":4,"method":"ping","params":{"text":"\xff\xfe"}}\n'
            b'{"jsonrpc": "1.0", "id": 5, "method": "ping"}\n'
            b'{"jsonrpc":"2.0","id":true,"method":"ping"}\n' + too_long + b"\n"
            b'{"jsonrpc":"2.0","id":6,"method":"ping"}\n'
        )
        expected = [
            null_error(-32700, "Parse error: Expecting value: line 1 column 1 (char 0)"),
            null_error(-32600, "Invalid Request: expected a JSON object"),
            null_error(-32600, "Invalid Request: expected a JSON object"),
            {"jsonrpc": "2.0", "id": 3, "error": {"code": -32600, "message": "Invalid Request"}},
            null_error(-32700, "Parse error: invalid UTF-8 at byte 58"),
            {"jsonrpc": "2.0", "id": 5, "error": {"code": -32600, "message": 'Invalid Request: jsonrpc must be "2.0"'}},
            null_error(-32600, "Invalid Request: id must be a string or an integer"),
            null_error(-32600, "Invalid Request: message longer than 200 bytes"),
            {"jsonrpc": "2.0", "id": 6, "result": {}},
        ]
        for response in expected:
            received = peer.recv()
            assert received == response
            if received["id"] is not None:  # JSON-RPC's null id (unknown request) is outside MCP's schema
                assert_valid_response("ping", received, VERSION)
        assert peer.request(7, "ping") == {"jsonrpc": "2.0", "id": 7, "result": {}}

    def test_json_nested_too_deeply_is_a_parse_error(self, spawn: t.Callable[..., StdioPeer]) -> None:
        peer = spawn()
        peer.send_raw(b"[" * 50_000 + b"]" * 50_000 + b"\n")
        assert peer.recv() == {
            "jsonrpc": "2.0",
            "id": None,
            "error": {"code": -32700, "message": "Parse error: JSON nested too deeply"},
        }
        assert peer.request(1, "ping") == {"jsonrpc": "2.0", "id": 1, "result": {}}

    def test_an_over_long_line_split_across_reads_is_skipped_to_its_newline(
        self, spawn: t.Callable[..., StdioPeer]
    ) -> None:
        peer = spawn(max_line_bytes=1000)
        peer.send_raw(b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + b"y" * 600)
        peer.send_raw(b"y" * 600)
        peer.send_raw(b'"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n')
        assert peer.recv() == {
            "jsonrpc": "2.0",
            "id": None,
            "error": {"code": -32600, "message": "Invalid Request: message longer than 1000 bytes"},
        }
        assert peer.recv() == {"jsonrpc": "2.0", "id": 2, "result": {}}

    def test_a_result_json_cannot_hold_becomes_a_tool_error(self, spawn: t.Callable[..., StdioPeer]) -> None:
        peer = spawn()
        peer.send(call(1, "unserializable"))
        response = peer.recv()
        told = "Tool unserializable returned structured content that is not JSON (a value JSON cannot carry, or nested too deep)"
        assert response == {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": told}], "isError": True}}
        assert_valid_response("tools/call", response, VERSION)
        assert peer.request(2, "ping") == {"jsonrpc": "2.0", "id": 2, "result": {}}

    def test_print_in_a_tool_goes_to_stderr_not_the_protocol(self, spawn: t.Callable[..., StdioPeer]) -> None:
        peer = spawn()
        peer.send(call(1, "chatty"))
        assert peer.recv() == {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "said it"}], "isError": False}}
        assert peer.request(2, "ping") == {"jsonrpc": "2.0", "id": 2, "result": {}}
        peer.wait_stderr("debugging output from a tool")
        peer.wait_stderr("written to sys.stdout")

    def test_a_lone_surrogate_is_written_escaped(self, spawn: t.Callable[..., StdioPeer]) -> None:
        peer = spawn()
        peer.send(call(1, "surrogate"))
        assert peer.recv() == text_result(1, "lone \ud800 surrogate")
        assert b"\\ud800" in peer.stdout_lines[-1]


class TestConcurrency:
    def test_a_slow_tool_does_not_block_ping_or_other_tools(self, spawn: t.Callable[..., StdioPeer]) -> None:
        peer = spawn()
        start_slow(peer, "slow-1")
        assert peer.request(1, "ping") == {"jsonrpc": "2.0", "id": 1, "result": {}}
        peer.send(call(2, "echo", {"message": "meanwhile"}))
        assert peer.recv() == text_result(2, "echo: meanwhile")
        peer.send(cancel("slow-1"))
        peer.wait_stderr("cancelled slow-1")

    def test_cancelling_a_running_tool_suppresses_its_response(self, spawn: t.Callable[..., StdioPeer]) -> None:
        peer = spawn()
        start_slow(peer, 5)
        peer.send(cancel(5, "user abort"))
        peer.wait_stderr("cancelled 5")
        peer.send(call(6, "observed_cancellations"))
        response = peer.recv()
        assert response["result"]["structuredContent"] == {"ids": [5]}
        rest = peer.finish()
        assert 5 not in ids_in(rest)
        assert peer.process.returncode == 0

    def test_cancelling_a_queued_request_means_it_never_runs(self, spawn: t.Callable[..., StdioPeer]) -> None:
        peer = spawn(max_workers=1, max_queue=4)
        start_slow(peer, "first")
        peer.send(call("second", "slow", {"seconds": 30}, progressToken="p-second"))
        peer.send(cancel("second"))
        peer.send(cancel("first"))
        peer.wait_stderr("cancelled first")
        peer.send(call(3, "echo", {"message": "after"}))
        assert peer.recv() == text_result(3, "echo: after")
        rest = peer.finish()
        assert rest == []
        assert "started second" not in peer.stderr_lines

    def test_a_request_no_worker_can_take_is_refused(self, spawn: t.Callable[..., StdioPeer]) -> None:
        peer = spawn(max_workers=1, max_queue=1)
        start_slow(peer, "a")
        peer.send(call("b", "slow", {"seconds": 30}))
        peer.send(call("c", "echo", {"message": "no room"}))
        busy = peer.recv()
        assert busy == {"jsonrpc": "2.0", "id": "c", "error": {"code": -32603, "message": "Server busy"}}
        assert_valid_response("tools/call", busy, VERSION)
        assert peer.request(1, "ping") == {"jsonrpc": "2.0", "id": 1, "result": {}}
        peer.send(cancel("a"))
        peer.wait_stderr("cancelled a")
        peer.wait_stderr("started b")
        peer.send(cancel("b"))
        peer.wait_stderr("cancelled b")


    def test_every_request_of_a_mixed_pipelined_load_is_answered_once(
        self, spawn: t.Callable[..., StdioPeer]
    ) -> None:
        peer = spawn(max_workers=2, max_queue=4)
        kinds = ["echo", "ping", "stubborn", "slow", "cancel"]
        cancelled = set()
        data = b""
        for number in range(300):
            kind = kinds[(number * 7) % len(kinds)]
            if kind == "echo":
                message: dict[str, t.Any] = call(number, "echo", {"message": str(number)})
            elif kind == "ping":
                message = {"jsonrpc": "2.0", "id": number, "method": "ping"}
            elif kind == "cancel":
                cancelled.add(number - 1)
                message = cancel(number - 1)
            else:
                message = call(number, kind, {"seconds": 0.05})
            data += json.dumps(message).encode() + b"\n"
        peer.send_raw(data)  # one write: the server sees many lines per read
        expected = {n for n in range(300) if (n * 7) % len(kinds) != kinds.index("cancel")}
        answered: list[t.Any] = []
        while not expected - cancelled <= set(answered):
            message = peer.recv()
            if "method" not in message:
                answered.append(message["id"])
        answered += ids_in(peer.finish())
        assert sorted(answered) == sorted(set(answered))  # none twice
        assert set(answered) <= expected
        busy = [line for line in peer.stdout_lines if b"Server busy" in line]
        assert busy, "max_workers=2, max_queue=4 should have refused some requests"


class TestServerToClientRequests:
    def test_roots_list_is_answered_by_the_client(self, spawn: t.Callable[..., StdioPeer]) -> None:
        peer = spawn()
        peer.initialize({"roots": {"listChanged": True}})
        peer.send(call(3, "roots"))
        assert peer.recv() == {"jsonrpc": "2.0", "id": 1, "method": "roots/list"}
        peer.send({"jsonrpc": "2.0", "id": 1, "result": {"roots": [{"uri": "file:///work", "name": "work"}]}})
        response = peer.recv()
        assert response == text_result(3, "file:///work")
        assert_valid_response("tools/call", response, VERSION)

    def test_sampling_is_answered_by_the_client(self, spawn: t.Callable[..., StdioPeer]) -> None:
        peer = spawn()
        peer.initialize({"sampling": {}})
        peer.send(call(4, "sample", {"prompt": "Say hi"}))
        assert peer.recv() == {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "sampling/createMessage",
            "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "Say hi"}}], "maxTokens": 50},
        }
        # A ping from the client still gets through while the tool waits.
        assert peer.request(5, "ping") == {"jsonrpc": "2.0", "id": 5, "result": {}}
        peer.send(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "result": {"role": "assistant", "content": {"type": "text", "text": "hi!"}, "model": "m"},
            }
        )
        assert peer.recv() == text_result(4, "model said: hi!")

    def test_cancelling_the_parent_cancels_the_nested_request(self, spawn: t.Callable[..., StdioPeer]) -> None:
        peer = spawn()
        peer.initialize({"sampling": {}})
        peer.send(call(9, "sample"))
        nested = peer.recv()
        assert nested["method"] == "sampling/createMessage"
        peer.send(cancel(9, "user abort"))
        notification = peer.recv()
        assert notification == {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": nested["id"], "reason": "user abort"},
        }
        assert_valid_notification(notification, "CancelledNotification", VERSION)
        peer.wait_stderr("cancelled 9")
        # A late answer to the cancelled request is ignored.
        peer.send({"jsonrpc": "2.0", "id": nested["id"], "result": {"role": "assistant", "content": {"type": "text", "text": "late"}, "model": "m"}})
        assert peer.request(10, "ping") == {"jsonrpc": "2.0", "id": 10, "result": {}}
        assert 9 not in ids_in(peer.finish())


class TestNotifications:
    def test_progress_notifications(self, spawn: t.Callable[..., StdioPeer]) -> None:
        peer = spawn()
        peer.initialize()
        peer.send(call(2, "progress", {"steps": 2}, progressToken="tok"))
        for step in (1, 2):
            notification = peer.recv()
            assert notification == {
                "jsonrpc": "2.0",
                "method": "notifications/progress",
                "params": {"progressToken": "tok", "progress": step, "total": 2, "message": f"step {step}"},
            }
            assert_valid_notification(notification, "ProgressNotification", VERSION)
        assert peer.recv() == text_result(2, "finished")

    def test_log_messages_after_set_level(self, spawn: t.Callable[..., StdioPeer]) -> None:
        peer = spawn()
        peer.initialize()
        peer.send(call(1, "log"))
        assert peer.recv() == text_result(1, "logged")  # no level set: nothing sent
        assert peer.request(2, "logging/setLevel", {"level": "info"}) == {"jsonrpc": "2.0", "id": 2, "result": {}}
        peer.send(call(3, "log"))
        notification = peer.recv()
        assert notification == {
            "jsonrpc": "2.0",
            "method": "notifications/message",
            "params": {"level": "info", "logger": "fixture", "data": {"said": "hello"}},
        }
        assert_valid_notification(notification, "LoggingMessageNotification", VERSION)
        assert peer.recv() == text_result(3, "logged")


class TestShutdown:
    def test_eof_exits_promptly_while_a_tool_runs(self, spawn: t.Callable[..., StdioPeer]) -> None:
        peer = spawn()
        start_slow(peer, 1)
        assert peer.finish() == []
        assert peer.process.returncode == 0
        assert "cancelled 1" in peer.stderr_lines
        assert peer.stderr_lines[-1] == "exited"

    def test_eof_does_not_wait_for_a_tool_that_ignores_cancellation(self, spawn: t.Callable[..., StdioPeer]) -> None:
        peer = spawn(drain_timeout=0.1, shutdown_timeout=0.1)
        start_slow(peer, 1, tool="stubborn", seconds=60)
        assert peer.finish() == []
        assert peer.process.returncode == 0

    def test_a_closed_stdout_ends_the_loop_quietly(self, tmp_path: pathlib.Path) -> None:
        with open(tmp_path / "stderr", "wb") as stderr:
            process = subprocess.Popen(
                [sys.executable, str(FIXTURE_SERVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr
            )
            try:
                t.cast(t.IO[bytes], process.stdout).close()  # the client stops reading
                stdin = t.cast(t.IO[bytes], process.stdin)
                stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
                stdin.flush()
                assert process.wait(TIMEOUT) == 0
            finally:
                if process.poll() is None:
                    process.kill()
                    process.wait(TIMEOUT)
                try:
                    t.cast(t.IO[bytes], process.stdin).close()
                except BrokenPipeError:
                    pass
        log = (tmp_path / "stderr").read_text()
        assert "Traceback" not in log and "Exception ignored" not in log, log
        assert log.endswith("exited\n")


    @pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
    def test_ctrl_c_stops_the_example_server_with_130(self) -> None:
        import signal

        with StdioPeer([str(EXAMPLE)]) as peer:
            peer.initialize()
            peer.send(call(1, "count", {"to": 100}, progressToken="p"))
            assert peer.recv()["method"] == "notifications/progress"  # a tool is running
            peer.process.send_signal(signal.SIGINT)
            assert peer.process.wait(TIMEOUT) == 130
            peer.kill()  # joins the stderr reader
            assert not any("Traceback" in line for line in peer.stderr_lines), peer.stderr_lines


class TestExampleServer:
    def test_initialize_list_and_call(self) -> None:
        with StdioPeer([str(EXAMPLE)]) as peer:
            assert peer.initialize()["result"]["serverInfo"] == {"name": "example_server", "version": "1.0.0"}
            listed = peer.request(1, "tools/list")
            assert [tool["name"] for tool in listed["result"]["tools"]] == ["example_tool", "count", "shout_tool"]
            assert listed["result"]["tools"][0] == {
                "name": "example_tool",
                "description": "A simple example tool that echoes back its arguments",
                "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]},
            }
            assert_valid_response("tools/list", listed, VERSION)
            peer.send(call(2, "example_tool", {"message": "Hello"}))
            assert peer.recv() == text_result(2, "Hello from example tool! Message: Hello")
            peer.send(call(3, "count", {"to": 2}, progressToken="p"))
            assert [peer.recv() for _ in range(3)] == [
                {
                    "jsonrpc": "2.0",
                    "method": "notifications/progress",
                    "params": {"progressToken": "p", "progress": 1, "total": 2, "message": "Counted to 1"},
                },
                {
                    "jsonrpc": "2.0",
                    "method": "notifications/progress",
                    "params": {"progressToken": "p", "progress": 2, "total": 2, "message": "Counted to 2"},
                },
                text_result(3, "Counted to 2"),
            ]
            read = peer.request(4, "resources/read", {"uri": "example://readme"})
            assert read == {
                "jsonrpc": "2.0",
                "id": 4,
                "result": {
                    "contents": [
                        {"uri": "example://readme", "mimeType": "text/plain", "text": "An example MCP server on stdio."}
                    ]
                },
            }
            assert_valid_response("resources/read", read, VERSION)
            prompt = peer.request(5, "prompts/get", {"name": "greeting", "arguments": {"name": "Ada"}})
            assert prompt["result"] == {
                "description": "A greeting",
                "messages": [{"role": "user", "content": {"type": "text", "text": "Please greet Ada warmly."}}],
            }
            assert peer.finish() == []
            assert peer.process.returncode == 0
            assert_only_json_lines(peer)
