"""ServerContext: the user's context plus ``_meta``, progress, logging, cancellation and
server-to-client requests, all bound to the request being handled."""

from __future__ import annotations

import threading

import pytest

import mcp_sdk
from mcp_sdk import CancelledError, CapabilityError, Configuration, JSONRPCError, RequestTimeoutError, Server, ServerContext, Tool
from mcp_sdk.cancellation import Cancellation
from spec.support.server_helpers import (
    TIMEOUT,
    VERSIONS,
    Capture,
    assert_valid_message,
    call_tool,
    connect,
    in_background,
    notification,
    request,
)
from spec.support.wire_schema import assert_valid, assert_valid_response

TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"


def context_seen_by(server: Server, params_meta=None):
    """Call a tool that records its server_context; return what it saw."""
    seen = []

    @server.define_tool(name="record")
    def record(args, server_context):
        seen.append(server_context)
        return "ok"

    extra = {"_meta": params_meta} if params_meta is not None else {}
    response = server.handle(call_tool("record", {}, **extra))
    assert response["result"]["isError"] is False, response
    return seen[0]


class TestMapping:
    def test_the_users_context_reads_like_a_dict(self):
        context = context_seen_by(Server(server_context={"user_id": 42, "request_id": "r-1"}))
        assert isinstance(context, ServerContext)
        assert context["user_id"] == 42
        assert context.get("request_id") == "r-1"
        assert context.get("missing") is None
        assert "user_id" in context
        assert dict(context) == {"user_id": 42, "request_id": "r-1"}
        assert context == {"user_id": 42, "request_id": "r-1"}
        assert len(context) == 2

    def test_the_requests_meta_arrives_under_underscore_meta(self):
        context = context_seen_by(Server(server_context={"user_id": 42}), {"session_id": "abc123", "request_id": "req_456"})
        assert dict(context) == {"user_id": 42, "_meta": {"session_id": "abc123", "request_id": "req_456"}}
        assert context["_meta"]["session_id"] == "abc123"

    def test_trace_context_keys_pass_through_untouched(self):
        meta = {
            mcp_sdk.TraceContext.TRACEPARENT_META_KEY: TRACEPARENT,
            mcp_sdk.TraceContext.TRACESTATE_META_KEY: "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE",
            mcp_sdk.TraceContext.BAGGAGE_META_KEY: "userId=alice,serverNode=DF%2028",
        }
        context = context_seen_by(Server(), dict(meta))
        assert context["_meta"] == meta
        assert context.meta == meta

    def test_without_a_server_context_meta_is_synthesized(self):
        context = context_seen_by(Server(), {"k": "v"})
        assert dict(context) == {"_meta": {"k": "v"}}

    def test_without_context_or_meta_it_is_empty(self):
        assert dict(context_seen_by(Server())) == {}

    def test_the_servers_own_dict_is_not_modified(self):
        user_context = {"user_id": 1}
        context_seen_by(Server(server_context=user_context), {"k": "v"})
        assert user_context == {"user_id": 1}

    def test_a_non_dict_context_is_reachable_but_meta_is_not_merged(self):
        class Account:
            user_id = 7

        account = Account()
        context = context_seen_by(Server(server_context=account), {"k": "v"})
        assert context.context is account
        assert context.user_id == 7
        assert "_meta" not in context
        with pytest.raises(AttributeError):
            context.nonexistent

    def test_it_is_read_only(self):
        context = context_seen_by(Server(server_context={"a": 1}))
        with pytest.raises(TypeError):
            context["a"] = 2  # type: ignore[index]

    def test_each_request_gets_its_own_meta(self):
        server = Server(server_context={"user_id": 1})
        seen = []
        server.define_tool(name="record", handler=lambda args, server_context: seen.append(server_context) or "ok")
        server.handle(call_tool("record", {}, id=1, _meta={"n": 1}))
        server.handle(call_tool("record", {}, id=2))
        assert seen[0]["_meta"] == {"n": 1}
        assert "_meta" not in seen[1]
        assert (seen[0].request_id, seen[1].request_id) == (1, 2)


