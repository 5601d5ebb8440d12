"""Attacks on the server core: duplicate ids, cancellation storms, callbacks that raise,
handlers that return junk, registration racing listing, and leaks across many requests."""

from __future__ import annotations

import json
import math
import threading
import typing as t

import pytest

from mcp_sdk import Configuration, Resource, Server, Tool
from mcp_sdk.errors import TransportError
from spec.support.server_helpers import (
    TIMEOUT,
    Capture,
    Recorder,
    call_tool,
    connect,
    in_background,
    initialize,
    nested_past_the_recursion_limit,
    notification,
    request,
)

INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603


def blocking_server(**options: t.Any) -> tuple[Server, threading.Event]:
    """A server whose ``block`` tool waits for cancellation (or TIMEOUT), then answers "finished"."""
    server = Server(name="hardening", **options)
    started = threading.Event()

    @server.define_tool(name="block")
    def block(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        started.set()
        server_context.cancellation.wait(TIMEOUT)
        return "finished"

    @server.define_tool(name="quick")
    def quick(args: dict[str, t.Any]) -> t.Any:
        return "quick"

    return server, started


def cancel(request_id: t.Any) -> dict[str, t.Any]:
    return notification("notifications/cancelled", {"requestId": request_id, "reason": "test"})


class TestDuplicateIds:
    def test_a_second_request_reusing_an_in_flight_id_is_refused_and_the_first_stays_cancellable(self):
        server, started = blocking_server()
        session, _ = connect(server)
        first = in_background(lambda: session.handle(call_tool("block", id=7)))
        assert started.wait(TIMEOUT)

        duplicate = session.handle(call_tool("quick", id=7))

        assert duplicate["id"] == 7
        assert duplicate["error"]["code"] == INVALID_REQUEST
        assert session.in_flight_count == 1  # the first is still tracked
        session.handle(cancel(7))
        assert first.result(TIMEOUT) is None  # cancelled: no response
        assert session.in_flight_count == 0

    def test_an_id_may_be_reused_once_its_request_finished(self):
        server, _ = blocking_server()
        session, _ = connect(server)
        assert session.handle(call_tool("quick", id=1))["result"]["content"][0]["text"] == "quick"
        assert session.handle(call_tool("quick", id=1))["result"]["content"][0]["text"] == "quick"

    def test_a_duplicate_ping_does_not_untrack_the_running_request(self):
        server, started = blocking_server()
        session, _ = connect(server)
        first = in_background(lambda: session.handle(call_tool("block", id="same")))
        assert started.wait(TIMEOUT)
        assert session.handle(request("ping", id="same"))["error"]["code"] == INVALID_REQUEST
        assert session.cancel_request("same") is True
        assert first.result(TIMEOUT) is None


class TestCancellation:
    def test_cancelling_unknown_finished_and_malformed_ids_is_ignored(self):
        server, _ = blocking_server()
        session, _ = connect(server)
        assert session.handle(call_tool("quick", id=3))["result"]
        for params in [{"requestId": 3}, {"requestId": 999}, {"requestId": None}, {"requestId": [1]}, [1], None, 5]:
            assert session.handle(notification("notifications/cancelled", params)) is None
        assert session.handle(request("ping", id=4)) == {"jsonrpc": "2.0", "id": 4, "result": {}}

    def test_a_cancellation_storm_cancels_each_request_once_and_leaves_nothing_tracked(self):
        server, _ = blocking_server()
        session, _ = connect(server)
        futures = [in_background(lambda i=i: session.handle(call_tool("block", id=i))) for i in range(20)]
        for _ in range(50):
            for i in range(25):
                session.handle(cancel(i))
        # Some may not have begun when the storm passed: cancel again until all ended.
        for i, future in enumerate(futures):
            while not future.done():
                session.handle(cancel(i))
                try:
                    future.result(0.05)
                except Exception:
                    pass
            assert future.result(TIMEOUT) is None
        assert session.in_flight_count == 0

    def test_a_tool_that_ignores_cancellation_gets_no_response_sent(self):
        server = Server(name="stubborn")
        started, release = threading.Event(), threading.Event()

        @server.define_tool(name="stubborn")
        def stubborn(args: dict[str, t.Any]) -> t.Any:
            started.set()
            release.wait(TIMEOUT)
            return "ignored you"

        session, _ = connect(server)
        future = in_background(lambda: session.handle(call_tool("stubborn", id=1)))
        assert started.wait(TIMEOUT)
        session.handle(cancel(1))
        release.set()
        assert future.result(TIMEOUT) is None

    def test_initialize_is_never_cancelled(self):
        server = Server(name="x")
        session = server.create_session()
        session.handle(cancel("init"))
        assert "result" in session.handle(request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}}, id="init"))


