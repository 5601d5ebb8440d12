"""Issue 13, findings 15-20: a hostile server against the client, over real pipes and on 127.0.0.1."""

from __future__ import annotations

import threading
import time
import tracemalloc
import typing as t

import pytest

from mcp_sdk import Cancellation, CancelledError, Client, MCPError, RequestTimeoutError, TransportError
from mcp_sdk.client import HTTP
from mcp_sdk.client.oauth import Provider
from mcp_sdk.client.transport import Transport
from spec.support.client_http_server import (
    Reply,
    Request,
    ScriptedServer,
    basic_handler,
    json_reply,
    response_to,
    sse_event,
    sse_reply,
)
from spec.support.client_servers import script_stdio
from spec.support.oauth_fixture import FixtureServer, Registry, browser
from spec.support.waiting import WAIT, wait_until

SCRIPT = "client_hostile_leaks.py"


def threads_named(prefix: str) -> list[str]:
    return [thread.name for thread in threading.enumerate() if thread.name.startswith(prefix)]


# -- 15: server-to-client requests -------------------------------------------------------


def test_a_flood_of_server_requests_gets_a_bounded_pool_and_busy_answers() -> None:
    release = threading.Event()
    transport = script_stdio(SCRIPT, "flood", read_timeout=WAIT)
    client = Client(transport=transport)
    client.on_sampling(lambda params: (release.wait(WAIT), {"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"})[1])
    peak: list[int] = []
    try:
        client.connect()
        outcome: list[t.Any] = []
        caller = threading.Thread(target=lambda: outcome.append(client.request("go", {"count": 1000}, timeout=WAIT)))
        caller.start()
        # Before: 3,000 server requests made 3,002 threads. Now at most max_server_requests run.
        assert wait_until(lambda: len(threads_named("mcp-client-request-")) >= Transport.max_server_requests)
        peak.append(len(threads_named("mcp-client-request-")))
        refused = f"refused {1000 - Transport.max_server_requests}"
        assert wait_until(lambda: refused in transport.stderr_lines)
        peak.append(len(threads_named("mcp-client-request-")))
        release.set()
        caller.join(WAIT)
        assert [response["result"] for response in outcome] == [
            {
                "answered": Transport.max_server_requests,
                "refused": 1000 - Transport.max_server_requests,
                "busy": f"Client busy: {Transport.max_server_requests} server requests are already being handled",
            }
        ]
        assert max(peak) == Transport.max_server_requests
        assert wait_until(lambda: not threads_named("mcp-client-request-"))
    finally:
        release.set()
        client.close()


# -- 19: exact id matches --------------------------------------------------------------------


def test_true_and_a_float_never_settle_an_integer_id() -> None:
    transport = script_stdio(SCRIPT, "fake-ids")
    try:
        for request_id in (1, 2):
            response = transport.send_request({"jsonrpc": "2.0", "id": request_id, "method": "go"}, timeout=WAIT)
            assert response == {"jsonrpc": "2.0", "id": request_id, "result": {"from": "the real id"}}
    finally:
        transport.close()


def test_true_never_settles_request_1_over_http() -> None:
    def handle(request: Request) -> Reply:
        events = [sse_event({"jsonrpc": "2.0", "id": True, "result": {"from": "true"}}),
                  sse_event({"jsonrpc": "2.0", "id": 1.0, "result": {"from": "float"}}),
                  sse_event(response_to(request, {"from": "the real id"}))]
        return sse_reply(events)

    with ScriptedServer(basic_handler(handle)) as server:
        transport = HTTP(url=server.url, standalone_stream=False)
        try:
            response = transport.send_request({"jsonrpc": "2.0", "id": 1, "method": "go"}, timeout=WAIT)
        finally:
            transport.close()
    assert response == {"jsonrpc": "2.0", "id": 1, "result": {"from": "the real id"}}


# -- 16: the call's timeout covers a JSON body -------------------------------------------------