class TestOptIn:
    def test_a_tool_without_a_server_context_parameter_gets_none(self):
        calls = []

        class PlainTool(Tool):
            @classmethod
            def call(cls, value=None):
                calls.append(value)
                return "ok"

        Server(tools=[PlainTool], server_context={"a": 1}).handle(call_tool("plain_tool", {"value": 3}))
        assert calls == [3]

    def test_a_tool_with_keyword_arguments_gets_the_context(self):
        calls = []

        class KwargsTool(Tool):
            @classmethod
            def call(cls, **kwargs):
                calls.append(kwargs)
                return "ok"

        Server(tools=[KwargsTool], server_context={"a": 1}).handle(call_tool("kwargs_tool", {"x": 1}))
        assert calls[0]["x"] == 1
        assert calls[0]["server_context"] == {"a": 1}

    def test_a_prompt_template_may_take_the_context(self):
        server = Server(server_context={"name": "Ann"})

        @server.define_prompt(name="greet")
        def greet(args, server_context):
            return mcp_sdk.Prompt.Result(
                messages=[mcp_sdk.Prompt.Message(role="user", content=mcp_sdk.Content.Text(f"Hi {server_context['name']}"))]
            )

        result = server.handle(request("prompts/get", {"name": "greet"}))["result"]
        assert result == {"messages": [{"role": "user", "content": {"type": "text", "text": "Hi Ann"}}]}


class ProgressTool(Tool):
    input_schema = {"properties": {"count": {"type": "integer"}}, "required": ["count"]}

    @classmethod
    def call(cls, count, server_context):
        for i in range(count):
            server_context.report_progress(i + 1, total=count, message=f"Processing item {i + 1}")
        return "Done"


