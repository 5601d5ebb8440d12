"""Input schemas from call signatures and type hints; definition-time checks (issue 12)."""

from __future__ import annotations

import dataclasses
import enum
import typing as t

import attrs
import pytest

from mcp_sdk import DefinitionError, SchemaError, Server, Tool, ValidationError
from mcp_sdk.tool.type_schema import parameter_descriptions, schema_for, summary
from spec.support.server_helpers import call_tool, initialize


class Unit(enum.Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


class Point(t.TypedDict):
    lat: float
    lon: float


@dataclasses.dataclass
class Window:
    days: int
    hourly: bool = False


@attrs.define
class Tag:
    name: str


class TestSchemaFor:
    @pytest.mark.parametrize(
        "hint, schema",
        [
            (str, {"type": "string"}),
            (int, {"type": "integer"}),
            (float, {"type": "number"}),
            (bool, {"type": "boolean"}),
            (t.Any, {}),
            (list[str], {"type": "array", "items": {"type": "string"}}),
            (list, {"type": "array"}),
            (set[int], {"type": "array", "items": {"type": "integer"}, "uniqueItems": True}),
            (dict, {"type": "object"}),
            (dict[str, int], {"type": "object", "additionalProperties": {"type": "integer"}}),
            (t.Optional[str], {"type": ["string", "null"]}),
            (str | None, {"type": ["string", "null"]}),
            (int | str, {"anyOf": [{"type": "integer"}, {"type": "string"}]}),
            (t.Literal["a", "b"], {"type": "string", "enum": ["a", "b"]}),
            (Unit, {"type": "string", "enum": ["celsius", "fahrenheit"]}),
            (t.Annotated[int, "How many"], {"type": "integer", "description": "How many"}),
            (Point, {"type": "object", "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}}, "required": ["lat", "lon"]}),
            (
                Window,
                {
                    "type": "object",
                    "properties": {"days": {"type": "integer"}, "hourly": {"type": "boolean", "default": False}},
                    "required": ["days"],
                },
            ),
            (Tag, {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}),
        ],
    )
    def test_each_supported_hint(self, hint, schema):
        assert schema_for(hint) == schema

    def test_a_type_without_json_form_is_a_type_error(self):
        with pytest.raises(TypeError, match="object has no JSON Schema|has no JSON Schema"):
            schema_for(complex)


class TestDocstrings:
    def test_google_and_rest_parameter_descriptions(self):
        google = """Get the forecast.

        Args:
            latitude: Latitude of the place
                in degrees.
            longitude (float): Longitude of the place.
        """
        assert parameter_descriptions(google) == {
            "latitude": "Latitude of the place in degrees.",
            "longitude": "Longitude of the place.",
        }
        assert summary(google) == "Get the forecast."
        rest = """Get alerts.

        :param state: Two-letter US state code
        :param str limit: At most this many
        """
        assert parameter_descriptions(rest) == {"state": "Two-letter US state code", "limit": "At most this many"}
        assert summary(rest) == "Get alerts."


class Forecast(Tool):
    """Not the description: a class docstring is for Python readers."""

    description = "Forecast for a place"

    @classmethod
    def call(
        cls,
        latitude: float,
        longitude: float,
        unit: Unit = Unit.CELSIUS,
        days: t.Literal[1, 3, 7] = 3,
        tags: list[str] | None = None,
        where: Point | None = None,
        server_context: t.Any = None,
    ) -> str:
        """Forecast.

        Args:
            latitude: Degrees north
        """
        return f"{latitude},{longitude},{unit.value if isinstance(unit, Unit) else unit},{days}"


class TestDerivedInputSchema:
    def test_a_class_tool_without_input_schema_gets_one_from_call(self):
        assert Forecast.to_dict()["inputSchema"] == {
            "type": "object",
            "properties": {
                "latitude": {"type": "number", "description": "Degrees north"},
                "longitude": {"type": "number"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"},
                "days": {"type": "integer", "enum": [1, 3, 7], "default": 3},
                "tags": {"type": ["array", "null"], "items": {"type": "string"}, "default": None},
                "where": {**schema_for(Point), "type": ["object", "null"], "default": None},
            },
            "required": ["latitude", "longitude"],
        }

    def test_the_derived_schema_validates_calls(self):
        server = Server(name="s", tools=[Forecast])
        initialize(server)
        missing = server.handle(call_tool("forecast", {"latitude": 1.5}))["result"]
        assert missing["isError"] is True and "longitude" in missing["content"][0]["text"]
        ok = server.handle(call_tool("forecast", {"latitude": 1.5, "longitude": 2}))["result"]
        assert ok == {"content": [{"type": "text", "text": "1.5,2,celsius,3"}], "isError": False}

    def test_a_call_without_arguments_keeps_the_plain_object_schema(self):
        class Ping(Tool):
            @classmethod
            def call(cls):
                return "pong"

        assert Ping.to_dict()["inputSchema"] == {"type": "object"}

    def test_a_subclass_overriding_call_derives_afresh(self):
        class Narrow(Forecast):
            @classmethod
            def call(cls, city: str) -> str:
                return city

        assert Narrow.input_schema.schema == {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}

    def test_a_return_hint_of_a_dataclass_implies_an_output_schema(self):
        class Plan(Tool):
            @classmethod
            def call(cls, days: int) -> Window:
                return Window(days)

        assert Plan.to_dict()["outputSchema"] == schema_for(Window)
        server = Server(name="s", tools=[Plan])
        initialize(server)
        result = server.handle(call_tool("plan", {"days": 2}))["result"]
        assert result["structuredContent"] == {"days": 2, "hourly": False}

    def test_an_unsupported_parameter_type_names_the_tool_and_the_field(self):
        with pytest.raises(DefinitionError, match=r"^Tool odd: parameter 'z': complex has no JSON Schema"):

            class Odd(Tool):
                @classmethod
                def call(cls, z: complex):
                    return str(z)


class TestExplicitSchemaChecked:
    def test_a_required_property_the_call_cannot_take(self):
        with pytest.raises(SchemaError, match=r"^Tool echo: input_schema requires 'message' but .*call\(\) has no parameter 'message'"):

            class Echo(Tool):
                input_schema = {"properties": {"message": {"type": "string"}}, "required": ["message"]}

                @classmethod
                def call(cls, text):
                    return text

    def test_a_required_parameter_the_schema_lacks(self):
        with pytest.raises(SchemaError, match=r"^Tool echo: parameter 'text' of .*is required but input_schema has no property 'text'"):

            class Echo(Tool):
                input_schema = {"properties": {"message": {"type": "string"}}}

                @classmethod
                def call(cls, text, message=None):
                    return text

    def test_required_naming_a_missing_property(self):
        with pytest.raises(SchemaError, match=r"^Tool echo: input_schema 'required' names 'mesage', which is not in 'properties'"):

            class Echo(Tool):
                input_schema = {"properties": {"message": {"type": "string"}}, "required": ["mesage"]}

                @classmethod
                def call(cls, **arguments):
                    return "x"

    def test_an_output_schema_requiring_a_missing_property(self):
        with pytest.raises(SchemaError, match=r"^Tool report: output_schema 'required' names 'total', which is not in 'properties'"):

            class Report(Tool):
                output_schema = {"properties": {"count": {"type": "integer"}}, "required": ["total"]}

                @classmethod
                def call(cls):
                    return {"count": 1}

    def test_a_schema_that_does_not_compile_names_the_tool_and_the_field(self):
        with pytest.raises(ValidationError, match=r"^Tool echo: invalid input_schema at property 'message': "):

            class Echo(Tool):
                input_schema = {"properties": {"message": {"type": "strnig"}}}

                @classmethod
                def call(cls, message=None):
                    return "x"

    def test_a_matching_schema_and_kwargs_tools_pass(self):
        class Echo(Tool):
            input_schema = {"properties": {"message": {"type": "string"}}, "required": ["message"]}

            @classmethod
            def call(cls, message, server_context=None):
                return message

        assert Echo.input_schema.schema["required"] == ["message"]


class TestCallChecked:
    def test_an_instance_method_says_to_write_classmethod(self):
        with pytest.raises(DefinitionError, match=r"^Tool plain: call must be a classmethod .*write '@classmethod' above"):

            class Plain(Tool):
                def call(self, x: int):
                    return x

    def test_an_async_call_says_to_write_a_plain_def(self):
        with pytest.raises(DefinitionError, match=r"^Tool slow: call is an async def; .*asyncio\.run"):

            class Slow(Tool):
                @classmethod
                async def call(cls, x: int):
                    return x

    def test_an_async_function_says_to_write_a_plain_def_of_that_name(self):
        server = Server(name="s")
        with pytest.raises(DefinitionError) as raised:

            @server.tool
            async def get_alerts(state: str) -> str:
                return state

        assert str(raised.value) == (
            "Tool get_alerts: get_alerts is an async def; mcp_sdk runs tools on threads, so write a plain "
            "'def get_alerts(...)' (run a coroutine inside it with asyncio.run(...))"
        )


class TestDefineWithKeywordArguments:
    def test_a_keyword_handler_gets_a_derived_schema_and_keyword_arguments(self):
        @Tool.define()
        def add(a: int, b: int = 2) -> str:
            """Add two numbers.

            Args:
                a: The first
            """
            return str(a + b)

        assert add.to_dict() == {
            "name": "add",
            "description": "Add two numbers.",
            "inputSchema": {
                "type": "object",
                "properties": {"a": {"type": "integer", "description": "The first"}, "b": {"type": "integer", "default": 2}},
                "required": ["a"],
            },
        }
        server = Server(name="s", tools=[add])
        initialize(server)
        assert server.handle(call_tool("add", {"a": 1, "b": 5}))["result"]["content"] == [{"type": "text", "text": "6"}]

    def test_the_one_dict_form_keeps_working(self):
        @Tool.define(name="echo", input_schema={"properties": {"m": {"type": "string"}}})
        def echo(args, server_context=None):
            return args["m"]

        server = Server(name="s", tools=[echo])
        initialize(server)
        assert server.handle(call_tool("echo", {"m": "hi"}))["result"]["content"] == [{"type": "text", "text": "hi"}]

    def test_a_single_parameter_the_explicit_schema_does_not_name_is_the_arguments_dict(self):
        @Tool.define(name="greet", input_schema={"properties": {"who": {"type": "string"}}})
        def greet(data):
            return f"Hello {data['who']}"

        server = Server(name="s", tools=[greet])
        initialize(server)
        assert server.handle(call_tool("greet", {"who": "Ada"}))["result"]["content"] == [{"type": "text", "text": "Hello Ada"}]

    def test_a_single_keyword_parameter_named_in_the_schema_is_a_keyword(self):
        @Tool.define(input_schema={"properties": {"args": {"type": "string"}}, "required": ["args"]})
        def shell(args):
            return f"ran {args}"

        server = Server(name="s", tools=[shell])
        initialize(server)
        assert server.handle(call_tool("shell", {"args": "ls"}))["result"]["content"] == [{"type": "text", "text": "ran ls"}]


class TestUnresolvableHints:
    def test_hints_of_server_context_and_the_return_may_name_type_checking_only_imports(self):
        class Hello(Tool):
            @classmethod
            def call(cls, name: str, server_context: OnlyForTheTypeChecker | None = None) -> AlsoOnlyForIt:  # type: ignore[name-defined] # noqa: F821
                return name

        assert Hello.to_dict() == {
            "name": "hello",
            "inputSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
        }

    def test_an_argument_hint_that_cannot_be_resolved_names_the_tool_and_the_field(self):
        with pytest.raises(DefinitionError, match=r"^Tool bad: cannot resolve the type hint 'Nowhere' of parameter 'thing'"):

            class Bad(Tool):
                @classmethod
                def call(cls, thing: Nowhere):  # type: ignore[name-defined] # noqa: F821
                    return thing