def test_a_trickled_json_body_ends_at_the_calls_timeout_with_an_mcp_error() -> None:
    def handle(request: Request) -> Reply:
        def trickle() -> t.Iterator[bytes]:
            for _ in range(600):  # a byte every 0.1 s: each read is quick, the body never ends
                yield b" "
                time.sleep(0.1)

        return Reply(200, {"Content-Type": "application/json"}, trickle())

    with ScriptedServer(basic_handler(handle)) as server:
        client = Client(transport=HTTP(url=server.url, standalone_stream=False))
        try:
            client.connect()
            started = time.monotonic()
            with pytest.raises(MCPError) as raised:
                client.call_tool("slow", timeout=2)
            elapsed = time.monotonic() - started
        finally:
            client.close()
    # Before: returned after 35 s with a raw requests.exceptions.ConnectionError.
    assert isinstance(raised.value, RequestTimeoutError)
    assert "did not arrive within 2 seconds" in str(raised.value)
    assert elapsed < 15


# -- 17: redirects ---------------------------------------------------------------------------


def test_a_redirect_to_another_origin_is_refused_and_user_headers_stay_home() -> None:
    with ScriptedServer(basic_handler()) as elsewhere:
        def handle(request: Request) -> Reply:
            return Reply(307, {"Location": elsewhere.url})

        with ScriptedServer(handle) as server:
            transport = HTTP(url=server.url, headers={"X-Api-Key": "secret"}, standalone_stream=False)
            try:
                with pytest.raises(TransportError, match="redirected to another origin"):
                    transport.send_request({"jsonrpc": "2.0", "id": 1, "method": "ping"}, timeout=WAIT)
            finally:
                transport.close()
        assert elsewhere.requests == []


def test_a_redirect_within_the_origin_is_followed() -> None:
    def handle(request: Request) -> Reply:
        if request.path == "/old":
            return Reply(308, {"Location": "/mcp"})
        return basic_handler()(request)

    with ScriptedServer(handle) as server:
        transport = HTTP(url=server.url.replace("/mcp", "/old"), headers={"X-Api-Key": "secret"}, standalone_stream=False)
        try:
            response = transport.send_request({"jsonrpc": "2.0", "id": 1, "method": "ping"}, timeout=WAIT)
        finally:
            transport.close()
        assert response == {"jsonrpc": "2.0", "id": 1, "result": {}}
        assert [(r.path, r.headers.get("x-api-key")) for r in server.requests] == [("/old", "secret"), ("/mcp", "secret")]


# -- 18: stdio stderr, the stdin queue, cancelled HTTP calls, SSE ids -------------------------------


def test_a_huge_stderr_line_is_cut_not_buffered() -> None:
    transport = script_stdio(SCRIPT, "stderr", read_timeout=WAIT)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        transport.send_request({"jsonrpc": "2.0", "id": 1, "method": "go", "params": {"mib": 64}}, timeout=WAIT)
        assert wait_until(lambda: list(transport.stderr_lines)[-1:] == ["after"])
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
        transport.close()
    # Before: +304 MiB from one line. Now the line is read 64 KiB at a time.
    assert peak < 16 * 1024 * 1024, peak
    assert len(transport.stderr_lines) == 2
    assert transport.stderr_lines[0] == "x" * 65536 + " [line cut at 65536 bytes]"


def test_writes_to_a_server_that_stopped_reading_fail_once_16_mib_wait() -> None:
    transport = script_stdio(SCRIPT, "deaf", read_timeout=WAIT)
    padding = "p" * (1024 * 1024)
    sent = 0
    try:
        transport.send_request({"jsonrpc": "2.0", "id": 1, "method": "go"}, timeout=WAIT)
        with pytest.raises(TransportError, match="^the server is not reading its stdin: "):
            for sent in range(1, 200):  # before: all 200 MiB queued (+196 MiB)
                transport.send_notification({"jsonrpc": "2.0", "method": "notifications/x", "params": {"pad": padding}})
    finally:
        transport.close()
    assert sent < 40  # 16 MiB of queue plus what the pipe holds