class TestReportProgress:
    @pytest.mark.parametrize("token", ["my-progress-token", 0, 17])
    def test_progress_goes_to_the_requesting_client_with_its_token(self, token):
        server = Server(tools=[ProgressTool])
        session, capture = connect(server)
        other, other_capture = connect(server)
        session.handle(call_tool("progress_tool", {"count": 2}, id="call-1", _meta={"progressToken": token}))
        assert capture.notifications() == [
            {
                "jsonrpc": "2.0",
                "method": "notifications/progress",
                "params": {"progressToken": token, "progress": 1, "total": 2, "message": "Processing item 1"},
            },
            {
                "jsonrpc": "2.0",
                "method": "notifications/progress",
                "params": {"progressToken": token, "progress": 2, "total": 2, "message": "Processing item 2"},
            },
        ]
        assert capture.related_ids("notifications/progress") == ["call-1", "call-1"]
        assert other_capture.messages == []

    def test_without_a_progress_token_it_is_a_no_op(self):
        session, capture = connect(Server(tools=[ProgressTool]))
        response = session.handle(call_tool("progress_tool", {"count": 3}))
        assert response["result"]["content"] == [{"type": "text", "text": "Done"}]
        assert capture.messages == []

    def test_total_and_message_are_optional(self):
        server = Server()
        server.define_tool(name="p", handler=lambda args, server_context: server_context.report_progress(0.5) or "ok")
        session, capture = connect(server)
        session.handle(call_tool("p", {}, _meta={"progressToken": "t"}))
        assert capture.notifications() == [
            {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t", "progress": 0.5}}
        ]

    @pytest.mark.parametrize("version", VERSIONS)
    def test_progress_is_valid_in_every_version(self, version):
        session, capture = connect(Server(tools=[ProgressTool]), version)
        session.handle(call_tool("progress_tool", {"count": 1}, _meta={"progressToken": "t"}))
        (progress,) = capture.notifications("notifications/progress")
        assert_valid_message(progress, "ProgressNotification", version)
        assert ("message" in progress["params"]) is (version != "2024-11-05")

    def test_a_context_without_a_session_ignores_progress(self):
        ServerContext({}, progress_token="t").report_progress(1)


class LoggingTool(Tool):
    @classmethod
    def call(cls, server_context):
        server_context.notify_log_message(data="debugging", level="debug")
        server_context.notify_log_message(data={"error": "db down"}, level="error", logger="db")
        return "ok"


class TestNotifyLogMessage:
    def test_nothing_is_sent_until_the_client_sets_a_level(self):
        session, capture = connect(Server(tools=[LoggingTool]))
        session.handle(call_tool("logging_tool"))
        assert capture.messages == []

    def test_messages_below_the_clients_level_are_filtered(self):
        server = Server(tools=[LoggingTool])
        session, capture = connect(server)
        session.handle(request("logging/setLevel", {"level": "warning"}))
        session.handle(call_tool("logging_tool", id=9))
        assert capture.messages == [
            {
                "jsonrpc": "2.0",
                "method": "notifications/message",
                "params": {"level": "error", "data": {"error": "db down"}, "logger": "db"},
            }
        ]
        assert capture.related_ids("notifications/message") == [9]

    def test_debug_lets_everything_through(self):
        session, capture = connect(Server(tools=[LoggingTool]))
        session.handle(request("logging/setLevel", {"level": "debug"}))
        session.handle(call_tool("logging_tool"))
        assert [m["params"]["level"] for m in capture.notifications("notifications/message")] == ["debug", "error"]

    def test_only_the_requesting_client_gets_them(self):
        server = Server(tools=[LoggingTool])
        session, capture = connect(server)
        other, other_capture = connect(server)
        for each in (session, other):
            each.handle(request("logging/setLevel", {"level": "debug"}))
        session.handle(call_tool("logging_tool"))
        assert len(capture.messages) == 2
        assert other_capture.messages == []

    def test_an_unknown_level_is_a_value_error(self):
        session, _ = connect(Server())
        with pytest.raises(ValueError):
            session.notify_log_message(data="x", level="loud")


class TestOtherNotifications:
    def test_notify_resources_updated(self):
        server = Server()
        server.define_tool(
            name="touch", handler=lambda args, server_context: server_context.notify_resources_updated(uri="file:///a") or "ok"
        )
        session, capture = connect(server)
        session.handle(call_tool("touch"))
        assert capture.messages == [
            {"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": "file:///a"}}
        ]
        for version in VERSIONS:
            assert_valid_message(capture.messages[0], "ResourceUpdatedNotification", version)

    def test_notify_elicitation_complete(self):
        server = Server()
        server.define_tool(
            name="done", handler=lambda args, server_context: server_context.notify_elicitation_complete(elicitation_id="e-1") or "ok"
        )
        session, capture = connect(server)
        session.handle(call_tool("done"))
        assert capture.messages == [
            {"jsonrpc": "2.0", "method": "notifications/elicitation/complete", "params": {"elicitationId": "e-1"}}
        ]
        assert_valid_message(capture.messages[0], "ElicitationCompleteNotification", "2025-11-25")


class CountingTool(Tool):
    """Works until cancelled; tells the test when it started."""

    started = threading.Event()
    observed: list[str] = []

    @classmethod
    def call(cls, server_context):
        cls.started.set()
        server_context.cancellation.wait(TIMEOUT)
        cls.observed.append("cancelled" if server_context.cancelled() else "finished")
        return "Done"


class RaisingTool(Tool):
    started = threading.Event()

    @classmethod
    def call(cls, server_context):
        cls.started.set()
        server_context.cancellation.wait(TIMEOUT)
        server_context.raise_if_cancelled()
        return "not reached"


@pytest.fixture(autouse=True)
def _reset_tool_state():
    CountingTool.started = threading.Event()
    CountingTool.observed = []
    RaisingTool.started = threading.Event()


