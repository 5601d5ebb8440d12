"""Pydantic models as a schema source: schemas, argument building, results, prompts and elicitation,
through real servers (and the official client in spec/examples/pydantic_server_interop_test.py)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import typing as t

import pytest
from pydantic import BaseModel, Field, RootModel, model_validator

from mcp_sdk import Client, Configuration, DefinitionError, MissingExtraError, Prompt, SchemaError, Server, Tool
from mcp_sdk.client import InMemory
from mcp_sdk.elicitation import ElicitationResult, requested_schema
from mcp_sdk.tool.pydantic_schema import inline_references
from spec.support.wire_schema import assert_valid, assert_valid_response


class Node(BaseModel):
    label: str
    children: list[Node] = []


class Span(BaseModel):
    start: int
    end: int

    @model_validator(mode="after")
    def ordered(self) -> Span:
        if self.end < self.start:
            raise ValueError("end before start")
        return self


def handle(server: Server, method: str, params: dict[str, t.Any] | None = None) -> dict[str, t.Any]:
    request: dict[str, t.Any] = {"jsonrpc": "2.0", "id": 1, "method": method}
    if params is not None:
        request["params"] = params
    response = server.handle(request)
    assert response is not None
    assert_valid_response(method, response)
    return response


def call(server: Server, name: str, arguments: dict[str, t.Any]) -> dict[str, t.Any]:
    return handle(server, "tools/call", {"name": name, "arguments": arguments})["result"]


def test_importing_and_serving_never_imports_pydantic() -> None:
    program = """
import dataclasses, sys
from mcp_sdk import Server
@dataclasses.dataclass
class Window:
    days: int
server = Server(name="s")
@server.tool
def plan(window: Window) -> Window:
    return Window(days=window["days"] + 1)