class TestCallbacksThatRaise:
    def boom(self, *args: t.Any) -> t.NoReturn:
        raise RuntimeError("callback bug")

    def test_an_exception_reporter_that_raises_still_lets_the_tool_error_out(self):
        server = Server(configuration=Configuration(exception_reporter=self.boom))

        @server.define_tool(name="broken")
        def broken(args: dict[str, t.Any]) -> t.Any:
            raise ValueError("tool bug")

        initialize(server)
        result = server.handle(call_tool("broken"))["result"]
        assert result["isError"] is True

    def test_around_request_raising_before_the_handler_gives_an_internal_error(self):
        reporter = Recorder()
        server = Server(configuration=Configuration(around_request=self.boom, exception_reporter=reporter))
        assert server.handle(request("ping"))["error"]["code"] == INTERNAL_ERROR
        assert [type(e) for e in reporter.errors] == [RuntimeError]

    def test_around_request_raising_after_the_handler_keeps_its_response(self):
        def around(data: dict[str, t.Any], handler: t.Callable[[], t.Any]) -> t.Any:
            handler()
            raise RuntimeError("after")

        reporter = Recorder()
        server = Server(configuration=Configuration(around_request=around, exception_reporter=reporter))
        assert server.handle(request("ping", id=5)) == {"jsonrpc": "2.0", "id": 5, "result": {}}
        assert len(reporter.errors) == 1

    def test_an_instrumentation_callback_that_raises_changes_no_response(self):
        reporter = Recorder()
        server = Server(configuration=Configuration(instrumentation_callback=self.boom, exception_reporter=reporter))
        assert server.handle(request("ping", id=5)) == {"jsonrpc": "2.0", "id": 5, "result": {}}
        assert server.handle(request("nope", id=6))["error"]["code"] == -32601
        assert len(reporter.errors) == 2

    def test_notification_handlers_that_raise_are_reported_not_raised(self):
        reporter = Recorder()
        server = Server(configuration=Configuration(exception_reporter=reporter))
        server.roots_list_changed_handler(self.boom)
        server.define_custom_method("notifications/custom", handler=self.boom)
        initialize(server)
        assert server.handle(notification("notifications/roots/list_changed")) is None
        assert server.handle(notification("notifications/custom", {"x": 1})) is None
        assert len(reporter.errors) == 2
        assert server.handle(request("ping", id=1))["result"] == {}


class TestJunkResults:
    def server(self) -> Server:
        reporter = Recorder()
        server = Server(
            name="junk",
            resources=[Resource(uri="file:///a", name="a")],
            configuration=Configuration(exception_reporter=reporter),
        )
        server.junk = None  # type: ignore[attr-defined]

        @server.define_tool(name="nan")
        def nan(args: dict[str, t.Any]) -> t.Any:
            return {"structuredContent": {"value": math.nan}}

        @server.define_tool(name="object")
        def object_(args: dict[str, t.Any]) -> t.Any:
            return {"content": [{"type": "text", "text": object()}]}

        @server.define_tool(name="deep")
        def deep(args: dict[str, t.Any]) -> t.Any:
            return {"structuredContent": {"deep": nested_past_the_recursion_limit()}}

        @server.define_tool(name="huge")
        def huge(args: dict[str, t.Any]) -> t.Any:
            return "x" * 5_000_000

        server.completion_handler(lambda params: server.junk)  # type: ignore[attr-defined]
        server.resources_read_handler(lambda params: server.junk)  # type: ignore[attr-defined]
        server.define_prompt("p", handler=lambda args: server.junk)  # type: ignore[attr-defined]
        initialize(server)
        return server

    @pytest.mark.parametrize(
        "tool, told",
        [
            ("nan", "Tool nan returned structured content that is not JSON (a value JSON cannot carry, or nested too deep)"),
            ("object", "Tool object returned a 'text' content block without a string 'text'"),
            ("deep", "Tool deep returned structured content that is not JSON (a value JSON cannot carry, or nested too deep)"),
        ],
    )
    def test_a_result_json_cannot_carry_is_reported_and_the_client_told_in_the_sdks_words(self, tool, told):
        server = self.server()
        text = server.handle_json(json.dumps(call_tool(tool, id=9)))
        assert text is not None
        assert json.loads(text) == {
            "jsonrpc": "2.0",
            "id": 9,
            "result": {"content": [{"type": "text", "text": told}], "isError": True},
        }
        (error,) = server.configuration.exception_reporter.errors  # type: ignore[union-attr]
        assert isinstance(error, TypeError) and f"Tool {tool} returned" in str(error)

    def test_a_huge_result_is_answered_whole(self):
        text = self.server().handle_json(json.dumps(call_tool("huge")))
        assert text is not None
        assert len(json.loads(text)["result"]["content"][0]["text"]) == 5_000_000

    @pytest.mark.parametrize(
        "junk",
        [
            5,
            {"completion": 5},
            {"completion": {"values": [1, None]}},
            {"completion": {"values": "abc"}},
            {"values": list(range(10_000))},
            {"completion": {"values": ["a"], "total": "many"}},
            {"completion": {"values": ["a"], "hasMore": "no"}},
        ],
    )
    def test_a_completion_handler_returning_junk_gives_an_internal_error(self, junk):
        server = self.server()
        server.junk = junk  # type: ignore[attr-defined]
        params = {"ref": {"type": "ref/resource", "uri": "file:///a"}, "argument": {"name": "a", "value": ""}}
        assert server.handle(request("completion/complete", params))["error"]["code"] == INTERNAL_ERROR

    def test_ten_thousand_completions_are_cut_to_a_hundred(self):
        server = self.server()
        server.junk = {"values": [str(i) for i in range(10_000)]}  # type: ignore[attr-defined]
        params = {"ref": {"type": "ref/resource", "uri": "file:///a"}, "argument": {"name": "a", "value": ""}}
        completion = server.handle(request("completion/complete", params))["result"]["completion"]
        assert len(completion["values"]) == 100
        assert completion["total"] == 10_000 and completion["hasMore"] is True

    @pytest.mark.parametrize("junk", [5, "text", {"a": 1}, [{"text": "no uri"}], [5], {"contents": 5}, [object()]])
    def test_a_read_handler_returning_junk_gives_an_internal_error(self, junk):
        server = self.server()
        server.junk = junk  # type: ignore[attr-defined]
        assert server.handle(request("resources/read", {"uri": "file:///a"}))["error"]["code"] == INTERNAL_ERROR

    @pytest.mark.parametrize("junk", [None, 5, "text", {"messages": 5}, {"other": 1}])
    def test_a_prompt_returning_junk_gives_an_internal_error(self, junk):
        server = self.server()
        server.junk = junk  # type: ignore[attr-defined]
        assert server.handle(request("prompts/get", {"name": "p"}))["error"]["code"] == INTERNAL_ERROR


