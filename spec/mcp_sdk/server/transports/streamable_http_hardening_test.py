"""Attacks on the Streamable HTTP transport: odd headers and bodies, races, clients that stop reading, close()."""

from __future__ import annotations

import concurrent.futures
import functools
import json
import socket
import threading
import typing as t

import pytest
import requests
from werkzeug.test import Client as WSGIClient

from mcp_sdk import Configuration, Server
from mcp_sdk.server.transports import StreamableHTTPTransport
from mcp_sdk.server.transports.streamable_http.streams.event_store import InMemoryEventStore
from mcp_sdk.server.transports.streamable_http.streams.sse import MAX_QUEUED, Stream
from spec.support.http_app import WAIT, build_server
from spec.support.http_client import (
    ACCEPT_BOTH,
    LATEST,
    TIMEOUT,
    initialize_message,
    read_events,
    text_result,
    tool_call,
)
from spec.support.http_fixtures import Served
from spec.support.http_server import LiveServer
from spec.support.waiting import wait_until as wait_for

CHANGED = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}

wait_until = functools.partial(wait_for, timeout=WAIT)


def transport_threads() -> list[str]:
    return [thread.name for thread in threading.enumerate() if thread.name.startswith("mcp-http")]


# -- Last-Event-ID -------------------------------------------------------------


@pytest.mark.parametrize("last_event_id", ["1-" + "9" * 5000, "x" * 10_000, "0-" + "1" * 30])
def test_huge_or_garbage_last_event_ids_get_a_400_not_a_500(serve: t.Callable[..., Served], last_event_id: str) -> None:
    served = serve()
    client = served.client()
    client.initialize()
    headers = client.headers(Accept="text/event-stream", **{"Last-Event-ID": last_event_id})
    with client.get(headers) as response:
        assert response.status_code == 400, response.text
        assert len(response.content) < 1024  # the value is not echoed back whole
    assert served.reported == []


def test_the_in_memory_store_refuses_ids_with_absurd_numbers() -> None:
    store = InMemoryEventStore()
    store.store_event("1", None)
    sent: list[str] = []
    assert store.replay_events_after("1-" + "9" * 5000, lambda event_id, message: sent.append(event_id)) is None
    assert sent == []


# -- stateless mode: close() and vanished clients ---------------------------------


def holding_server(seen: list[str], started: threading.Event) -> Server:
    server = Server(name="hold", version="1.0.0")

    @server.define_tool(name="hold")
    def hold(args: dict[str, t.Any], server_context: t.Any = None) -> str:
        server_context.report_progress(1, total=2)
        started.set()
        seen.append("cancelled" if server_context.cancellation.wait(WAIT) else "timed out")
        return "held"

    return server


def stateless_headers() -> dict[str, str]:
    return {"Accept": ACCEPT_BOTH, "Content-Type": "application/json", "MCP-Protocol-Version": LATEST}


def test_closing_a_stateless_transport_cancels_streaming_requests_and_ends_their_connections() -> None:
    seen: list[str] = []
    started = threading.Event()
    transport = StreamableHTTPTransport(holding_server(seen, started), stateless=True)
    with LiveServer(transport, closeables=[transport]) as live, requests.Session() as http:
        with http.post(live.url, json=tool_call("hold", progress_token="p"), headers=stateless_headers(), stream=True, timeout=TIMEOUT) as response:
            events = read_events(response)
            assert next(events).message["method"] == "notifications/progress"
            assert started.wait(WAIT)
            transport.close()
            assert list(events) == []  # the connection ends; no answer will come
        assert seen == ["cancelled"]
        assert wait_until(lambda: transport_threads() == [])


def test_a_stateless_client_vanishing_cancels_its_request() -> None:
    seen: list[str] = []
    started = threading.Event()
    transport = StreamableHTTPTransport(holding_server(seen, started), stateless=True, keepalive_interval=0.02)
    with LiveServer(transport, closeables=[transport]) as live, requests.Session() as http:
        with http.post(live.url, json=tool_call("hold", progress_token="p"), headers=stateless_headers(), stream=True, timeout=TIMEOUT) as response:
            assert started.wait(WAIT)
            assert response.status_code == 200
        # Nobody can ever receive the answer: the keep-alive write fails and the request is cancelled.
        assert wait_until(lambda: seen == ["cancelled"])
        with http.post(live.url, json=tool_call("hold"), headers=stateless_headers(), stream=True, timeout=TIMEOUT) as other:
            assert other.status_code == 200  # the transport serves on
            transport.close()


# -- clients that stop reading ---------------------------------------------------


