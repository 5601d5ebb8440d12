"""StdioTransport edge cases driven in-process, through os.pipe() and io objects."""

from __future__ import annotations

import io
import json
import threading
import typing as t

import pytest

from mcp_sdk import Server, Tool
from mcp_sdk.server.request import Incoming
from mcp_sdk.server.transports import StdioTransport
from spec.support.stdio_serving import Serving, serving_fixture

TIMEOUT = 10.0


def make_server() -> Server:
    server = Server(name="inprocess")

    @server.define_tool(name="echo", input_schema={"properties": {"message": {"type": "string"}}})
    def echo(args: dict[str, t.Any]) -> t.Any:
        return Tool.Response([{"type": "text", "text": args.get("message", "")}])

    @server.define_tool(name="thread")
    def thread(args: dict[str, t.Any]) -> t.Any:
        return threading.current_thread().name

    return server


def lines(data: bytes) -> list[t.Any]:
    return [json.loads(line) for line in data.splitlines()]


def ping(request_id: t.Any) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "ping"}).encode() + b"\n"


class Trickle(io.RawIOBase):
    """Hands out its bytes a few at a time, as a slow pipe would."""

    def __init__(self, data: bytes, size: int) -> None:
        self._data = data
        self._size = size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: t.Any) -> int:
        size = min(self._size, len(buffer))
        chunk, self._data = self._data[:size], self._data[size:]
        buffer[: len(chunk)] = chunk
        return len(chunk)


serving = serving_fixture(make_server)


def test_close_from_another_thread_wakes_a_blocked_read(serving: t.Callable[..., Serving]) -> None:
    running = serving()
    running.write(ping(1))
    running.transport.close()  # no EOF: only close() can end open()
    running.join()
    assert lines(running.stdout.getvalue()) in ([], [{"jsonrpc": "2.0", "id": 1, "result": {}}])
    assert running.transport.session is not None and running.transport.session.closed


def test_eof_on_a_pipe_returns(serving: t.Callable[..., Serving]) -> None:
    running = serving()
    running.write(ping(1) + ping("2"))
    running.close_input()
    running.join()
    assert lines(running.stdout.getvalue()) == [
        {"jsonrpc": "2.0", "id": 1, "result": {}},
        {"jsonrpc": "2.0", "id": "2", "result": {}},
    ]


def test_close_before_open_makes_open_return_at_once() -> None:
    transport = StdioTransport(make_server(), stdin=io.BytesIO(ping(1)), stdout=io.BytesIO())
    transport.close()
    transport.open()
    assert transport.session is None


def test_a_transport_serves_one_connection() -> None:
    out = io.BytesIO()
    transport = StdioTransport(make_server(), stdin=io.BytesIO(ping(1)), stdout=out)
    transport.open()
    transport.open()  # returns at once: stdin is not read again
    assert lines(out.getvalue()) == [{"jsonrpc": "2.0", "id": 1, "result": {}}]


def test_requests_run_on_named_worker_threads() -> None:
    out = io.BytesIO()
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "thread"}}
    StdioTransport(make_server(), stdin=io.BytesIO(json.dumps(call).encode()), stdout=out).open()
    [response] = lines(out.getvalue())
    assert response["result"]["content"][0]["text"].startswith("mcp-stdio-worker-")


def test_open_twice_at_once_is_refused(serving: t.Callable[..., Serving]) -> None:
    running = serving()
    running.write(ping(1))
    deadline = threading.Event()
    while running.transport.session is None and not deadline.wait(0.01):
        pass
    with pytest.raises(RuntimeError, match="already open"):
        running.transport.open()


def test_lines_arriving_in_small_pieces(serving: t.Callable[..., Serving]) -> None:
    data = (
        ping(1)
        + b'{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"' + b"z" * 100 + b'"}}\n'
        + b"\n"
        + ping(3)
        + b'{"jsonrpc":"2.0","id":4,"method":"ping"}'  # no newline before EOF
    )
    out = io.BytesIO()
    StdioTransport(make_server(), stdin=io.BufferedReader(Trickle(data, 7), 7), stdout=out, max_line_bytes=60).open()
    assert lines(out.getvalue()) == [
        {"jsonrpc": "2.0", "id": 1, "result": {}},
        {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request: message longer than 60 bytes"}},
        {"jsonrpc": "2.0", "id": 3, "result": {}},
        {"jsonrpc": "2.0", "id": 4, "result": {}},
    ]


def test_a_line_exactly_at_the_limit_is_accepted() -> None:
    line = ping(1)
    out = io.BytesIO()
    limit = len(line) - 1  # the newline does not count
    StdioTransport(make_server(), stdin=io.BytesIO(line + line), stdout=out, max_line_bytes=limit).open()
    assert lines(out.getvalue()) == [{"jsonrpc": "2.0", "id": 1, "result": {}}] * 2


def test_an_over_long_last_line_without_newline() -> None:
    out = io.BytesIO()
    StdioTransport(make_server(), stdin=io.BytesIO(ping(1) + b"x" * 500), stdout=out, max_line_bytes=100).open()
    assert lines(out.getvalue()) == [
        {"jsonrpc": "2.0", "id": 1, "result": {}},
        {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request: message longer than 100 bytes"}},
    ]


def test_text_streams_are_used_through_their_buffers() -> None:
    stdin = io.TextIOWrapper(io.BytesIO(ping(1)), encoding="utf-8")
    out_buffer = io.BytesIO()
    stdout = io.TextIOWrapper(out_buffer, encoding="utf-8")
    StdioTransport(make_server(), stdin=stdin, stdout=stdout).open()
    assert lines(out_buffer.getvalue()) == [{"jsonrpc": "2.0", "id": 1, "result": {}}]


def test_a_closed_stdout_ends_the_loop(serving: t.Callable[..., Serving]) -> None:
    running = serving()
    running.stdout.close()
    running.write(ping(1))
    running.join()  # no EOF: the failed write alone ended open()


def test_tool_calls_and_broadcasts_go_to_stdout(serving: t.Callable[..., Serving]) -> None:
    running = serving()
    call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "echo", "arguments": {"message": "hi"}}}
    running.write(json.dumps(call).encode() + b"\n")
    running.transport.server.notify_tools_list_changed()
    running.close_input()
    running.join()
    received = lines(running.stdout.getvalue())
    assert sorted(received, key=lambda m: "id" in m) == [
        {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"},
        {"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": "hi"}], "isError": False}},
    ]