class TestCancellation:
    def test_a_cancelled_request_gets_no_response(self):
        session, capture = connect(Server(tools=[CountingTool]))
        pending = in_background(lambda: session.handle(call_tool("counting_tool", id="slow")))
        assert CountingTool.started.wait(TIMEOUT)
        assert session.in_flight_count == 1
        session.handle(notification("notifications/cancelled", {"requestId": "slow", "reason": "User requested"}))
        assert pending.result(TIMEOUT) is None
        assert CountingTool.observed == ["cancelled"]
        assert session.in_flight_count == 0
        assert capture.messages == []

    def test_raise_if_cancelled_raises_and_the_response_is_suppressed(self):
        around_data = []

        def around(data, request_handler):
            result = request_handler()
            around_data.append(dict(data))
            return result

        session, _ = connect(Server(tools=[RaisingTool], configuration=Configuration(around_request=around)))
        pending = in_background(lambda: session.handle(call_tool("raising_tool", id=0)))
        assert RaisingTool.started.wait(TIMEOUT)
        session.handle(notification("notifications/cancelled", {"requestId": 0}))
        assert pending.result(TIMEOUT) is None
        assert around_data[-1]["error"] == "cancelled"

    def test_a_cancellation_for_another_id_leaves_the_request_alone(self):
        session, _ = connect(Server(tools=[CountingTool]))
        pending = in_background(lambda: session.handle(call_tool("counting_tool", id=1)))
        assert CountingTool.started.wait(TIMEOUT)
        session.handle(notification("notifications/cancelled", {"requestId": "1"}))
        session.handle(notification("notifications/cancelled", {"requestId": 2}))
        assert not pending.done()
        assert session.cancel_request(1) is True
        assert pending.result(TIMEOUT) is None

    def test_a_cancellation_from_another_session_does_not_reach_the_request(self):
        server = Server(tools=[CountingTool])
        session, _ = connect(server)
        other, _ = connect(server)
        pending = in_background(lambda: session.handle(call_tool("counting_tool", id=1)))
        assert CountingTool.started.wait(TIMEOUT)
        other.handle(notification("notifications/cancelled", {"requestId": 1}))
        assert not pending.done()
        session.close()
        assert pending.result(TIMEOUT) is None

    def test_a_finished_request_cannot_be_cancelled(self):
        session, _ = connect(Server())
        session.handle(request("ping", id=1))
        assert session.cancel_request(1) is False

    def test_initialize_is_never_cancellable(self):
        entered, release = threading.Event(), threading.Event()

        def around(data, request_handler):
            if data["method"] == "initialize":
                entered.set()
                release.wait(TIMEOUT)
            return request_handler()

        server = Server(configuration=Configuration(around_request=around))
        session, _ = connect(server, initialized=False)
        pending = in_background(
            lambda: session.handle(
                request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}, id="init")
            )
        )
        assert entered.wait(TIMEOUT)
        session.handle(notification("notifications/cancelled", {"requestId": "init"}))
        assert session.cancel_request("init") is False
        release.set()
        assert pending.result(TIMEOUT)["result"]["protocolVersion"] == "2025-11-25"

    def test_closing_the_session_cancels_what_is_in_flight(self):
        session, _ = connect(Server(tools=[CountingTool]))
        pending = in_background(lambda: session.handle(call_tool("counting_tool")))
        assert CountingTool.started.wait(TIMEOUT)
        session.close()
        assert pending.result(TIMEOUT) is None
        assert CountingTool.observed == ["cancelled"]

    def test_cancelled_and_raise_if_cancelled_on_the_context(self):
        token = Cancellation()
        context = ServerContext({}, cancellation=token)
        assert context.cancelled() is False
        context.raise_if_cancelled()
        token.cancel("stop")
        assert context.cancelled() is True
        with pytest.raises(CancelledError) as raised:
            context.raise_if_cancelled()
        assert raised.value.reason == "stop"

    def test_other_handlers_observe_cancellation_too(self):
        server = Server()
        entered = threading.Event()

        @server.define_custom_method(method_name="custom/slow")
        def slow(params, server_context):
            entered.set()
            server_context.cancellation.wait(TIMEOUT)
            server_context.raise_if_cancelled()
            return "finished"

        session, _ = connect(server)
        pending = in_background(lambda: session.handle(request("custom/slow", id=5)))
        assert entered.wait(TIMEOUT)
        session.handle(notification("notifications/cancelled", {"requestId": 5}))
        assert pending.result(TIMEOUT) is None


# -- server-to-client requests -------------------------------------------------

ROOTS = {"roots": [{"uri": "file:///home/user/project", "name": "Project"}]}
SAMPLED = {"role": "assistant", "content": {"type": "text", "text": "A summary"}, "model": "test-model", "stopReason": "endTurn"}
ACCEPTED = {"action": "accept", "content": {"name": "Ann"}}


