"""Tool: class-level metadata, Tool.define, Server.define_tool, calling conventions."""

from __future__ import annotations

import typing as t

import pytest

from mcp_sdk import Content, DefinitionError, Server, Tool
from mcp_sdk.tool import validate_name
from spec.support.server_helpers import call_tool


class ExampleTool(Tool):
    title = "Example"
    description = "Echoes its argument"
    input_schema = {"properties": {"message": {"type": "string"}}, "required": ["message"]}
    annotations = {"read_only_hint": True}

    @classmethod
    def call(cls, message, server_context=None):
        return Tool.Response([{"type": "text", "text": f"Hello {message}"}])


class TestSubclass:
    def test_the_name_defaults_to_the_snake_case_class_name(self):
        assert ExampleTool.tool_name == "example_tool"

    @pytest.mark.parametrize("class_name, expected", [("HTTPTool", "http_tool"), ("GetWeather", "get_weather"), ("Tool2Go", "tool2_go")])
    def test_derived_names(self, class_name, expected):
        assert type(class_name, (Tool,), {}).tool_name == expected

    def test_to_dict_is_the_tools_list_entry(self):
        assert ExampleTool.to_dict() == {
            "name": "example_tool",
            "title": "Example",
            "description": "Echoes its argument",
            "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]},
            "annotations": {"readOnlyHint": True},
        }

    def test_metadata_becomes_schema_and_annotation_objects(self):
        assert isinstance(ExampleTool.input_schema, Tool.InputSchema)
        assert ExampleTool.output_schema is None
        assert ExampleTool.annotations == Tool.Annotations(read_only_hint=True)

    def test_a_bare_tool_has_an_empty_object_schema(self):
        class Bare(Tool):
            pass

        assert Bare.to_dict() == {"name": "bare", "inputSchema": {"type": "object"}}

    def test_metadata_is_inherited_but_the_name_is_derived_afresh(self):
        class LoudExampleTool(ExampleTool):
            pass

        assert LoudExampleTool.tool_name == "loud_example_tool"
        assert LoudExampleTool.description == "Echoes its argument"
        assert LoudExampleTool.input_schema is ExampleTool.input_schema

    def test_an_explicit_name_is_kept(self):
        class Weather(Tool):
            tool_name = "get_weather"

        assert Weather.tool_name == "get_weather"

    def test_meta_and_icons_are_listed(self):
        class Fancy(Tool):
            meta = {"ui": {"resourceUri": "ui://x"}}
            icons = [{"src": "https://example.com/i.png", "mimeType": "image/png"}]

        assert Fancy.to_dict() == {
            "name": "fancy",
            "inputSchema": {"type": "object"},
            "icons": [{"src": "https://example.com/i.png", "mimeType": "image/png"}],
            "_meta": {"ui": {"resourceUri": "ui://x"}},
        }

    def test_tools_are_never_instantiated(self):
        with pytest.raises(TypeError):
            ExampleTool()

    def test_a_tool_without_call_is_refused_when_served(self):
        class Unfinished(Tool):  # a base class of other tools may leave call out
            pass

        with pytest.raises(DefinitionError, match=r"^Tool unfinished: no call method; define '@classmethod def call\(cls"):
            Server(tools=[Unfinished])

    def test_arguments_arrive_as_keyword_arguments(self):
        assert Server(tools=[ExampleTool]).handle(call_tool("example_tool", {"message": "Ann"}))["result"] == {
            "content": [{"type": "text", "text": "Hello Ann"}],
            "isError": False,
        }

    def test_arguments_the_call_does_not_take_are_dropped(self):
        class Strict(Tool):
            @classmethod
            def call(cls, a):
                return f"a={a}"

        response = Server(tools=[Strict]).handle(call_tool("strict", {"a": 1, "b": 2}))
        assert response["result"]["content"] == [{"type": "text", "text": "a=1"}]

    def test_arguments_that_are_not_identifiers_arrive_through_kwargs(self):
        class Dashed(Tool):
            @classmethod
            def call(cls, server_context=None, **arguments):
                return ",".join(sorted(arguments))

        response = Server(tools=[Dashed]).handle(call_tool("dashed", {"first-name": "A", "last.name": "B"}))
        assert response["result"]["content"] == [{"type": "text", "text": "first-name,last.name"}]

    def test_invoke_passes_the_context_only_when_asked(self):
        class WithContext(Tool):
            @classmethod
            def call(cls, server_context):
                return server_context

        class WithoutContext(Tool):
            @classmethod
            def call(cls):
                return "none"

        assert WithContext.invoke({}, {"a": 1}) == {"a": 1}
        assert WithoutContext.invoke({}, {"a": 1}) == "none"


