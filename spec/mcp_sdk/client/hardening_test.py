"""The client against hostile servers: junk on the wire must end in an MCPError (or be
dropped), never in a dead reader thread, a hang, or a leaked thread."""

from __future__ import annotations

import json
import threading
import time
import typing as t

import pytest

import mcp_sdk
from mcp_sdk import Client
from mcp_sdk.client import HTTP
from spec.support.client_http_server import (
    TIMEOUT,
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


def client_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name.startswith("mcp-client")]


def assert_no_client_threads_left(before: list[threading.Thread]) -> None:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        left = [thread for thread in client_threads() if thread not in before]
        if not left:
            return
        time.sleep(0.02)
    raise AssertionError(f"threads left after close(): {left}")


def in_thread(function: t.Callable[[], t.Any]) -> dict[str, t.Any]:
    """Run ``function`` on a thread, with a bounded join; returns what it returned or raised."""
    outcome: dict[str, t.Any] = {}

    def run() -> None:
        try:
            outcome["result"] = function()
        except BaseException as error:
            outcome["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(TIMEOUT)
    assert not thread.is_alive(), "the call hung"
    return outcome


class TestStdio:
    def test_a_response_with_an_unhashable_id_does_not_kill_the_reader(self) -> None:
        before = client_threads()
        client = Client(transport=script_stdio("client_hostile.py", "unhashable-id"))
        assert client.ping() == {}
        assert client.ping() == {}
        client.close()
        assert_no_client_threads_left(before)

    def test_a_line_nested_too_deep_does_not_kill_the_reader(self) -> None:
        client = Client(transport=script_stdio("client_hostile.py", "deep"))
        assert client.ping() == {}
        client.close()

    def test_a_handler_result_json_cannot_encode_is_answered_with_an_internal_error(self) -> None:
        client = Client(transport=script_stdio("client_hostile.py", "sampling"))
        client.on_sampling(lambda params: {"content": object()})
        reply = json.loads(client.request("custom/echo")["result"]["reply"])
        assert reply == {"jsonrpc": "2.0", "id": "s-1", "error": {"code": -32603, "message": "Internal error"}}
        assert "reply" in client.ping()  # the client lives on
        client.close()

    def test_close_during_a_call_fails_the_caller_and_leaves_no_thread(self) -> None:
        before = client_threads()
        client = Client(transport=script_stdio("client_hostile.py", "silent", read_timeout=None))
        client.transport.start()  # type: ignore[attr-defined]
        timer = threading.Timer(0.2, client.close)
        timer.start()
        outcome = in_thread(client.ping)
        timer.join(TIMEOUT)
        assert isinstance(outcome.get("error"), mcp_sdk.TransportError)
        assert "closed" in str(outcome["error"])
        assert_no_client_threads_left(before)


class TestHTTP:
    def connected(self, handler: t.Callable[[Request], Reply], server: ScriptedServer, **options: t.Any) -> Client:
        options.setdefault("timeout", TIMEOUT)
        client = Client(transport=HTTP(url=server.url, **options))
        client.connect(mode="legacy")
        return client

    def test_a_json_response_with_an_unhashable_id_is_a_validation_error(self) -> None:
        handler = basic_handler(lambda request: json_reply({"jsonrpc": "2.0", "id": [request.body["id"]], "result": {}}))
        with ScriptedServer(handler) as server:
            client = self.connected(handler, server)
            with pytest.raises(Client.ValidationError, match="holds no response"):
                client.ping()
            client.close()

    def test_a_json_body_nested_too_deep_is_a_validation_error(self) -> None:
        handler = basic_handler(lambda request: Reply(200, {"Content-Type": "application/json"}, b"[" * 200_000))
        with ScriptedServer(handler) as server:
            client = self.connected(handler, server)
            with pytest.raises(Client.ValidationError, match="not JSON"):
                client.ping()
            client.close()

    @pytest.mark.parametrize("streamed", [False, True], ids=["content-length", "chunked"])
    def test_a_json_body_over_max_message_bytes_is_refused_unread(self, streamed: bool) -> None:
        def handler(request: Request) -> Reply:
            body = json.dumps(response_to(request, {"padding": "x" * 5000})).encode()
            return Reply(200, {"Content-Type": "application/json"}, [body[:100], body[100:]] if streamed else body)

        with ScriptedServer(basic_handler(handler)) as server:
            client = self.connected(handler, server, max_message_bytes=2000)
            with pytest.raises(Client.ValidationError, match="over the limit of 2000"):
                client.ping()
            client.close()

    def test_an_sse_event_over_max_message_bytes_is_refused_before_it_ends(self) -> None:
        stop = threading.Event()

        def handler(request: Request) -> Reply:
            def endless_event() -> t.Iterator[bytes]:
                yield b"data: "
                while not stop.wait(0.01):
                    yield b"x" * 1000

            return sse_reply(endless_event())

        with ScriptedServer(basic_handler(handler)) as server:
            client = self.connected(handler, server, max_message_bytes=4000)
            with pytest.raises(Client.ValidationError, match="an SSE event passed the limit of 4000 bytes before it ended"):
                client.ping()
            stop.set()
            client.close()

    def test_many_events_under_the_limit_pass_even_split_across_chunks(self) -> None:
        def handler(request: Request) -> Reply:
            padding = [sse_event({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "y" * 500}})
                       for _ in range(20)]
            stream = b"".join(padding) + sse_event(response_to(request, {}))
            # Cut every event's closing blank line in two.
            return sse_reply(stream[i : i + 7] for i in range(0, len(stream), 7))

        with ScriptedServer(basic_handler(handler)) as server:
            client = self.connected(handler, server, max_message_bytes=1500)
            assert client.ping() == {}
            client.close()

    def test_an_event_nested_too_deep_is_skipped(self) -> None:
        def handler(request: Request) -> Reply:
            return sse_reply([b"data: " + b"[" * 200_000 + b"\n\n", sse_event(response_to(request, {}))])

        with ScriptedServer(basic_handler(handler)) as server:
            client = self.connected(handler, server)
            assert client.ping() == {}
            client.close()

    def test_keep_alives_do_not_outlive_the_callers_timeout(self) -> None:
        stop = threading.Event()

        def handler(request: Request) -> Reply:
            def keep_alives() -> t.Iterator[bytes]:
                while not stop.wait(0.05):
                    yield b": keep-alive\n\n"

            return sse_reply(keep_alives())

        with ScriptedServer(basic_handler(handler)) as server:
            client = self.connected(handler, server)
            outcome = in_thread(lambda: client.ping(timeout=0.5))
            assert isinstance(outcome.get("error"), mcp_sdk.RequestTimeoutError)
            stop.set()
            client.close()

    def test_a_huge_retry_interval_does_not_outlive_the_callers_timeout(self) -> None:
        def handler(request: Request) -> Reply:
            return sse_reply([sse_event("", id="e-1", retry=10**9)])

        with ScriptedServer(basic_handler(handler)) as server:
            client = self.connected(handler, server)
            outcome = in_thread(lambda: client.ping(timeout=0.5))
            assert isinstance(outcome.get("error"), mcp_sdk.RequestTimeoutError)
            client.close()

    def test_a_standalone_stream_that_ends_at_once_is_not_reopened_in_a_tight_loop(self) -> None:
        def route(request: Request) -> Reply:
            if request.method == "GET":
                return sse_reply([sse_event(None, retry=0)])
            return basic_handler()(request)

        with ScriptedServer(route) as server:
            before = client_threads()
            client = self.connected(route, server, max_reconnects=2)
            client.notify("notifications/initialized")  # opens the stream (connect() did too)
            deadline = time.monotonic() + TIMEOUT
            while any(thread.name.startswith("mcp-client-http-listener") for thread in client_threads()):
                assert time.monotonic() < deadline, "the listener never gave up"
                time.sleep(0.05)
            gets = sum(1 for request in server.requests if request.method == "GET")
            assert gets <= 2 + 2  # the first opening, max_reconnects fruitless ones, and one of slack
            client.close()
            assert_no_client_threads_left(before)

    def test_close_during_a_call_says_closed(self) -> None:
        release = threading.Event()

        def handler(request: Request) -> Reply:
            release.wait(TIMEOUT)
            return json_reply(response_to(request, {}))

        with ScriptedServer(basic_handler(handler)) as server:
            client = self.connected(handler, server, timeout=1.0)
            timer = threading.Timer(0.2, client.close)
            timer.start()
            outcome = in_thread(client.ping)
            timer.join(TIMEOUT)
            release.set()
            assert isinstance(outcome.get("error"), mcp_sdk.TransportError)
            assert "closed" in str(outcome["error"])