def answering(results):
    """A Capture answer: the canned result for each method."""
    return lambda server_request: Capture.result_for(server_request, results[server_request["method"]])


def tool_server(body):
    """A server with one tool, ``ask``, whose body is ``body(server_context)``; it returns repr of the result."""
    server = Server()
    outcomes = []

    @server.define_tool(name="ask")
    def ask(args, server_context):
        try:
            outcomes.append(body(server_context))
        except Exception as error:
            outcomes.append(error)
        return "asked"

    return server, outcomes


class TestListRoots:
    def test_the_client_answers_roots(self):
        server, outcomes = tool_server(lambda ctx: ctx.list_roots())
        session, capture = connect(server, capabilities={"roots": {"listChanged": True}}, answer=answering({"roots/list": ROOTS}))
        session.handle(call_tool("ask", id="parent"))
        assert outcomes == [ROOTS]
        (sent,) = capture.requests()
        assert sent == {"jsonrpc": "2.0", "id": sent["id"], "method": "roots/list"}
        assert capture.related_ids("roots/list") == ["parent"]
        for version in VERSIONS:
            assert_valid_message(sent, "ListRootsRequest", version)
            assert_valid("ListRootsResult", ROOTS, version)

    def test_a_client_without_roots_gets_a_capability_error(self):
        server, outcomes = tool_server(lambda ctx: ctx.list_roots())
        session, capture = connect(server, capabilities={"sampling": {}})
        session.handle(call_tool("ask"))
        assert isinstance(outcomes[0], CapabilityError)
        assert "roots" in str(outcomes[0])
        assert capture.messages == []