class TestDefine:
    def test_define_with_a_handler_returns_a_tool_class(self):
        def handler(args, server_context=None):
            return Tool.Response([Content.Text(f"got {args['x']}")])

        tool = Tool.define(
            name="my_tool",
            title="My Tool",
            description="Does things",
            input_schema={"properties": {"x": {"type": "integer"}}},
            output_schema={"properties": {"y": {"type": "integer"}}},
            annotations={"read_only_hint": True, "title": "My Tool"},
            meta={"k": "v"},
            icons=[{"src": "https://example.com/i.png"}],
            handler=handler,
        )
        assert issubclass(tool, Tool)
        assert tool.tool_name == "my_tool"
        assert tool.to_dict() == {
            "name": "my_tool",
            "title": "My Tool",
            "description": "Does things",
            "inputSchema": {"type": "object", "properties": {"x": {"type": "integer"}}},
            "outputSchema": {"type": "object", "properties": {"y": {"type": "integer"}}},
            "annotations": {"readOnlyHint": True, "title": "My Tool"},
            "icons": [{"src": "https://example.com/i.png"}],
            "_meta": {"k": "v"},
        }
        assert isinstance(tool.output_schema, Tool.OutputSchema)
        assert Server(tools=[tool]).handle(call_tool("my_tool", {"x": 3}))["result"]["content"] == [
            {"type": "text", "text": "got 3"}
        ]

    def test_define_as_a_decorator(self):
        @Tool.define(name="shout")
        def shout(args):
            """Shouts its text."""
            return args["text"].upper()

        assert issubclass(shout, Tool)
        assert shout.description == "Shouts its text."
        assert Server(tools=[shout]).handle(call_tool("shout", {"text": "hi"}))["result"]["content"] == [
            {"type": "text", "text": "HI"}
        ]

    def test_the_name_defaults_to_the_functions_name(self):
        @Tool.define()
        def lookup_user(args):
            return "x"

        assert lookup_user.tool_name == "lookup_user"

    def test_the_handler_receives_the_arguments_dict_and_the_context_when_asked(self):
        seen = []

        def handler(args, server_context):
            seen.append((args, server_context["user"]))
            return "ok"

        tool = Tool.define(name="ctx", handler=handler)
        Server(tools=[tool], server_context={"user": "ann"}).handle(call_tool("ctx", {"a": 1}))
        assert seen == [({"a": 1}, "ann")]

    def test_each_define_makes_an_independent_class(self):
        first = Tool.define(name="first", description="1", handler=lambda args: "1")
        second = Tool.define(name="second", handler=lambda args: "2")
        assert (first.description, second.description) == ("1", None)


class TestServerDefineTool:
    def test_define_tool_registers_and_lists_the_tool(self):
        server = Server()

        @server.define_tool(name="add", description="Adds", input_schema={"properties": {"a": {"type": "number"}}})
        def add(args):
            return str(args["a"] + 1)

        assert server.handle(call_tool("add", {"a": 1}))["result"]["content"] == [{"type": "text", "text": "2"}]
        assert server.tools["add"].to_dict() == {
            "name": "add",
            "description": "Adds",
            "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}}},
        }

    def test_define_tool_without_decorator_syntax(self):
        server = Server()
        server.define_tool(name="ping_tool", handler=lambda args: "pong")
        assert "ping_tool" in server.tools


class TestValidateName:
    def test_a_valid_name_is_returned(self):
        assert validate_name("a.b-c_d") == "a.b-c_d"

    @pytest.mark.parametrize("name", [None, 5, "", "a b", "x" * 129])
    def test_an_invalid_name_is_refused(self, name):
        from mcp_sdk import InvalidNameError

        with pytest.raises(InvalidNameError):
            validate_name(name)