def test_a_failure_inside_handling_is_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    server = make_server()
    reported: list[BaseException] = []
    server.configuration.exception_reporter = lambda error, context: reported.append(error)

    def broken(incoming: Incoming, session: t.Any) -> t.Any:
        raise RuntimeError("bug")

    monkeypatch.setattr(server, "receive", broken)
    out = io.BytesIO()
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo"}}
    StdioTransport(server, stdin=io.BytesIO(ping(1) + json.dumps(call).encode() + b"\n"), stdout=out).open()
    assert sorted(lines(out.getvalue()), key=lambda m: m["id"]) == [
        {"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": "Internal error"}},
        {"jsonrpc": "2.0", "id": 2, "error": {"code": -32603, "message": "Internal error"}},
    ]
    assert [str(error) for error in reported] == ["bug", "bug"]


@pytest.mark.parametrize(
    "options",
    [{"max_workers": 0}, {"max_line_bytes": 0}, {"max_queue": -1}, {"shutdown_timeout": -1}, {"drain_timeout": "1"}],
)
def test_bad_options_are_refused(options: dict[str, t.Any]) -> None:
    with pytest.raises(ValueError):
        StdioTransport(make_server(), **options)


def test_a_cancel_arriving_just_before_the_session_starts_a_request_still_reaches_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server = Server(name="race")
    ran: list[str] = []

    @server.define_tool(name="work")
    def work(args: dict[str, t.Any], server_context: t.Any = None) -> str:
        ran.append("cancelled" if server_context.cancelled() else "ran")
        return "done"

    receive = server.receive

    def cancelled_in_the_gap(incoming: Incoming, session: t.Any) -> t.Any:
        # The client's notifications/cancelled lands after the transport took the
        # request but before the session registered it.
        if incoming.method == "tools/call":
            cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": incoming.id}}
            receive(Incoming(cancel), session)
        return receive(incoming, session)

    monkeypatch.setattr(server, "receive", cancelled_in_the_gap)
    call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "work"}}
    out = io.BytesIO()
    StdioTransport(server, stdin=io.BytesIO(json.dumps(call).encode() + b"\n" + ping(8)), stdout=out).open()
    assert lines(out.getvalue()) == [{"jsonrpc": "2.0", "id": 8, "result": {}}]
    assert ran == []


@pytest.mark.parametrize("request_id", [[1], {"a": 1}])
def test_a_request_whose_id_cannot_be_a_key_is_refused_and_serving_goes_on(request_id: t.Any) -> None:
    # A request run on a worker with an array or object id once ended the reader (unhashable).
    call = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {"name": "echo", "arguments": {}}}
    out = io.BytesIO()
    StdioTransport(make_server(), stdin=io.BytesIO(json.dumps(call).encode() + b"\n" + ping(2)), stdout=out).open()
    answers = lines(out.getvalue())  # in either order: the reader may have passed stdin on meanwhile
    assert sorted(answers, key=lambda answer: answer["id"] is None) == [
        {"jsonrpc": "2.0", "id": 2, "result": {}},
        {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request: id must be a string or an integer"}},
    ]


class CountedOutput(io.BytesIO):
    """stdout that lets a test wait for the answers it expects, as a client sending one request at a time."""

    def __init__(self) -> None:
        super().__init__()
        self.written = threading.Condition()

    def write(self, data: t.Any) -> int:
        with self.written:
            size = super().write(data)
            self.written.notify_all()
        return size

    def wait_for_lines(self, count: int) -> None:
        with self.written:
            assert self.written.wait_for(lambda: self.getvalue().count(b"\n") >= count, TIMEOUT)


def test_an_id_answered_before_its_request_began_can_be_used_again() -> None:
    # An unknown method or a malformed request is answered before the session begins it: the note
    # the transport's accept() made once stayed, and a later request with the id was refused as in flight.
    def call(request_id: int, **fields: t.Any) -> bytes:
        message = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {"name": "echo"}, **fields}
        return json.dumps(message).encode() + b"\n"

    out = CountedOutput()
    running = Serving(make_server(), out)
    try:
        for count, line in enumerate([call(1, method="no/such/method"), call(1), call(2, jsonrpc="1.0"), call(2)], 1):
            running.write(line)
            out.wait_for_lines(count)  # each answered before the next is sent: the id is free again
        running.close_input()
        running.join()
    finally:
        running.cleanup()
    empty = {"content": [{"type": "text", "text": ""}], "isError": False}
    assert lines(out.getvalue()) == [
        {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found: no/such/method"}},
        {"jsonrpc": "2.0", "id": 1, "result": empty},
        {"jsonrpc": "2.0", "id": 2, "error": {"code": -32600, "message": 'Invalid Request: jsonrpc must be "2.0"'}},
        {"jsonrpc": "2.0", "id": 2, "result": empty},
    ]