class TestSampling:
    def test_a_sampling_request_with_every_option(self):
        def body(ctx):
            return ctx.create_sampling_message(
                messages=[{"role": "user", "content": {"type": "text", "text": "Please summarize"}}],
                max_tokens=500,
                system_prompt="Be brief",
                model_preferences={"intelligencePriority": 0.8},
                include_context="thisServer",
                temperature=0.2,
                stop_sequences=["\n\n"],
                metadata={"trace": "x"},
            )

        server, outcomes = tool_server(body)
        session, capture = connect(server, capabilities={"sampling": {}}, answer=answering({"sampling/createMessage": SAMPLED}))
        session.handle(call_tool("ask"))
        assert outcomes == [SAMPLED]
        (sent,) = capture.requests()
        assert sent["params"] == {
            "messages": [{"role": "user", "content": {"type": "text", "text": "Please summarize"}}],
            "maxTokens": 500,
            "systemPrompt": "Be brief",
            "modelPreferences": {"intelligencePriority": 0.8},
            "includeContext": "thisServer",
            "temperature": 0.2,
            "stopSequences": ["\n\n"],
            "metadata": {"trace": "x"},
        }
        for version in VERSIONS:
            assert_valid_message(sent, "CreateMessageRequest", version)

    def test_only_the_required_fields_by_default(self):
        server, _ = tool_server(lambda ctx: ctx.create_sampling_message(messages=[], max_tokens=5))
        session, capture = connect(server, capabilities={"sampling": {}}, answer=answering({"sampling/createMessage": SAMPLED}))
        session.handle(call_tool("ask"))
        assert capture.requests()[0]["params"] == {"messages": [], "maxTokens": 5}

    def test_tools_in_sampling_need_sampling_tools(self):
        sampling_tools = [{"name": "search", "inputSchema": {"type": "object"}}]
        server, outcomes = tool_server(
            lambda ctx: ctx.create_sampling_message(messages=[], max_tokens=5, tools=sampling_tools, tool_choice={"mode": "auto"})
        )
        session, capture = connect(server, capabilities={"sampling": {}})
        session.handle(call_tool("ask"))
        assert isinstance(outcomes[0], CapabilityError)
        assert "sampling.tools" in str(outcomes[0])
        assert capture.messages == []

        server, outcomes = tool_server(
            lambda ctx: ctx.create_sampling_message(messages=[], max_tokens=5, tools=sampling_tools, tool_choice={"mode": "auto"})
        )
        session, capture = connect(
            server, capabilities={"sampling": {"tools": {}}}, answer=answering({"sampling/createMessage": SAMPLED})
        )
        session.handle(call_tool("ask"))
        assert outcomes == [SAMPLED]
        assert capture.requests()[0]["params"] == {
            "messages": [],
            "maxTokens": 5,
            "tools": sampling_tools,
            "toolChoice": {"mode": "auto"},
        }
        assert_valid_message(capture.requests()[0], "CreateMessageRequest", "2025-11-25")

    def test_a_client_without_sampling_gets_a_capability_error(self):
        server, outcomes = tool_server(lambda ctx: ctx.create_sampling_message(messages=[], max_tokens=5))
        session, capture = connect(server, capabilities={"roots": {}})
        session.handle(call_tool("ask"))
        assert isinstance(outcomes[0], CapabilityError)
        assert isinstance(outcomes[0], mcp_sdk.MCPError)
        assert capture.messages == []

    def test_a_client_error_response_raises_json_rpc_error(self):
        server, outcomes = tool_server(lambda ctx: ctx.create_sampling_message(messages=[], max_tokens=5))
        session, _ = connect(
            server,
            capabilities={"sampling": {}},
            answer=lambda r: Capture.error_for(r, -1, "User rejected sampling request", {"why": "no"}),
        )
        session.handle(call_tool("ask"))
        (error,) = outcomes
        assert isinstance(error, JSONRPCError)
        assert (error.code, error.message, error.data) == (-1, "User rejected sampling request", {"why": "no"})

    def test_no_answer_in_time_raises_request_timeout_and_cancels_the_nested_request(self):
        server, outcomes = tool_server(lambda ctx: ctx.create_sampling_message(messages=[], max_tokens=5, timeout=0.05))
        session, capture = connect(server, capabilities={"sampling": {}})
        session.handle(call_tool("ask", id="parent"))
        (error,) = outcomes
        assert isinstance(error, RequestTimeoutError)
        assert isinstance(error, TimeoutError)
        (sent,) = capture.requests()
        assert capture.notifications("notifications/cancelled") == [
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": sent["id"], "reason": "Request timed out"}}
        ]

    def test_the_configured_server_request_timeout_is_the_default(self):
        server = Server(configuration=Configuration(server_request_timeout=0.05))
        outcomes = []

        @server.define_tool(name="ask")
        def ask(args, server_context):
            try:
                server_context.list_roots()
            except RequestTimeoutError as error:
                outcomes.append(error)
            return "ok"

        session, _ = connect(server, capabilities={"roots": {}})
        session.handle(call_tool("ask"))
        assert len(outcomes) == 1

    def test_cancelling_the_parent_cancels_the_nested_request(self):
        waiting = threading.Event()
        server, outcomes = tool_server(lambda ctx: (waiting.set(), ctx.create_sampling_message(messages=[], max_tokens=5))[1])
        session, capture = connect(server, capabilities={"sampling": {}})
        pending = in_background(lambda: session.handle(call_tool("ask", id="parent")))
        (nested,) = capture.wait_for("sampling/createMessage")
        session.handle(notification("notifications/cancelled", {"requestId": "parent", "reason": "User gave up"}))
        assert pending.result(TIMEOUT) is None
        assert isinstance(outcomes[0], CancelledError)
        assert capture.notifications("notifications/cancelled") == [
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": nested["id"], "reason": "User gave up"}}
        ]
        assert capture.related_ids("notifications/cancelled") == ["parent"]
        # A late answer to the abandoned request is dropped quietly.
        assert session.handle(Capture.result_for(nested, SAMPLED)) is None

    def test_the_answer_may_come_from_another_thread_while_the_tool_waits(self):
        server, outcomes = tool_server(lambda ctx: ctx.create_sampling_message(messages=[], max_tokens=5))
        session, capture = connect(server, capabilities={"sampling": {}})
        pending = in_background(lambda: session.handle(call_tool("ask", id=3)))
        (nested,) = capture.wait_for("sampling/createMessage")
        assert session.handle({"jsonrpc": "2.0", "id": [nested["id"]], "result": {}}) is None  # not its id: dropped
        session.handle(Capture.result_for(nested, SAMPLED))
        assert pending.result(TIMEOUT) == {
            "jsonrpc": "2.0",
            "id": 3,
            "result": {"content": [{"type": "text", "text": "asked"}], "isError": False},
        }
        assert outcomes == [SAMPLED]

    def test_concurrent_tool_calls_get_their_own_answers(self):
        server = Server()

        @server.define_tool(name="ask")
        def ask(args, server_context):
            result = server_context.create_sampling_message(
                messages=[{"role": "user", "content": {"type": "text", "text": args["q"]}}], max_tokens=5
            )
            return result["content"]["text"]

        def echo(server_request):
            question = server_request["params"]["messages"][0]["content"]["text"]
            return Capture.result_for(server_request, {**SAMPLED, "content": {"type": "text", "text": question.upper()}})

        session, _ = connect(server, capabilities={"sampling": {}}, answer=echo)
        futures = [in_background(lambda q=q: session.handle(call_tool("ask", {"q": q}, id=q))) for q in ("a", "b", "c")]
        texts = [f.result(TIMEOUT)["result"]["content"][0]["text"] for f in futures]
        assert texts == ["A", "B", "C"]


