"""Tool.InputSchema: validation with fastjsonschema (compiled once per tool), JSON Schema 2020-12."""

from __future__ import annotations

import copy

import fastjsonschema
import pytest

from mcp_sdk import Configuration, Server, Tool, ValidationError
from spec.support.server_helpers import VERSIONS, call_tool, connect, request
from spec.support.wire_schema import assert_valid_response

SCHEMA_2020_12 = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {
        "address": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "zip": {"type": "string", "pattern": "^[0-9]{4}$"}},
            "required": ["city"],
            "additionalProperties": False,
        }
    },
    "properties": {
        "home": {"$ref": "#/$defs/address"},
        "tags": {"type": "array", "items": {"type": "integer"}},
    },
    "required": ["home"],
    "additionalProperties": False,
}


class AddressTool(Tool):
    input_schema = copy.deepcopy(SCHEMA_2020_12)

    @classmethod
    def call(cls, home, tags=()):
        return f"{home['city']} {list(tags)}"


@pytest.fixture
def compile_calls(monkeypatch):
    """Every validator fastjsonschema generates from here on (still generating for real)."""
    calls = []
    real_compile_to_code = fastjsonschema.compile_to_code

    def counting_compile_to_code(definition, *args, **kwargs):
        calls.append(definition)
        return real_compile_to_code(definition, *args, **kwargs)

    monkeypatch.setattr(fastjsonschema, "compile_to_code", counting_compile_to_code)
    return calls


class TestCompiledOnce:
    def test_a_subclass_schema_is_compiled_once_never_per_call(self, compile_calls):
        class Counted(Tool):
            input_schema = {"properties": {"n": {"type": "integer"}}, "required": ["n"]}

            @classmethod
            def call(cls, n):
                return str(n)

        assert len(compile_calls) == 1
        server = Server(tools=[Counted])
        for n in range(10):
            assert server.handle(call_tool("counted", {"n": n}))["result"]["isError"] is False
            assert server.handle(call_tool("counted", {"n": "x"}))["result"]["isError"] is True
        assert len(compile_calls) == 1

    def test_defined_tools_compile_each_schema_once(self, compile_calls):
        server = Server()
        server.define_tool(
            name="typed",
            input_schema={"properties": {"n": {"type": "integer"}}},
            output_schema={"properties": {"double": {"type": "integer"}}},
            handler=lambda args: Tool.Response([], structured_content={"double": args["n"] * 2}),
        )
        assert len(compile_calls) == 2
        for n in range(10):
            server.handle(call_tool("typed", {"n": n}))
        server.tools["typed"].input_schema.validate_arguments({"n": 1})
        server.tools["typed"].output_schema.validate_result({"double": 2})
        assert len(compile_calls) == 2

    def test_result_validation_does_not_compile_per_call(self, compile_calls):
        class Typed(Tool):
            output_schema = {"properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}

            @classmethod
            def call(cls):
                return Tool.Response([], structured_content={"ok": True})

        server = Server(tools=[Typed], configuration=Configuration(validate_tool_call_results=True))
        before = len(compile_calls)
        for _ in range(5):
            assert server.handle(call_tool("typed"))["result"]["isError"] is False
        assert len(compile_calls) == before

    def test_the_schema_compiled_leaves_out_the_schema_keyword(self, compile_calls):
        Tool.InputSchema(SCHEMA_2020_12)
        assert "$schema" not in compile_calls[-1]


class TestValidation:
    def test_valid_arguments_pass(self):
        AddressTool.input_schema.validate_arguments({"home": {"city": "Oslo"}, "tags": [1, 2]})
        assert AddressTool.input_schema.errors({"home": {"city": "Oslo", "zip": "0150"}}) is None

    @pytest.mark.parametrize(
        "arguments, message",
        [
            ({}, "arguments must contain ['home'] properties"),
            ({"home": {"city": 5}}, "home.city must be string"),
            ({"home": {"city": "Oslo"}, "extra": 1}, "arguments must not contain {'extra'} properties"),
            ({"home": {"city": "Oslo", "country": "NO"}}, "home must not contain {'country'} properties"),
            ({"home": {"city": "Oslo"}, "tags": [1, "two"]}, "tags[1] must be integer"),
            ({"home": {"city": "Oslo", "zip": "12"}}, "home.zip must match pattern ^[0-9]{4}$"),
        ],
    )
    def test_invalid_arguments_raise_naming_the_field(self, arguments, message):
        assert AddressTool.input_schema.errors(arguments) == message
        with pytest.raises(ValidationError) as raised:
            AddressTool.input_schema.validate_arguments(arguments)
        assert str(raised.value) == f"Invalid arguments: {message}"

    def test_a_failure_is_a_tool_error_result_naming_the_field(self):
        response = Server(tools=[AddressTool]).handle(call_tool("address_tool", {"home": {"city": 5}}))
        assert response == {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {"content": [{"type": "text", "text": "Invalid arguments: home.city must be string"}], "isError": True},
        }
        assert_valid_response("tools/call", response)

    def test_the_tool_is_not_called_with_invalid_arguments(self):
        calls = []
        tool = Tool.define(name="guarded", input_schema={"properties": {"n": {"type": "integer"}}}, handler=calls.append)
        Server(tools=[tool]).handle(call_tool("guarded", {"n": "x"}))
        assert calls == []

    def test_a_root_reference_into_defs_is_resolved(self):
        schema = Tool.InputSchema({"$ref": "#/$defs/args", "$defs": {"args": {"type": "object", "properties": {"n": {"type": "integer"}}}}})
        assert schema.errors({"n": 1}) is None
        assert schema.errors({"n": "x"}) == "n must be integer"

    def test_formats_are_not_enforced(self):
        schema = Tool.InputSchema({"properties": {"when": {"type": "string", "format": "date-time"}}})
        assert schema.errors({"when": "not a date"}) is None


class TestSchemaShape:
    def test_a_schema_without_a_type_is_an_object(self):
        assert Tool.InputSchema({"properties": {}}).to_dict() == {"type": "object", "properties": {}}

    def test_keyword_construction(self):
        schema = Tool.InputSchema(properties={"message": {"type": "string"}}, required=["message"])
        assert schema.to_dict() == {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]}

    def test_a_schema_object_may_wrap_another(self):
        inner = Tool.InputSchema(properties={"a": {"type": "string"}})
        assert Tool.InputSchema(inner) == inner

    def test_equality_with_dicts_and_schemas(self):
        schema = Tool.InputSchema({"type": "object"})
        assert schema == {"type": "object"}
        assert schema == Tool.InputSchema()
        assert schema != Tool.InputSchema(properties={"a": {}})
        assert "InputSchema" in repr(schema)

    def test_an_invalid_schema_is_refused_where_it_is_defined(self):
        with pytest.raises(ValidationError, match="^Tool broken: invalid input_schema: "):

            class Broken(Tool):
                input_schema = {"type": "nonsense"}


class TestListedUntouched:
    @pytest.mark.parametrize("version", VERSIONS)
    def test_a_2020_12_schema_is_returned_as_given(self, version):
        session, _ = connect(Server(tools=[AddressTool]), version)
        response = session.handle(request("tools/list"))
        assert response["result"]["tools"] == [{"name": "address_tool", "inputSchema": SCHEMA_2020_12}]
        assert_valid_response("tools/list", response, version)

    def test_validation_leaves_the_given_schema_intact(self):
        Server(tools=[AddressTool]).handle(call_tool("address_tool", {"home": {"city": "Oslo"}}))
        assert AddressTool.input_schema.to_dict() == SCHEMA_2020_12