def test_cancelled_http_calls_leave_no_threads() -> None:
    def handle(request: Request) -> Reply:
        def hold() -> t.Iterator[bytes]:
            yield b": open\n\n"
            for _ in range(300):  # never answers; the server stops it at close
                time.sleep(0.1)
                yield b": keep-alive\n\n"

        return sse_reply(hold())

    with ScriptedServer(basic_handler(handle)) as server:
        client = Client(transport=HTTP(url=server.url, standalone_stream=False), timeout=60)
        try:
            client.connect()
            tokens = [Cancellation() for _ in range(40)]
            errors: list[BaseException] = []

            def call(token: Cancellation) -> None:
                try:
                    client.call_tool("hold", cancellation=token)
                except MCPError as error:
                    errors.append(error)

            callers = [threading.Thread(target=call, args=(token,)) for token in tokens]
            for number, caller in enumerate(callers, 1):  # one at a time: the test server's listen backlog is 5
                caller.start()
                assert wait_until(lambda: server.methods().count("POST tools/call") >= number)
            assert wait_until(lambda: len(threads_named("mcp-client-http-request-")) == 40)
            for token in tokens:
                token.cancel("enough")
            for caller in callers:
                caller.join(WAIT)
            assert [type(error) for error in errors] == [CancelledError] * 40, errors[:3]
            # Before: 40 threads still reading their streams (until the read timeout). Now none.
            assert wait_until(lambda: not threads_named("mcp-client-http-request-"), 10), threads_named("mcp-client-http-request-")
        finally:
            client.close()


def test_a_huge_sse_event_id_is_never_sent_back() -> None:
    huge = "9" * (2 * 1024 * 1024)

    def handle(request: Request) -> Reply:
        if request.method == "GET":
            return sse_reply([sse_event({"jsonrpc": "2.0", "id": 1, "result": {"resumed": True}}, id="small-2")])
        return sse_reply([sse_event("", id="small-1", retry=10), sse_event("", id=huge)])  # then ends unanswered

    def route(request: Request) -> Reply:
        return handle(request) if request.method == "GET" else basic_handler(handle)(request)

    with ScriptedServer(route) as server:
        transport = HTTP(url=server.url, standalone_stream=False)
        try:
            response = transport.send_request({"jsonrpc": "2.0", "id": 1, "method": "go"}, timeout=WAIT)
        finally:
            transport.close()
        gets = [r for r in server.requests if r.method == "GET"]
    assert response["result"] == {"resumed": True}
    assert [r.headers.get("last-event-id") for r in gets] == ["small-1"]


# -- 20: the OAuth lock ------------------------------------------------------------------------


def test_waiters_on_another_threads_oauth_flow_give_up_at_their_timeout() -> None:
    registry = Registry()
    auth = FixtureServer(authorization_server=True, registry=registry)
    mcp = FixtureServer(resource_server=True, registry=registry)
    mcp.authorization_server_url = auth.issuer
    redirect, callback, _ = browser()
    in_flow, user_done = threading.Event(), threading.Event()

    def slow_user(url: str) -> None:
        in_flow.set()
        user_done.wait(WAIT)  # the user takes their time in the browser
        redirect(url)

    provider = Provider(
        client_metadata={"redirect_uris": ["http://127.0.0.1:9/callback"], "token_endpoint_auth_method": "none"},
        redirect_uri="http://127.0.0.1:9/callback",
        redirect_handler=slow_user,
        callback_handler=callback,
    )
    transport = HTTP(url=mcp.mcp_url, oauth=provider, timeout=WAIT, standalone_stream=False)
    first: list[t.Any] = []
    flow = threading.Thread(target=lambda: first.append(transport.send_request(
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}, timeout=WAIT)))
    try:
        flow.start()
        assert in_flow.wait(WAIT)
        started = time.monotonic()
        with pytest.raises(RequestTimeoutError, match="another request's OAuth flow"):
            transport.send_request({"jsonrpc": "2.0", "id": 2, "method": "ping"}, timeout=1)
        assert time.monotonic() - started < 10  # before: waited as long as the user did
        user_done.set()
        flow.join(WAIT)
        assert first and first[0]["result"]["ok"] is True
    finally:
        user_done.set()
        transport.close()
        mcp.close()
        auth.close()