class TestElicitation:
    SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}

    def test_form_elicitation_in_2025_11_25_names_its_mode(self):
        server, outcomes = tool_server(lambda ctx: ctx.create_form_elicitation(message="Your name?", requested_schema=self.SCHEMA))
        session, capture = connect(server, capabilities={"elicitation": {}}, answer=answering({"elicitation/create": ACCEPTED}))
        session.handle(call_tool("ask"))
        assert outcomes == [ACCEPTED]
        (sent,) = capture.requests()
        assert sent["params"] == {"mode": "form", "message": "Your name?", "requestedSchema": self.SCHEMA}
        assert_valid_message(sent, "ElicitRequest", "2025-11-25")
        assert_valid("ElicitResult", ACCEPTED, "2025-11-25")

    def test_form_elicitation_in_2025_06_18_has_no_mode(self):
        server, outcomes = tool_server(lambda ctx: ctx.create_form_elicitation(message="Your name?", requested_schema=self.SCHEMA))
        session, capture = connect(
            server, "2025-06-18", capabilities={"elicitation": {}}, answer=answering({"elicitation/create": ACCEPTED})
        )
        session.handle(call_tool("ask"))
        assert outcomes == [ACCEPTED]
        assert capture.requests()[0]["params"] == {"message": "Your name?", "requestedSchema": self.SCHEMA}
        assert_valid_message(capture.requests()[0], "ElicitRequest", "2025-06-18")

    def test_url_elicitation(self):
        server, outcomes = tool_server(
            lambda ctx: ctx.create_url_elicitation(
                message="Authorize GitHub", url="https://example.com/oauth?e=1", elicitation_id="e-1"
            )
        )
        session, capture = connect(
            server, capabilities={"elicitation": {"url": {}}}, answer=answering({"elicitation/create": {"action": "accept"}})
        )
        session.handle(call_tool("ask"))
        assert outcomes == [{"action": "accept"}]
        (sent,) = capture.requests()
        assert sent["params"] == {
            "mode": "url",
            "message": "Authorize GitHub",
            "url": "https://example.com/oauth?e=1",
            "elicitationId": "e-1",
        }
        assert_valid_message(sent, "ElicitRequest", "2025-11-25")

    @pytest.mark.parametrize(
        "capabilities, kind",
        [
            ({}, "form"),
            ({"sampling": {}}, "form"),
            ({"elicitation": {"url": {}}}, "form"),
            ({}, "url"),
            ({"elicitation": {}}, "url"),
            ({"elicitation": {"form": {}}}, "url"),
        ],
    )
    def test_a_client_without_the_mode_gets_a_capability_error(self, capabilities, kind):
        def body(ctx):
            if kind == "form":
                return ctx.create_form_elicitation(message="?", requested_schema=self.SCHEMA)
            return ctx.create_url_elicitation(message="?", url="https://example.com", elicitation_id="e")

        server, outcomes = tool_server(body)
        session, capture = connect(server, capabilities=capabilities)
        session.handle(call_tool("ask"))
        assert isinstance(outcomes[0], CapabilityError)
        assert "elicitation" in str(outcomes[0])
        assert capture.messages == []

    def test_a_client_declaring_form_explicitly_gets_form_elicitation(self):
        server, outcomes = tool_server(lambda ctx: ctx.create_form_elicitation(message="?", requested_schema=self.SCHEMA))
        session, _ = connect(
            server, capabilities={"elicitation": {"form": {}, "url": {}}}, answer=answering({"elicitation/create": ACCEPTED})
        )
        session.handle(call_tool("ask"))
        assert outcomes == [ACCEPTED]