def five_spellings(arguments_dict: bool) -> list[type[Tool]]:
    """The tool ``shout`` written the five ways (a class, Tool.define with handler= and as a decorator,
    server.define_tool, @server.tool), taking its arguments as keywords or, with ``arguments_dict``, one dict."""

    if arguments_dict:

        def shout(args, server_context=None):
            return args["text"].upper()

        class Shout(Tool):
            arguments_dict = True
            input_schema = {"properties": {"text": {"type": "string"}}, "required": ["text"]}

            @classmethod
            def call(cls, args, server_context=None):
                return args["text"].upper()

    else:

        def shout(text: str, server_context=None):
            return text.upper()

        class Shout(Tool):
            input_schema = {"properties": {"text": {"type": "string"}}, "required": ["text"]}

            @classmethod
            def call(cls, text, server_context=None):
                return text.upper()

    schema = {"properties": {"text": {"type": "string"}}, "required": ["text"]}
    server = Server()
    server.define_tool(name="by_define_tool", input_schema=schema, arguments_dict=arguments_dict, handler=shout)
    server.tool("by_server_tool", input_schema=schema, arguments_dict=arguments_dict)(shout)
    return [
        Shout,
        Tool.define(name="by_define", input_schema=schema, arguments_dict=arguments_dict, handler=shout),
        Tool.define(name="by_define_decorator", input_schema=schema, arguments_dict=arguments_dict)(shout),
        server.tools["by_define_tool"],
        server.tools["by_server_tool"],
    ]


class TestEverySpellingAnswersAlike:
    BODIES = [
        {"text": "hi"},
        {"text": ""},
        {"text": "hi", "extra": 1},
        {},
        {"text": 5},
        {"text": None},
        None,
    ]

    @pytest.mark.parametrize("arguments_dict", [False, True], ids=["keywords", "one-dict"])
    @pytest.mark.parametrize("body", BODIES)
    def test_the_five_spellings_give_one_answer(self, arguments_dict, body):
        answers = []
        for tool in five_spellings(arguments_dict):
            server = Server(tools=[tool])
            params = {"name": tool.tool_name} if body is None else {"name": tool.tool_name, "arguments": body}
            response = server.handle({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
            answers.append(response)
        assert all(answer == answers[0] for answer in answers), answers


class TestTheOneDictFormIsChosenByShape:
    """Without ``arguments_dict=``, the function's shape decides (``takes_arguments_dict``), never a name."""

    def answer(self, tool, arguments):
        return Server(tools=[tool]).handle(call_tool(tool.tool_name, arguments))["result"]["content"][0]["text"]

    def test_one_parameter_without_a_hint_or_a_schema_is_the_dict_whatever_its_name(self):
        @Tool.define(name="keys")
        def keys(payload):
            return ",".join(sorted(payload))

        assert keys.arguments_dict is True
        assert self.answer(keys, {"b": 1, "a": 2}) == "a,b"

    def test_a_name_decides_nothing_against_a_hint(self):
        @Tool.define(name="echo")
        def echo(args: str):
            return args

        assert echo.arguments_dict is False
        assert echo.to_dict()["inputSchema"]["properties"] == {"args": {"type": "string"}}
        assert self.answer(echo, {"args": "hi"}) == "hi"

    def test_a_mapping_hint_written_as_a_string_is_resolved_not_read(self):
        @Tool.define(name="count")
        def count(values: t.Mapping[str, int]):  # a string under `from __future__ import annotations`
            return str(sum(values.values()))

        assert count.arguments_dict is True
        assert self.answer(count, {"a": 1, "b": 2}) == "3"

    def test_a_tool_subclass_says_so_with_the_class_attribute(self):
        class Size(Tool):
            arguments_dict = True

            @classmethod
            def call(cls, args):
                return str(len(args))

        assert Size.to_dict()["inputSchema"] == {"type": "object"}
        assert self.answer(Size, {"a": 1, "b": 2}) == "2"

    def test_the_class_attribute_is_a_bool(self):
        with pytest.raises(DefinitionError, match="Tool odd: arguments_dict must be True or False, not 'yes'"):

            class Odd(Tool):
                arguments_dict = "yes"

    def test_server_tool_takes_keywords_unless_told(self):
        server = Server()

        @server.tool
        def plain(args: dict) -> str:
            return repr(args)

        @server.tool(arguments_dict=True)
        def whole(args: dict) -> str:
            return repr(args)

        assert server.handle(call_tool("plain", {"args": {"x": 1}}))["result"]["content"][0]["text"] == "{'x': 1}"
        assert server.handle(call_tool("whole", {"x": 1}))["result"]["content"][0]["text"] == "{'x': 1}"