def test_a_connection_that_is_not_read_queues_a_bounded_number_of_events() -> None:
    stream = Stream("1", InMemoryEventStore())
    consumer, _ = stream.attach()
    for number in range(MAX_QUEUED + 100):
        stream.put({"n": number}, json.dumps({"n": number}))
    assert consumer.qsize() <= MAX_QUEUED + 1  # the events, then the signal to reconnect
    assert not stream.attached  # the client resumes from the store
    stream.finish({"n": "final"}, '{"n": "final"}')
    assert consumer.qsize() <= MAX_QUEUED + 1


def test_an_unresumable_stream_drops_live_events_past_the_bound_but_never_its_answer() -> None:
    stream = Stream("0", None)
    consumer, _ = stream.attach()
    for number in range(MAX_QUEUED + 100):
        stream.put({"n": number}, "{}")
    stream.finish({"answer": True}, '{"answer": true}')
    items = [consumer.get(timeout=1) for _ in range(consumer.qsize())]
    assert len(items) == MAX_QUEUED + 1
    assert items[-1] == (None, '{"answer": true}', True)


# -- races on one session ----------------------------------------------------------


def test_of_two_gets_at_once_exactly_one_gets_the_stream_and_keeps_it(serve: t.Callable[..., Served]) -> None:
    served = serve()
    client = served.client()
    client.initialize()
    attempts = 8
    start = threading.Barrier(attempts)

    def open_get(_: int) -> requests.Response:
        start.wait(WAIT)
        return requests.get(client.url, headers=client.headers(Accept="text/event-stream"), stream=True, timeout=TIMEOUT)

    with concurrent.futures.ThreadPoolExecutor(attempts, thread_name_prefix="spec-get") as pool:
        responses = list(pool.map(open_get, range(attempts), timeout=WAIT * 2))
    try:
        assert sorted(response.status_code for response in responses) == [200] + [409] * (attempts - 1)
        (winner,) = [response for response in responses if response.status_code == 200]
        events = read_events(winner)
        assert next(events).data == ""  # priming
        served.server.notify_tools_list_changed()
        assert next(events).message == CHANGED  # still open: no loser took it over
    finally:
        for response in responses:
            response.close()


def test_delete_while_a_tool_streams_ends_it_and_later_requests_get_404(serve: t.Callable[..., Served]) -> None:
    served = serve()
    client = served.client()
    client.initialize(capabilities={"sampling": {}})
    other = served.client()
    other.initialize()
    with client.post(tool_call("sample", id=7)) as response:
        events = read_events(response)
        assert next(events).data == ""
        assert next(events).message["method"] == "sampling/createMessage"
        assert client.delete().status_code == 204
        assert [event for event in events if event.data] == []
    assert wait_until(lambda: served.probe.outcomes == ["cancelled"])
    with client.post(tool_call("echo", {"text": "x"})) as after:
        assert after.status_code == 404
    assert other.call(tool_call("echo", {"text": "fine"})) == [text_result("echo: fine")]


# -- bodies and headers ------------------------------------------------------------

BODIES = [
    b"",
    b"null",
    b"1",
    b'"text"',
    b"[]",
    b"[1, 2]",
    b"{}",
    b"\xff\xfe\x00",
    b"[" * 100_000,
    b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}',
    b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"progress","arguments":[]}}',
    b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":{"a":1}}}',
    b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":[1]}}}',
    b'[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"ping"}]',
    b'[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"progress"}},{"jsonrpc":"2.0","id":2,"method":"ping"}]',
    json.dumps([initialize_message()]).encode(),
    b'{"jsonrpc":"2.0","id":99,"result":{}}',
]


@pytest.mark.parametrize("stateless", [False, True], ids=["sessions", "stateless"])
def test_malformed_bodies_get_clear_errors_under_every_protocol_version(stateless: bool) -> None:
    reported: list[t.Any] = []
    server, _ = build_server(configuration=Configuration(exception_reporter=lambda error, context: reported.append(error)))
    with StreamableHTTPTransport(server, stateless=stateless) as transport:
        http = WSGIClient(transport)
        headers = {"Accept": ACCEPT_BOTH, "Content-Type": "application/json"}
        answer = http.post("/mcp", data=json.dumps(initialize_message()), headers=headers)
        if not stateless:
            headers["Mcp-Session-Id"] = answer.headers["Mcp-Session-Id"]
        for version in (None, "2025-03-26", "2025-06-18", LATEST):
            versioned = dict(headers) if version is None else {**headers, "MCP-Protocol-Version": version}
            for body in BODIES:
                response = http.post("/mcp", data=body, headers=versioned)
                response.get_data()
                assert response.status_code < 500, (version, body[:60], response.get_data())
                response.close()
    assert reported == []