class TestPingTheClient:
    def test_ping_returns_the_empty_result(self):
        server, outcomes = tool_server(lambda ctx: ctx.ping())
        session, capture = connect(server, answer=answering({"ping": {}}))
        session.handle(call_tool("ask"))
        assert outcomes == [{}]
        (sent,) = capture.requests()
        assert sent == {"jsonrpc": "2.0", "id": sent["id"], "method": "ping"}
        for version in VERSIONS:
            assert_valid_message(sent, "PingRequest", version)

    def test_a_result_that_is_not_an_object_is_a_validation_error(self):
        server, outcomes = tool_server(lambda ctx: ctx.ping())
        session, _ = connect(server, answer=answering({"ping": "pong"}))
        session.handle(call_tool("ask"))
        assert isinstance(outcomes[0], mcp_sdk.ValidationError)


    def test_the_session_itself_can_ping_outside_any_request(self):
        server = Server(name="s")
        session, capture = connect(server, answer=answering({"ping": {}}))
        assert session.ping(timeout=5) == {}
        (sent,) = capture.requests()
        assert sent == {"jsonrpc": "2.0", "id": sent["id"], "method": "ping"}
        assert capture.related_ids("ping") == [None]

    def test_the_session_ping_refuses_a_result_that_is_not_an_object(self):
        session, _ = connect(Server(name="s"), answer=answering({"ping": [1, 2]}))
        with pytest.raises(Server.ValidationError, match="ping result must be an object"):
            session.ping(timeout=5)

class TestWithoutAConnection:
    def test_requests_need_a_session(self):
        context = ServerContext({"a": 1})
        with pytest.raises(CapabilityError):
            context.list_roots()
        with pytest.raises(CapabilityError):
            context.ping()

    def test_handle_without_a_transport_cannot_ask_the_client(self):
        server, outcomes = tool_server(lambda ctx: ctx.ping())
        response = server.handle(call_tool("ask"))
        assert response["result"]["isError"] is False
        assert isinstance(outcomes[0], mcp_sdk.TransportError)

    def test_notifications_without_a_session_are_dropped(self):
        context = ServerContext({})
        context.notify_log_message(data="x", level="info")
        context.notify_resources_updated(uri="file:///a")
        context.notify_elicitation_complete(elicitation_id="e")

    def test_responses_stay_valid_after_nested_requests(self):
        server, _ = tool_server(lambda ctx: ctx.list_roots())
        session, _ = connect(server, "2025-06-18", capabilities={"roots": {}}, answer=answering({"roots/list": ROOTS}))
        response = session.handle(call_tool("ask"))
        assert_valid_response("tools/call", response, "2025-06-18")


class TestCloseSSEStream:
    def test_false_where_the_transport_cannot_resume(self):
        server, outcomes = tool_server(lambda ctx: ctx.close_sse_stream())
        session, _ = connect(server)
        session.handle(call_tool("ask"))
        assert outcomes == [False]
        assert ServerContext({}).close_sse_stream() is False

    def test_the_transports_closer_gets_the_request_id(self):
        server, outcomes = tool_server(lambda ctx: ctx.close_sse_stream())
        session, _ = connect(server)
        closed = []
        session.stream_closer = lambda request_id: closed.append(request_id) or True
        session.handle(call_tool("ask", id="long-job"))
        assert (outcomes, closed) == ([True], ["long-job"])