class TestOddInput:
    @pytest.mark.parametrize("request_id", [10**100, -(10**30), "x" * 100_000, ""])
    def test_big_and_long_ids_are_echoed(self, request_id):
        server = Server()
        text = server.handle_json(json.dumps(request("ping", id=request_id)))
        assert text is not None and json.loads(text)["id"] == request_id

    @pytest.mark.parametrize("method", ["tools/call", "prompts/get", "resources/read", "initialize", "completion/complete"])
    def test_array_params_for_protocol_methods_are_invalid_params(self, method):
        server = Server()
        if method != "initialize":
            initialize(server)
        assert server.handle(request(method, [1, 2]))["error"]["code"] == INVALID_PARAMS

    @pytest.mark.parametrize("cursor", ["9" * 5000, "1" * 19, "-1", "1e3", "１", 5, None])
    def test_bad_cursors_are_invalid_params(self, cursor):
        server = Server(page_size=1)
        server.define_tool("a", handler=lambda args: "a")
        server.define_tool("b", handler=lambda args: "b")
        response = server.handle(request("tools/list", {"cursor": cursor}))
        if cursor is None:
            assert response["result"]["nextCursor"] == "1"
        else:
            assert response["error"]["code"] == INVALID_PARAMS
            assert len(response["error"]["message"]) < 200

    def test_deeply_nested_arguments_are_answered(self):
        server = Server()
        server.define_tool("t", handler=lambda args: "ok", input_schema={"properties": {"x": {"type": "array"}}})
        nested: list[t.Any] = []
        node = nested
        for _ in range(5_000):
            node.append([])
            node = node[0]
        response = server.handle(call_tool("t", {"x": nested, "unknown": {"deep": True}}, id=2, extra="field"))
        assert response["id"] == 2 and ("result" in response or response["error"]["code"] in (INVALID_PARAMS, INTERNAL_ERROR))


