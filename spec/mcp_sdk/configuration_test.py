"""Configuration: hooks (exception_reporter, around_request, instrumentation_callback),
protocol_version, validation switches, and the process-wide default."""

from __future__ import annotations

import pytest

import mcp_sdk
from mcp_sdk import Configuration, Prompt, Resource, Server, Tool
from spec.support.server_helpers import CLIENT_INFO, Recorder, call_tool, connect, notification, request


class AddTool(Tool):
    input_schema = {"properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}

    @classmethod
    def call(cls, a, b):
        return str(a + b)


class HelloPrompt(Prompt):
    @classmethod
    def template(cls, args):
        return Prompt.Result(messages=[])


class TestConfiguration:
    def test_defaults(self):
        config = Configuration()
        assert config.exception_reporter is None
        assert config.around_request is None
        assert config.instrumentation_callback is None
        assert config.protocol_version == "2025-11-25"
        assert config.validate_tool_call_arguments is True
        assert config.validate_tool_call_results is False
        assert config.server_request_timeout == 300.0

    @pytest.mark.parametrize("version", mcp_sdk.SUPPORTED_PROTOCOL_VERSIONS)
    def test_a_supported_protocol_version_is_accepted(self, version):
        assert Configuration(protocol_version=version).protocol_version == version

    @pytest.mark.parametrize("version", ["2024-01-01", "latest", "", 20251125, "2025-11-25 "])
    def test_an_invalid_protocol_version_is_a_value_error(self, version):
        with pytest.raises(ValueError, match="protocol_version"):
            Configuration(protocol_version=version)
        config = Configuration()
        with pytest.raises(ValueError):
            config.protocol_version = version
        with pytest.raises(ValueError):
            mcp_sdk.configure(protocol_version=version)

    def test_none_resets_the_protocol_version_to_the_latest(self):
        config = Configuration(protocol_version="2024-11-05")
        config.protocol_version = None
        assert config.protocol_version == "2025-11-25"

    @pytest.mark.parametrize("name", ["exception_reporter", "around_request", "instrumentation_callback"])
    def test_hooks_must_be_callable_or_none(self, name):
        with pytest.raises(TypeError, match=name):
            Configuration(**{name: "not callable"})
        config = Configuration(**{name: print})
        setattr(config, name, None)
        assert getattr(config, name) is None

    @pytest.mark.parametrize("timeout", [0, -1, "5", True, None])
    def test_server_request_timeout_must_be_a_positive_number(self, timeout):
        with pytest.raises(ValueError):
            Configuration(server_request_timeout=timeout)

    def test_merge_lets_the_other_configuration_win_where_it_sets_something(self):
        base = Configuration(exception_reporter=print, validate_tool_call_results=True)
        merged = base.merge(Configuration(validate_tool_call_results=False, protocol_version="2025-06-18"))
        assert merged.exception_reporter is print
        assert merged.validate_tool_call_results is False
        assert merged.protocol_version == "2025-06-18"
        assert base.protocol_version == "2025-11-25"
        assert base.merge(None).exception_reporter is print

    def test_is_set_tells_explicit_settings_from_defaults(self):
        config = Configuration(validate_tool_call_arguments=True)
        assert config.is_set("validate_tool_call_arguments") is True
        assert config.is_set("around_request") is False

    def test_repr_lists_the_settings(self):
        assert "validate_tool_call_results=True" in repr(Configuration(validate_tool_call_results=True))


class TestProcessWideDefault:
    def test_configure_sets_the_default_and_returns_it(self):
        reporter = Recorder()
        config = mcp_sdk.configure(exception_reporter=reporter)
        assert config is mcp_sdk.configuration()
        assert mcp_sdk.configuration().exception_reporter is reporter

    def test_an_unknown_setting_is_a_type_error(self):
        with pytest.raises(TypeError, match="colour"):
            mcp_sdk.configure(colour="blue")

    def test_servers_merge_their_own_configuration_over_the_default(self):
        default_reporter, own_reporter = Recorder(), Recorder()
        seen = []
        mcp_sdk.configure(exception_reporter=default_reporter, around_request=lambda data, handler: seen.append(1) or handler())
        server = Server(
            tools=[Tool.define(name="boom", handler=lambda args: 1 / 0)],
            configuration=Configuration(exception_reporter=own_reporter),
        )
        server.handle(call_tool("boom"))
        assert seen == [1]
        assert default_reporter.calls == []
        assert [type(e) for e in own_reporter.errors] == [ZeroDivisionError]

    def test_a_server_without_its_own_configuration_uses_the_default(self):
        mcp_sdk.configure(protocol_version="2025-03-26")
        response = Server().handle(request("initialize", {"protocolVersion": "2025-11-25"}))
        assert response["result"]["protocolVersion"] == "2025-03-26"

    def test_the_default_is_fresh_in_every_test(self):
        assert mcp_sdk.configuration().is_set("exception_reporter") is False
        assert mcp_sdk.configuration().protocol_version == "2025-11-25"


class TestExceptionReporter:
    def test_a_failing_tool_is_reported_with_the_raw_request(self):
        reporter = Recorder()
        error = RuntimeError("tool bug")

        class FailingTool(Tool):
            @classmethod
            def call(cls):
                raise error

        server = Server(tools=[FailingTool], configuration=Configuration(exception_reporter=reporter))
        message = call_tool("failing_tool", {}, id="r1")
        server.handle(message)
        assert reporter.calls == [(error, {"request": message})]

    def test_a_failing_protocol_handler_is_reported(self):
        reporter = Recorder()
        server = Server(configuration=Configuration(exception_reporter=reporter))
        server.resources_read_handler(lambda params: {}.pop("missing"))
        message = request("resources/read", {"uri": "x:1"})
        assert server.handle(message)["error"]["code"] == -32603
        assert [type(e) for e in reporter.errors] == [KeyError]
        assert reporter.contexts == [{"request": message}]

    def test_a_json_rpc_error_a_handler_raises_on_purpose_is_not_reported(self):
        reporter = Recorder()
        server = Server(configuration=Configuration(exception_reporter=reporter))

        @server.resources_read_handler
        def read(params):
            raise Server.ResourceNotFoundError(params["uri"], params)

        server.handle(request("resources/read", {"uri": "x:1"}))
        assert reporter.calls == []

    def test_a_reporter_that_raises_does_not_break_the_server(self):
        def reporter(error, context):
            raise RuntimeError("reporter bug")

        server = Server(
            tools=[Tool.define(name="boom", handler=lambda args: 1 / 0)],
            configuration=Configuration(exception_reporter=reporter),
        )
        assert server.handle(call_tool("boom"))["result"]["isError"] is True

    def test_without_a_reporter_errors_are_logged(self, caplog):
        server = Server(tools=[Tool.define(name="boom", handler=lambda args: 1 / 0)])
        with caplog.at_level("ERROR", logger="mcp_sdk.server"):
            server.handle(call_tool("boom"))
        assert any(record.exc_info and record.exc_info[0] is ZeroDivisionError for record in caplog.records)


class TestAroundRequest:
    def record(self, server_kwargs, *messages, session_version=None):
        before, after = [], []

        def around(data, request_handler):
            before.append(dict(data))
            result = request_handler()
            after.append(dict(data))
            return result

        server = Server(configuration=Configuration(around_request=around), **server_kwargs)
        if session_version is None:
            responses = [server.handle(m) for m in messages]
        else:
            session, _ = connect(server, session_version)
            before.clear()
            after.clear()
            responses = [session.handle(m) for m in messages]
        return before, after, responses

    def test_method_is_known_before_and_the_details_after(self):
        before, after, responses = self.record({"tools": [AddTool]}, call_tool("add_tool", {"a": 1, "b": 2}))
        assert before == [{"method": "tools/call"}]
        assert after == [{"method": "tools/call", "tool_name": "add_tool", "tool_arguments": {"a": 1, "b": 2}}]
        assert responses[0]["result"]["content"] == [{"type": "text", "text": "3"}]

    def test_a_hook_calling_the_handler_twice_runs_the_tool_once(self):
        calls = []

        @Tool.define(name="counted")
        def counted(args):
            calls.append(args)
            return "done"

        def twice(data, request_handler):
            first = request_handler()
            assert request_handler() is first

        server = Server(tools=[counted], configuration=Configuration(around_request=twice))
        response = server.handle(call_tool("counted"))
        assert response == {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "done"}], "isError": False}}
        assert calls == [{}]

    def test_the_client_is_known_after_initialize(self):
        _, after, _ = self.record({}, request("ping"), session_version="2025-06-18")
        assert after == [{"method": "ping", "client": {"name": CLIENT_INFO["name"], "version": CLIENT_INFO["version"]}}]

    def test_prompt_name_and_resource_uri(self):
        _, after, _ = self.record(
            {"prompts": [HelloPrompt], "resources": [Resource(uri="file:///a", name="a")]},
            request("prompts/get", {"name": "hello_prompt"}),
            request("resources/read", {"uri": "file:///a"}),
        )
        assert after == [
            {"method": "prompts/get", "prompt_name": "hello_prompt"},
            {"method": "resources/read", "resource_uri": "file:///a"},
        ]

    def test_errors_are_named(self):
        _, after, _ = self.record(
            {"tools": [AddTool], "prompts": [HelloPrompt]},
            call_tool("nope"),
            request("prompts/get", {"name": "nope"}),
            request("resources/read", {"uri": "file:///nope"}),
            request("no/such/method"),
            call_tool("add_tool", {"a": "x"}),
        )
        assert after == [
            {"method": "tools/call", "tool_name": "nope", "error": "tool_not_found"},
            {"method": "prompts/get", "error": "prompt_not_found"},
            {"method": "resources/read", "resource_uri": "file:///nope", "error": "resource_not_found"},
            {"method": "no/such/method", "error": "method_not_found"},
            {"method": "tools/call", "tool_name": "add_tool", "tool_arguments": {"a": "x"}, "error": "invalid_arguments"},
        ]

    def test_the_response_comes_through_unchanged(self):
        _, _, responses = self.record({}, request("ping", id="p"))
        assert responses == [{"jsonrpc": "2.0", "id": "p", "result": {}}]

    def test_a_hook_that_raises_is_reported_and_answered_with_an_internal_error(self):
        reporter = Recorder()

        def around(data, request_handler):
            raise RuntimeError("apm down")

        server = Server(configuration=Configuration(around_request=around, exception_reporter=reporter))
        assert server.handle(request("ping", id=1)) == {
            "jsonrpc": "2.0",
            "id": 1,
            "error": {"code": -32603, "message": "Internal error"},
        }
        assert [str(e) for e in reporter.errors] == ["apm down"]

    def test_a_hook_that_raises_after_the_handler_keeps_the_response(self):
        reporter = Recorder()

        def around(data, request_handler):
            request_handler()
            raise RuntimeError("logging failed")

        server = Server(configuration=Configuration(around_request=around, exception_reporter=reporter))
        assert server.handle(request("ping", id=1)) == {"jsonrpc": "2.0", "id": 1, "result": {}}
        assert [str(e) for e in reporter.errors] == ["logging failed"]

    def test_a_hook_that_never_calls_the_handler_still_answers(self):
        reporter = Recorder()
        server = Server(configuration=Configuration(around_request=lambda data, handler: None, exception_reporter=reporter))
        assert server.handle(request("ping", id=1)) == {
            "jsonrpc": "2.0",
            "id": 1,
            "error": {"code": -32603, "message": "Internal error"},
        }
        assert len(reporter.errors) == 1

    def test_notifications_do_not_go_through_the_hook(self):
        before, _, responses = self.record({}, notification("notifications/initialized"))
        assert before == []
        assert responses == [None]