@pytest.mark.parametrize("session_id", ["\u00e9" * 8, "x" * 8000, "../../etc", "a,b"])
def test_odd_session_ids_are_unknown_sessions(serve: t.Callable[..., Served], session_id: str) -> None:
    served = serve()
    client = served.client()
    client.initialize()
    for method in ("GET", "POST", "DELETE"):
        headers = {**client.headers(), "Mcp-Session-Id": session_id}
        headers = {name: value.encode("latin-1") for name, value in headers.items()}  # type: ignore[misc]
        with requests.request(method, client.url, headers=headers, json=tool_call("echo", {"text": "x"}), timeout=TIMEOUT) as response:
            assert response.status_code in (400, 404), (method, response.status_code)
    assert client.call(tool_call("echo", {"text": "still"})) == [text_result("echo: still")]
    assert served.reported == []


def raw_request(port: int, head: str, body: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as connection:
        connection.sendall(head.encode("latin-1") + body)
        connection.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


def test_chunked_bodies_over_the_limit_and_lying_lengths_are_refused(serve: t.Callable[..., Served]) -> None:
    served = serve(max_body_bytes=1000)
    client = served.client()
    client.initialize()
    session = f"Mcp-Session-Id: {client.session_id}\r\nMCP-Protocol-Version: {LATEST}\r\n"
    common = f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: {ACCEPT_BOTH}\r\nContent-Type: application/json\r\n{session}"
    piece = b"[" * 600
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for _ in range(3)) + b"0\r\n\r\n"
    answer = raw_request(served.live.port, common + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n", chunked)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:100]
    answer = raw_request(served.live.port, common + "Content-Length: 999999999\r\nConnection: close\r\n\r\n", b"{}")
    assert answer.startswith(b"HTTP/1.1 413"), answer[:100]
    body = json.dumps(tool_call("echo", {"text": "x"})).encode()
    answer = raw_request(served.live.port, common + f"Content-Length: {len(body) - 5}\r\nConnection: close\r\n\r\n", body)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:100]  # a short length cuts the JSON: a parse error
    assert served.reported == []


@pytest.mark.parametrize(
    ("host", "origin", "allowed"),
    [
        ("[::1]:8000", None, True),
        ("LOCALHOST:8000", "HTTP://LocalHost:3000", True),
        ("127.0.0.1:8000", "http://[::1]:3000", True),
        ("localhost.:8000", None, False),
        ("127.0.0.1:8000", "null", False),
        ("127.0.0.1:8000", "", False),
        ("[::ffff:127.0.0.1]:8000", None, False),
        ("localhost:8000:8000", None, False),
        ("evil.example:8000", "http://localhost:8000", False),
        ("localhost:8000", "http://localhost@evil.example", False),
    ],
)
def test_host_and_origin_edge_cases(host: str, origin: str | None, allowed: bool) -> None:
    server, _ = build_server()
    with StreamableHTTPTransport(server) as transport:
        headers = {"Accept": ACCEPT_BOTH, "Content-Type": "application/json", "Host": host}
        if origin is not None:
            headers["Origin"] = origin
        response = WSGIClient(transport).post("/mcp", data=json.dumps(initialize_message()), headers=headers)
        assert (response.status_code == 200) is allowed, response.get_data()
        assert response.status_code in (200, 403)


def test_session_ids_are_long_random_and_header_safe(serve: t.Callable[..., Served]) -> None:
    served = serve(max_sessions=40)
    ids = set()
    for _ in range(30):
        client = served.client()
        client.initialize()
        assert client.session_id is not None
        ids.add(client.session_id)
        assert len(client.session_id) >= 32 and client.session_id.isascii() and client.session_id.isprintable()
    assert len(ids) == 30


def test_max_sessions_refuses_with_503_and_frees_a_place_on_delete(serve: t.Callable[..., Served]) -> None:
    served = serve(max_sessions=2)
    first, second, third = served.client(), served.client(), served.client()
    first.initialize()
    second.initialize()
    with third.post(initialize_message(), stream=False) as refused:
        assert refused.status_code == 503
    assert first.delete().status_code == 204
    third.initialize()
    assert third.call(tool_call("echo", {"text": "in"})) == [text_result("echo: in")]


def test_closing_with_open_streams_returns_and_ends_every_thread(serve: t.Callable[..., Served]) -> None:
    served = serve()
    client = served.client()
    client.initialize()
    with client.get() as stream, client.post(tool_call("wait", progress_token="w")) as posted:
        gets, posts = read_events(stream), read_events(posted)
        assert next(gets).data == ""
        assert next(posts).data == ""
        assert served.probe.started.wait(WAIT)
        served.probe.release.set()
        served.transport.close()
        list(gets)  # both end
        list(posts)
    assert wait_until(lambda: transport_threads() == [])
