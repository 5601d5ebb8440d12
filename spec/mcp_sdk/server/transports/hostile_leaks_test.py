"""Issue 13, findings 6-9 and 13: the smaller server leaks, each reproduced against a real server
(Streamable HTTP on 127.0.0.1, or a stdio subprocess) and its bound asserted with margin."""

from __future__ import annotations

import json
import logging
import tracemalloc
import typing as t

import pytest
import requests

from mcp_sdk import Configuration, Server, json_rpc
from mcp_sdk.server.transports import StreamableHTTPTransport
from mcp_sdk.server.transports.streamable_http.wire import http_io
from spec.support.http_client import Client, initialize_message, messages_of, tool_call
from spec.support.http_fixtures import Served
from spec.support.http_server import LiveServer
from spec.support.stdio_peer import StdioPeer

BATCH_VERSION = "2025-03-26"


def tools_list(id: t.Any) -> dict[str, t.Any]:
    return {"jsonrpc": "2.0", "id": id, "method": "tools/list"}


def post_raw(client: Client, body: bytes, **headers: str) -> requests.Response:
    response = client.http.post(client.url, data=body, headers=client.headers(**headers), timeout=30)
    response.close()
    return response


def parse_error(message: str) -> dict[str, t.Any]:
    return {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": f"Parse error: {message}"}}


@pytest.fixture
def peer() -> t.Iterator[StdioPeer]:
    with StdioPeer.fixture() as peer:
        yield peer


def stdio_initialize(peer: StdioPeer, version: str) -> None:
    peer.send(initialize_message(version, id=0))
    assert peer.recv()["result"]["protocolVersion"] == version
    peer.send({"jsonrpc": "2.0", "method": "notifications/initialized"})


# -- 6: batches ----------------------------------------------------------------------


class TestBatches:
    def test_http_refuses_a_batch_over_the_item_cap_before_handling_it(self, serve: t.Callable[..., Served]) -> None:
        client = serve().client()
        client.initialize(BATCH_VERSION)
        # Before: 82,459 tools/list in 4.2 MB -> a 61 MB answer. Now refused whole, at once.
        batch = [tools_list(n) for n in range(1, 20_001)]
        with client.post(batch, stream=False) as response:
            assert response.status_code == 400
            assert response.json() == {
                "jsonrpc": "2.0",
                "id": None,
                "error": {"code": -32600, "message": "Invalid Request: a batch may hold at most 256 messages"},
            }
            assert len(response.content) < 200
        # At the cap it is answered in full.
        answers = client.call([tools_list(n) for n in range(1, json_rpc.MAX_BATCH_ITEMS + 1)])
        assert [answer["id"] for answer in answers[0]] == list(range(1, 257))

    def test_stdio_refuses_a_batch_over_the_item_cap(self, peer: StdioPeer) -> None:
        stdio_initialize(peer, BATCH_VERSION)
        peer.send([tools_list(n) for n in range(1, 5_001)])
        assert peer.recv() == {
            "jsonrpc": "2.0",
            "id": None,
            "error": {"code": -32600, "message": "Invalid Request: a batch may hold at most 256 messages"},
        }
        assert peer.request(1, "ping") == {"jsonrpc": "2.0", "id": 1, "result": {}}

    def test_requests_past_the_answer_cap_get_an_error_instead_of_an_answer(self) -> None:
        server = Server(name="big", version="1.0.0")
        for number in range(8):  # a tools/list answer of about 1 MiB
            server.define_tool(name=f"tool{number}", description="d" * 128 * 1024)(lambda args: "ok")
        transport = StreamableHTTPTransport(server)
        with LiveServer(transport, closeables=[transport]) as live, Client(live.url) as client:
            client.initialize(BATCH_VERSION)
            with client.post([tools_list(n) for n in range(1, 41)], stream=False) as response:
                assert response.status_code == 200
                size = len(response.content)
                answers = response.json()
        answered = [answer["id"] for answer in answers if "result" in answer]
        refused = [answer for answer in answers if "error" in answer]
        assert len(answered) + len(refused) == 40
        assert 10 <= len(answered) <= 20  # 16 MiB of 1 MiB answers, and one more past the line
        assert refused[0]["error"] == {
            "code": -32603,
            "message": f"Internal error: the batch's answer passed {json_rpc.MAX_BATCH_ANSWER_BYTES} bytes; "
            "send this request on its own",
        }
        assert size < json_rpc.MAX_BATCH_ANSWER_BYTES + 2 * 1024 * 1024  # before: 40 MiB


# -- 7: header caches ------------------------------------------------------------------


def test_huge_accept_and_host_values_are_not_kept(serve: t.Callable[..., Served]) -> None:
    served = serve()
    client = served.client()
    client.initialize()
    # http.server (werkzeug's dev server) takes header lines up to 64 KiB.
    accept = "application/json, text/event-stream, " + ",".join(f"x/y{n}" for n in range(9_000))
    accept = accept[:60_000]
    http_io._cached_media_ranges.cache_clear()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for number in range(32):
            response = post_raw(client, json.dumps(tools_list(number)).encode(), Accept=accept + f",z/{number}")
            assert response.status_code == 200
            response = post_raw(client, b"{}", Host="h" * 60_000 + str(number))
            assert response.status_code == 403
            assert len(response.content) < 300  # the refusal quotes 100 characters of the Host, not 60 KB
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # Before: +2.5 MiB per request (323 MiB after 128). Now nothing per request stays.
    assert grown < 8 * 1024 * 1024, grown
    assert http_io._cached_media_ranges.cache_info().currsize == 0
    guard = served.transport._guard
    assert guard is not None
    assert sum(len(host or "") + len(origin or "") for host, origin in guard._verdicts) < 10_000


# -- 8, 9, 13: what the decoder lets in --------------------------------------------------


HOSTILE_BODIES = [
    # NaN as a progress token: before, a traceback per notification (3.9 MB of log from 143 bytes).
    (
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"progress","arguments":{"steps":50},'
        b'"_meta":{"progressToken":NaN}}}',
        "NaN is not a JSON number",
    ),
    (b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":[Infinity,-Infinity]}}', "Infinity is not a JSON number"),
    (
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"progress","arguments":{"steps":50},'
        b'"_meta":{"progressToken":1e400}}}',
        "number too large",
    ),
    # A lone surrogate echoed back: before, HTTP 500 and a traceback.
    (b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"\\ud800"}}}',
     "a string holds a lone UTF-16 surrogate"),
    (b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"\\uDFFF":1}}', "a string holds a lone UTF-16 surrogate"),
    # Python's int() limit: before, "use sys.set_int_max_str_digits()" in the answer.
    (b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"n":' + b"7" * 5000 + b"}}", "number too long"),
    # A cursor nested 980 deep: before, a logged RecursionError.
    (
        b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":' + b"[" * 980 + b"]" * 980 + b"}}",
        "JSON nested too deeply",
    ),
]


