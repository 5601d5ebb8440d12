"""Tool.OutputSchema: object or array schemas, validate_result, and validate_tool_call_results."""

from __future__ import annotations

import pytest

from mcp_sdk import Configuration, Server, Tool, ValidationError
from spec.support.server_helpers import Recorder, call_tool, connect
from spec.support.wire_schema import assert_valid_response

WEATHER = {
    "properties": {
        "temperature": {"type": "number"},
        "condition": {"type": "string"},
        "humidity": {"type": "integer"},
    },
    "required": ["temperature", "condition", "humidity"],
}


def weather_tool(structured_content, error=False):
    class WeatherTool(Tool):
        tool_name = "get_weather"
        output_schema = WEATHER

        @classmethod
        def call(cls):
            return Tool.Response([{"type": "text", "text": "weather"}], structured_content=structured_content, error=error)

    return WeatherTool


def validating_server(*tools):
    return Server(tools=list(tools), configuration=Configuration(validate_tool_call_results=True, exception_reporter=Recorder()))


class TestOutputSchema:
    def test_the_default_type_is_object(self):
        assert Tool.OutputSchema(WEATHER).to_dict() == {"type": "object", **WEATHER}

    def test_keyword_construction(self):
        schema = Tool.OutputSchema(properties={"success": {"type": "boolean"}, "data": {"type": "object"}}, required=["success"])
        assert schema.to_dict() == {
            "type": "object",
            "properties": {"success": {"type": "boolean"}, "data": {"type": "object"}},
            "required": ["success"],
        }

    def test_validate_result_accepts_a_conforming_result(self):
        Tool.OutputSchema(WEATHER).validate_result({"temperature": 21.5, "condition": "sunny", "humidity": 40})

    @pytest.mark.parametrize(
        "result, message",
        [
            ({"temperature": 21.5, "condition": "sunny"}, "structuredContent must contain ['humidity'] properties"),
            ({"temperature": "hot", "condition": "sunny", "humidity": 40}, "temperature must be number"),
            ([1, 2], "structuredContent must be object"),
        ],
    )
    def test_validate_result_raises_naming_the_problem(self, result, message):
        with pytest.raises(ValidationError) as raised:
            Tool.OutputSchema(WEATHER).validate_result(result)
        assert str(raised.value) == f"Invalid structured content: {message}"

    def test_an_array_schema(self):
        schema = Tool.OutputSchema(type="array", items=WEATHER)
        assert schema.to_dict() == {"type": "array", "items": WEATHER}
        schema.validate_result([{"temperature": 1, "condition": "rain", "humidity": 90}])
        with pytest.raises(ValidationError, match=r"\[0\]"):
            schema.validate_result([{"temperature": 1}])
        with pytest.raises(ValidationError):
            schema.validate_result({"temperature": 1, "condition": "rain", "humidity": 90})

    def test_a_subclass_dict_becomes_an_output_schema(self):
        tool = weather_tool({})
        assert isinstance(tool.output_schema, Tool.OutputSchema)
        assert tool.to_dict()["outputSchema"] == {"type": "object", **WEATHER}

    def test_an_output_schema_object_is_kept(self):
        schema = Tool.OutputSchema(properties={"ok": {"type": "boolean"}})

        class DataTool(Tool):
            output_schema = schema

        assert DataTool.output_schema is schema

    def test_a_tool_calls_validate_result_itself(self):
        class SelfChecking(Tool):
            output_schema = WEATHER

            @classmethod
            def call(cls):
                data = {"temperature": 20, "condition": "fog"}
                cls.output_schema.validate_result(data)
                return Tool.Response([], structured_content=data)

        reporter = Recorder()
        server = Server(tools=[SelfChecking], configuration=Configuration(exception_reporter=reporter))
        assert server.handle(call_tool("self_checking"))["result"]["isError"] is True
        assert isinstance(reporter.errors[0], ValidationError)


class TestValidateToolCallResults:
    def test_a_conforming_result_passes(self):
        data = {"temperature": 21.5, "condition": "sunny", "humidity": 40}
        session, _ = connect(validating_server(weather_tool(data)))
        response = session.handle(call_tool("get_weather"))
        assert response["result"] == {"content": [{"type": "text", "text": "weather"}], "isError": False, "structuredContent": data}
        assert_valid_response("tools/call", response)

    def test_a_nonconforming_result_is_an_internal_error_naming_the_field(self):
        response = validating_server(weather_tool({"temperature": "hot", "condition": "sunny", "humidity": 40})).handle(
            call_tool("get_weather")
        )
        assert response == {
            "jsonrpc": "2.0",
            "id": 1,
            "error": {"code": -32603, "message": "Invalid structured content from tool get_weather: temperature must be number"},
        }
        assert_valid_response("tools/call", response)

    def test_a_missing_structured_content_is_an_error(self):
        response = validating_server(weather_tool(None)).handle(call_tool("get_weather"))
        assert response["error"]["code"] == -32603
        assert "no structuredContent" in response["error"]["message"]

    def test_error_responses_are_not_validated(self):
        response = validating_server(weather_tool({"bad": True}, error=True)).handle(call_tool("get_weather"))
        assert response["result"]["isError"] is True

    def test_tools_without_an_output_schema_are_not_validated(self):
        server = validating_server()
        server.define_tool(name="free", handler=lambda args: Tool.Response([], structured_content={"anything": 1}))
        assert server.handle(call_tool("free"))["result"]["structuredContent"] == {"anything": 1}

    def test_results_are_not_validated_by_default(self):
        response = Server(tools=[weather_tool({"temperature": "hot"})]).handle(call_tool("get_weather"))
        assert response["result"]["structuredContent"] == {"temperature": "hot"}

    def test_an_array_output_schema_is_checked_too(self):
        class Forecast(Tool):
            output_schema = {"type": "array", "items": WEATHER}

            @classmethod
            def call(cls, days):
                return Tool.Response([], structured_content=[{"temperature": 1, "condition": "x", "humidity": 2}] * days)

        server = validating_server(Forecast)
        assert server.handle(call_tool("forecast", {"days": 2}))["result"]["isError"] is False

        class BadForecast(Forecast):
            @classmethod
            def call(cls, days):
                return Tool.Response([], structured_content=[{"temperature": 1}])

        assert validating_server(BadForecast).handle(call_tool("bad_forecast", {"days": 1}))["error"]["code"] == -32603

    @pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26"])
    def test_validation_still_runs_where_structured_content_is_not_sent(self, version):
        session, _ = connect(validating_server(weather_tool({"temperature": "hot"})), version)
        assert session.handle(call_tool("get_weather"))["error"]["code"] == -32603


def test_an_array_schema_names_the_item_that_fails():
    schema = Tool.OutputSchema({"type": "array", "items": {"properties": {"t": {"type": "number"}}}})
    with pytest.raises(ValidationError) as raised:
        schema.validate_result([{"t": 1}, {"t": "x"}])
    assert str(raised.value) == "Invalid structured content: structuredContent[1].t must be number"