class TestListingWhileRegistering:
    def test_a_listing_built_while_a_tool_is_added_is_not_cached_stale(self):
        server = Server(name="race")
        building, added = threading.Event(), threading.Event()

        class SlowTool(Tool):
            tool_name = "slow"

            @classmethod
            def call(cls):
                return None

            @classmethod
            def to_dict(cls) -> dict[str, t.Any]:
                entry = super().to_dict()
                if not building.is_set():
                    building.set()
                    added.wait(TIMEOUT)  # add_tool runs on another thread now
                return entry

        server.add_tool(SlowTool)
        listing = in_background(lambda: server.handle(request("tools/list")))
        assert building.wait(TIMEOUT)
        server.define_tool("late", handler=lambda args: "late")
        added.set()
        listing.result(TIMEOUT)
        names = [tool["name"] for tool in server.handle(request("tools/list", id=2))["result"]["tools"]]
        assert names == ["slow", "late"]

    def test_concurrent_listing_and_registration_ends_with_every_tool_listed(self):
        server = Server(name="race", page_size=7)
        stop = threading.Event()

        def lister() -> None:
            while not stop.is_set():
                server.handle(request("tools/list"))

        threads = [threading.Thread(target=lister, name=f"lister-{i}", daemon=True) for i in range(3)]
        for thread in threads:
            thread.start()
        for i in range(200):
            server.define_tool(f"tool_{i}", handler=lambda args: "x")
        stop.set()
        for thread in threads:
            thread.join(TIMEOUT)
        names: list[str] = []
        cursor = None
        while True:
            params = {"cursor": cursor} if cursor else None
            result = server.handle(request("tools/list", params))["result"]
            names += [tool["name"] for tool in result["tools"]]
            cursor = result.get("nextCursor")
            if cursor is None:
                break
        assert names == [f"tool_{i}" for i in range(200)]


class TestServerToClientRequests:
    def sampling_server(self, timeout: float = TIMEOUT) -> Server:
        server = Server(name="asker", configuration=Configuration(server_request_timeout=timeout))

        @server.define_tool(name="ask")
        def ask(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
            return json.dumps(server_context.ping())

        return server

    def test_a_response_arriving_twice_or_late_is_dropped(self):
        server = self.sampling_server(timeout=0.2)
        session, capture = connect(server)
        future = in_background(lambda: session.handle(call_tool("ask", id=1)))
        ping = capture.wait_for("ping")[0]
        session.handle(Capture.result_for(ping, {}))
        session.handle(Capture.result_for(ping, {"second": True}))
        assert future.result(TIMEOUT)["result"]["content"][0]["text"] == "{}"

        late = in_background(lambda: session.handle(call_tool("ask", id=2)))
        second_ping = capture.wait_for("ping", 2)[1]
        assert late.result(TIMEOUT)["result"]["isError"] is True  # timed out
        assert session.handle(Capture.result_for(second_ping, {})) is None  # after the timeout: dropped
        assert session._pending == {} and session.in_flight_count == 0

    def test_closing_the_session_frees_tools_waiting_on_the_client(self):
        server = self.sampling_server()
        session, capture = connect(server)
        futures = [in_background(lambda i=i: session.handle(call_tool("ask", id=i))) for i in range(5)]
        capture.wait_for("ping", 5)
        session.close()
        for future in futures:
            assert future.result(TIMEOUT) is None  # cancelled by the close: nothing to send
        assert session._pending == {} and session.in_flight_count == 0

    def test_a_cancellation_callback_that_raises_does_not_stop_close(self):
        server = self.sampling_server()
        registered = threading.Event()

        @server.define_tool(name="fragile")
        def fragile(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
            server_context.cancellation.add_callback(lambda token: 1 / 0)
            registered.set()
            server_context.cancellation.wait(TIMEOUT)
            return "x"

        session, capture = connect(server)
        fragile_call = in_background(lambda: session.handle(call_tool("fragile", id="f")))
        assert registered.wait(TIMEOUT)
        asking = in_background(lambda: session.handle(call_tool("ask", id="a")))
        capture.wait_for("ping")
        session.close()
        assert fragile_call.result(TIMEOUT) is None
        assert asking.result(TIMEOUT) is None
        assert session not in server.sessions and session._pending == {}

    def test_a_request_after_close_fails_at_once(self):
        server = self.sampling_server()
        session, _ = connect(server)
        session.close()
        with pytest.raises(TransportError):
            session.send_request("ping", timeout=TIMEOUT)
        assert session._pending == {}

    def test_a_request_starting_after_close_starts_cancelled(self):
        server, _ = blocking_server()
        session, _ = connect(server)
        session.close()
        assert session.handle(call_tool("block", id=1)) is None  # no wait for TIMEOUT, no response
        assert session.in_flight_count == 0


class TestNoLeaks:
    def test_many_requests_leave_no_tracked_state_or_threads(self):
        server = Server(name="leak", configuration=Configuration(server_request_timeout=0.05))

        @server.define_tool(name="ask")
        def ask(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
            try:
                server_context.ping()
            except Exception as error:  # timed out: no one answers
                return type(error).__name__
            return "answered"

        session, _ = connect(server)
        threads_before = threading.active_count()
        for i in range(20):
            session.handle(call_tool("ask", id=i))
        for i in range(2000):
            session.handle(request("ping", id=i))
            session.handle(cancel(i))
        assert session._pending == {}
        assert session.in_flight_count == 0
        assert threading.active_count() <= threads_before