print(server.handle({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                     "params": {"name": "plan", "arguments": {"window": {"days": 1}}}})["result"]["structuredContent"])
print("pydantic" in sys.modules)
"""
    output = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True)
    assert output.stdout.splitlines() == ["{'days': 2}", "False"]


def test_a_recursive_model_keeps_its_definitions_at_the_schema_root_and_validates() -> None:
    server = Server(name="s")

    @server.tool
    def count(tree: Node) -> int:
        return 1 + sum(count(child) for child in tree.children)  # type: ignore[operator]

    node = {
        "properties": {
            "label": {"title": "Label", "type": "string"},
            "children": {"default": [], "items": {"$ref": "#/$defs/Node"}, "title": "Children", "type": "array"},
        },
        "required": ["label"],
        "title": "Node",
        "type": "object",
    }
    assert handle(server, "tools/list")["result"]["tools"][0]["inputSchema"] == {
        "type": "object",
        "properties": {"tree": node},  # written out once; only the recursion is a reference
        "required": ["tree"],
        "$defs": {"Node": node},
    }
    tree = {"label": "a", "children": [{"label": "b"}, {"label": "c", "children": [{"label": "d"}]}]}
    assert call(server, "count", {"tree": tree})["structuredContent"] == {"result": 4}
    assert call(server, "count", {"tree": {"label": "a", "children": [{"label": 1}]}}) == {
        "content": [{"type": "text", "text": "Invalid arguments: tree.children[0].label must be string"}],
        "isError": True,
    }


def test_references_are_inlined_with_the_keywords_beside_them() -> None:
    schema = {
        "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}}, "B": {"type": "integer"}},
        "properties": {"a": {"$ref": "#/$defs/A", "description": "an A"}},
    }
    assert inline_references(schema) == {
        "properties": {"a": {"type": "object", "properties": {"b": {"type": "integer"}}, "description": "an A"}}
    }


def test_a_models_own_validator_names_the_field_even_without_schema_validation() -> None:
    server = Server(name="s", configuration=Configuration(validate_tool_call_arguments=False))

    @server.tool
    def length(span: Span) -> int:
        return span.end - span.start  # type: ignore[attr-defined]

    assert call(server, "length", {"span": {"start": 1, "end": 4}})["structuredContent"] == {"result": 3}
    assert call(server, "length", {"span": {"start": 4, "end": 1}})["content"] == [
        {"type": "text", "text": "Invalid arguments: span: Value error, end before start"}
    ]
    assert call(server, "length", {"span": {"start": "x", "end": 1}})["content"] == [
        {"type": "text", "text": "Invalid arguments: span.start: Input should be a valid integer, unable to parse string as an integer"}
    ]


def test_the_define_form_takes_the_model_as_its_one_arguments_object() -> None:
    @Tool.define(name="measure", input_schema=Span, output_schema=Span)
    def measure(args: Span) -> Span:
        return Span(start=args.start, end=args.end * 2)

    class Stretch(Tool):
        input_schema = Span

        @classmethod
        def call(cls, start: int, end: int) -> str:  # the model's fields as keywords
            return f"{start}..{end}"

    server = Server(name="s", tools=[measure, Stretch])
    assert call(server, "measure", {"start": 1, "end": 2})["structuredContent"] == {"start": 1, "end": 4}
    assert call(server, "measure", {"start": 3, "end": 2})["content"][0]["text"] == "Invalid arguments: Value error, end before start"
    assert call(server, "stretch", {"start": 1, "end": 2})["content"] == [{"type": "text", "text": "1..2"}]


def test_a_model_that_is_no_object_is_refused_as_a_tools_output_schema() -> None:
    with pytest.raises(SchemaError, match=r"Tool numbers: output_schema must describe an object"):

        class Numbers(Tool):
            output_schema = RootModel[list[int]]

            @classmethod
            def call(cls) -> t.Any:
                return [1]


def another_node() -> t.Any:
    class Node(BaseModel):  # another recursive Node: both keep their definitions
        value: int
        next: Node | None = None

    return Node


def test_two_different_models_with_one_name_in_one_schema_are_refused() -> None:
    other = another_node()

    def both(a: t.Any, b: t.Any) -> None:
        return None

    both.__annotations__ = {"a": Node, "b": other}  # the classes themselves: one is local to another_node()

    with pytest.raises(DefinitionError, match="Tool both: two different types are both named 'Node'"):
        Tool.define(name="both", arguments_dict=False, handler=both)


def test_a_prompt_parameter_checks_its_field_constraints() -> None:
    server = Server(name="s")

    @server.prompt
    def repeat(word: str, times: t.Annotated[int, Field(ge=1, le=3, description="How often")] = 1) -> str:
        return " ".join([word] * times)

    assert handle(server, "prompts/list")["result"]["prompts"][0]["arguments"] == [
        {"name": "word", "required": True},
        {"name": "times", "description": "How often", "required": False},
    ]
    got = handle(server, "prompts/get", {"name": "repeat", "arguments": {"word": "hi", "times": "2"}})
    assert got["result"]["messages"][0]["content"] == {"type": "text", "text": "hi hi"}
    refused = handle(server, "prompts/get", {"name": "repeat", "arguments": {"word": "hi", "times": "9"}})
    assert refused["error"] == {"code": -32602, "message": "Invalid params: argument 'times': Input should be less than or equal to 3"}


def test_a_prompt_class_with_a_model_as_arguments_gets_the_instance() -> None:
    class Extent(Prompt):
        arguments = Span

        @classmethod
        def template(cls, args: Span) -> Prompt.Result:
            return Prompt.Result(messages=[Prompt.Message(role="user", content={"type": "text", "text": repr(args)})])

    server = Server(name="s", prompts=[Extent])
    assert handle(server, "prompts/list")["result"]["prompts"] == [
        {"name": "extent", "arguments": [{"name": "start", "required": True}, {"name": "end", "required": True}]}
    ]
    got = handle(server, "prompts/get", {"name": "extent", "arguments": {"start": "1", "end": "2"}})
    assert got["result"]["messages"][0]["content"]["text"] == "Span(start=1, end=2)"
    refused = handle(server, "prompts/get", {"name": "extent", "arguments": {"start": "2", "end": "1"}})
    assert refused["error"] == {"code": -32602, "message": "Invalid params: Value error, end before start"}


@dataclasses.dataclass
class Booking:
    guests: int
    note: t.Optional[str] = None


class Contact(BaseModel):
    email: str = Field(description="Where to write")


def test_elicit_builds_the_answer_into_the_requested_type() -> None:
    server = Server(name="s")
    results: list[ElicitationResult[t.Any]] = []

    @server.tool
    def ask(kind: str, server_context: t.Any) -> str:
        schema = {"booking": Booking, "contact": Contact, "dict": {"properties": {"ok": {"type": "boolean"}}}}[kind]
        results.append(server_context.elicit("Please fill in", schema=schema))
        return "asked"

    asked: list[dict[str, t.Any]] = []
    client = Client(transport=InMemory(server))

    @client.on_elicitation
    def answer(params: dict[str, t.Any]) -> dict[str, t.Any]:
        asked.append(params)
        assert_valid("ElicitRequestParams", params)
        if "email" in params["requestedSchema"]["properties"]:
            return {"action": "decline"} if len(asked) > 3 else {"action": "accept", "content": {"email": "a@b.c"}}
        if "guests" in params["requestedSchema"]["properties"]:
            return {"action": "accept", "content": {"guests": 2}}
        return {"action": "accept", "content": {"ok": True}}

    client.connect()
    for kind in ("booking", "contact", "dict", "contact"):
        assert client.call_tool(name="ask", arguments={"kind": kind})["result"]["isError"] is False
    client.close()
    assert [params["requestedSchema"] for params in asked[:2]] == [
        {"type": "object", "properties": {"guests": {"type": "integer"}, "note": {"type": "string"}}, "required": ["guests"]},
        {
            "type": "object",
            "properties": {"email": {"description": "Where to write", "title": "Email", "type": "string"}},
            "required": ["email"],
        },
    ]
    assert results == [
        ElicitationResult("accept", Booking(guests=2), {"guests": 2}),
        ElicitationResult("accept", Contact(email="a@b.c"), {"email": "a@b.c"}),
        ElicitationResult("accept", {"ok": True}, {"ok": True}),
        ElicitationResult("decline"),
    ]


def test_a_form_with_a_nested_field_is_refused_naming_it() -> None:
    class Order(BaseModel):
        booking: Contact

    with pytest.raises(TypeError, match="field 'booking' is not a string, number, integer, boolean or enum"):
        requested_schema(Order)


def test_a_model_whose_json_is_no_object_is_wrapped_as_result() -> None:
    Scores = RootModel[list[int]]
    server = Server(name="s")

    def scores(n: int) -> Scores:  # type: ignore[valid-type]
        return Scores([n, n + 1])

    scores.__annotations__["return"] = Scores
    server.tool(scores)
    assert handle(server, "tools/list")["result"]["tools"][0]["outputSchema"] == {
        "type": "object",
        "properties": {"result": {"items": {"type": "integer"}, "title": "RootModel[list[int]]", "type": "array"}},
        "required": ["result"],
    }
    assert call(server, "scores", {"n": 1}) == {
        "content": [{"type": "text", "text": "[1,2]"}],
        "structuredContent": {"result": [1, 2]},
        "isError": False,
    }


def test_define_with_a_model_and_one_parameter_named_as_a_field_takes_it_as_a_keyword() -> None:
    class Label(BaseModel):
        text: str = Field(max_length=5)

    @Tool.define(name="shout", input_schema=Label)
    def shout(text: str) -> str:  # the model's field, so a keyword (not the arguments object)
        return text.upper()

    @Tool.define(name="span", input_schema=Span)
    def span(args: Span) -> str:
        return repr(args)

    server = Server(name="s", tools=[shout, span])
    assert call(server, "shout", {"text": "hey"})["content"] == [{"type": "text", "text": "HEY"}]
    assert call(server, "span", {"start": 1, "end": 2})["content"] == [{"type": "text", "text": "Span(start=1, end=2)"}]


def test_a_pydantic_1_model_raises_missing_extra_naming_it() -> None:
    import pydantic.v1

    class Legacy(pydantic.v1.BaseModel):
        x: int

    def legacy(model: t.Any) -> None:
        return None

    legacy.__annotations__ = {"model": Legacy}
    with pytest.raises(MissingExtraError, match=r"Legacy is a Pydantic 1 model .*pip install 'mcp_sdk\[pydantic\]'"):
        Tool.define(name="legacy", arguments_dict=False, handler=legacy)

def test_an_elicitation_answer_that_does_not_fit_the_form_is_the_tools_error_naming_the_field() -> None:
    server = Server(name="s")

    @server.tool
    def ask(server_context: t.Any) -> str:
        server_context.elicit("Please fill in", schema=Booking)
        return "asked"

    client = Client(transport=InMemory(server))
    client.on_elicitation(lambda params: {"action": "accept", "content": {"guests": "two"}})
    client.connect()
    try:
        result = client.call_tool(name="ask", arguments={})["result"]
        assert (result["content"], result["isError"]) == (
            [{"type": "text", "text": "Invalid elicitation content: guests must be integer"}], True,
        )
    finally:
        client.close()