class TestInstrumentationCallback:
    def test_each_request_is_reported_with_its_duration(self):
        callback = Recorder()
        server = Server(tools=[AddTool], configuration=Configuration(instrumentation_callback=callback))
        server.handle(call_tool("add_tool", {"a": 1, "b": 2}))
        server.handle(request("tools/list"))
        ((first,), (second,)) = callback.calls
        assert isinstance(first.pop("duration"), float)
        assert first == {"method": "tools/call", "tool_name": "add_tool", "tool_arguments": {"a": 1, "b": 2}}
        assert second.pop("duration") >= 0
        assert second == {"method": "tools/list"}

    def test_failed_requests_are_reported_too(self):
        callback = Recorder()
        server = Server(configuration=Configuration(instrumentation_callback=callback))
        server.handle(request("nope"))
        ((data,),) = callback.calls
        assert data["error"] == "method_not_found"
        assert "duration" in data

    def test_the_duration_is_not_visible_inside_around_request(self):
        inside, after = [], Recorder()

        def around(data, request_handler):
            result = request_handler()
            inside.append("duration" in data)
            return result

        server = Server(configuration=Configuration(around_request=around, instrumentation_callback=after))
        server.handle(request("ping"))
        assert inside == [False]
        assert "duration" in after.calls[0][0]

    def test_a_callback_that_raises_is_reported_and_the_response_kept(self):
        reporter = Recorder()

        def callback(data):
            raise RuntimeError("metrics down")

        server = Server(configuration=Configuration(instrumentation_callback=callback, exception_reporter=reporter))
        assert server.handle(request("ping")) == {"jsonrpc": "2.0", "id": 1, "result": {}}
        assert reporter.contexts == [{"instrumentation": "ping"}]


class TestValidationSwitches:
    def test_arguments_are_validated_by_default(self):
        server = Server(tools=[AddTool])
        assert server.handle(call_tool("add_tool", {"a": 1}))["result"]["isError"] is True

    def test_argument_validation_can_be_turned_off(self):
        seen = []
        server = Server(configuration=Configuration(validate_tool_call_arguments=False))
        server.define_tool(
            name="loose",
            input_schema={"properties": {"n": {"type": "integer"}}, "required": ["n"]},
            handler=lambda args: seen.append(args) or "ok",
        )
        assert server.handle(call_tool("loose", {"n": "not a number"}))["result"]["isError"] is False
        assert seen == [{"n": "not a number"}]