@pytest.mark.parametrize("body, message", HOSTILE_BODIES)
def test_http_refuses_what_json_does_not_allow_as_a_parse_error(
    serve: t.Callable[..., Served], caplog: pytest.LogCaptureFixture, body: bytes, message: str
) -> None:
    served = serve()
    client = served.client()
    client.initialize()
    caplog.set_level(logging.DEBUG, logger="mcp_sdk")
    for _ in range(20):
        with client.http.post(client.url, data=body, headers=client.headers(), timeout=30) as response:
            assert response.status_code == 400
            assert response.json() == parse_error(message)
    assert "sys." not in message
    # Nothing the client sent made the server log or report anything.
    assert served.reported == []
    assert [record for record in caplog.records if record.name.startswith("mcp_sdk")] == []
    assert client.call(tool_call("echo", {"text": "still here"}))[0]["result"]["content"][0]["text"] == "echo: still here"


@pytest.mark.parametrize("body, message", HOSTILE_BODIES)
def test_stdio_refuses_what_json_does_not_allow_as_a_parse_error(peer: StdioPeer, body: bytes, message: str) -> None:
    stdio_initialize(peer, "2025-11-25")
    peer.send_raw(body + b"\n")
    assert peer.recv() == parse_error(message)
    assert peer.request(2, "ping") == {"jsonrpc": "2.0", "id": 2, "result": {}}
    assert not any("Traceback" in line for line in peer.stderr_lines)


def test_a_handlers_lone_surrogate_is_escaped_not_a_500() -> None:
    server = Server(name="surrogate", version="1.0.0", configuration=Configuration(validate_tool_call_results=False))
    server.define_tool(name="odd")(lambda args: "a\ud800b")
    transport = StreamableHTTPTransport(server, enable_json_response=True)
    with LiveServer(transport, closeables=[transport]) as live, Client(live.url) as client:
        client.initialize()
        with client.post(tool_call("odd"), stream=False) as response:
            assert response.status_code == 200
            assert b'"text":"a\\ud800b"' in response.content
            assert messages_of(response)[0]["result"]["content"][0]["text"] == "a\ud800b"
