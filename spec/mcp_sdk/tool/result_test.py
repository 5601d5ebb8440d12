"""What a tool returns is checked and put in wire form before anything is encoded (issue 12)."""

from __future__ import annotations

import dataclasses
import json
import typing as t

import attrs
import pytest

from mcp_sdk import Configuration, Content, Server, Tool
from mcp_sdk.errors import ToolResultError
from spec.support.server_helpers import VERSIONS, Recorder, call_tool, initialize
from spec.support.wire_schema import assert_valid

LATEST = VERSIONS[-1]


@dataclasses.dataclass
class Weather:
    city: str
    celsius: float


@attrs.define
class Place:
    name: str
    tags: list[str]


class Alert(t.TypedDict):
    state: str
    count: int


def answer(returned: t.Any, *, output_schema: dict[str, t.Any] | None = None, validate: bool = False) -> tuple[dict[str, t.Any], Recorder]:
    """The ``tools/call`` response of a tool returning ``returned``, and what was reported."""
    reporter = Recorder()
    server = Server(name="s", configuration=Configuration(exception_reporter=reporter, validate_tool_call_results=validate))

    @server.define_tool(name="weather", output_schema=output_schema)
    def weather(args: dict[str, t.Any]) -> t.Any:
        return returned

    initialize(server)
    response = server.handle(call_tool("weather", id=7))
    assert "result" in response, response
    assert_valid("CallToolResult", response["result"], LATEST)
    return response["result"], reporter


TEXT = {"type": "text", "text": "Sunny"}


@pytest.mark.parametrize(
    "returned, content",
    [
        (Tool.Response("Sunny"), [TEXT]),
        ("Sunny", [TEXT]),
        (Content.Text("Sunny"), [TEXT]),
        (TEXT, [TEXT]),
        (["Sunny", "Rain"], [TEXT, {"type": "text", "text": "Rain"}]),
        (("Sunny", Content.Image(data="aW1n", mime_type="image/png")), [TEXT, {"type": "image", "data": "aW1n", "mimeType": "image/png"}]),
        (Tool.Response(Content.Text("Sunny")), [TEXT]),
        (Tool.Response(["Sunny", TEXT]), [TEXT, TEXT]),
        (None, []),
        (Tool.Response(), []),
    ],
)
def test_strings_blocks_and_lists_of_them_become_content(returned, content):
    result, reporter = answer(returned)
    assert result == {"content": content, "isError": False}
    assert reporter.calls == []


@pytest.mark.parametrize(
    "returned, data",
    [
        ({"city": "Paris", "celsius": 21.5}, {"city": "Paris", "celsius": 21.5}),
        (Weather("Paris", 21.5), {"city": "Paris", "celsius": 21.5}),
        (Place("Paris", ["fr"]), {"name": "Paris", "tags": ["fr"]}),
        (Alert(state="CA", count=2), {"state": "CA", "count": 2}),
    ],
)
def test_dicts_dataclasses_attrs_and_typed_dicts_become_structured_content_and_its_json(returned, data):
    result, _ = answer(returned, output_schema={"type": "object"}, validate=True)
    assert result["structuredContent"] == data
    assert result["isError"] is False
    (block,) = result["content"]
    assert block["type"] == "text" and json.loads(block["text"]) == data


def test_a_dataclass_as_structured_content_of_a_response_is_unstructured():
    result, _ = answer(Tool.Response("Sunny", structured_content=Weather("Paris", 21.5)))
    assert result == {"content": [TEXT], "isError": False, "structuredContent": {"city": "Paris", "celsius": 21.5}}


@pytest.mark.parametrize(
    "returned, value, text",
    [
        (42, 42, "42"),
        (3.5, 3.5, "3.5"),
        (True, True, "true"),
        ([42, 7], [42, 7], "[42,7]"),
        ((1, "a"), [1, "a"], '[1,"a"]'),
        ([{"kind": "text"}], [{"kind": "text"}], '[{"kind":"text"}]'),
        ([Weather("Paris", 21.5)], [Weather("Paris", 21.5)], None),
    ],
)
def test_numbers_booleans_and_lists_of_json_values_become_result_wrapped_structured_content(returned, value, text):
    result, reporter = answer(returned)
    if text is None:  # a list holding a dataclass is no JSON: the SDK says so
        assert result == {
            "content": [
                {
                    "type": "text",
                    "text": "Tool weather returned structured content that is not JSON "
                    "(a value JSON cannot carry, or nested too deep)",
                }
            ],
            "isError": True,
        }
        return
    assert result == {"content": [{"type": "text", "text": text}], "structuredContent": {"result": value}, "isError": False}
    assert reporter.errors == []


ACCEPTED = (
    "return a string, content blocks (Content.Text(...) or wire dicts), a list of them, "
    "a dict, dataclass, attrs instance or Pydantic model (structured content), a number, a boolean or a list of "
    'JSON values (structured content as {"result": value}), a Tool.Response, or None'
)


@pytest.mark.parametrize(
    "returned, named, told",
    [
        (object, "type", f"Tool weather returned a type, which has no MCP form: {ACCEPTED}"),
        ({1, 2}, "set {1, 2}", f"Tool weather returned a set, which has no MCP form: {ACCEPTED}"),
        (
            Tool.Response([{"type": "text", "text": 5}]),
            "without a string 'text'",
            "Tool weather returned a 'text' content block without a string 'text'",
        ),
        (
            Tool.Response([{"type": "image", "data": "x"}]),
            "without a string 'mimeType'",
            "Tool weather returned a 'image' content block without a string 'mimeType'",
        ),
        (
            Tool.Response([{"kind": "text"}]),
            "dict {'kind': 'text'} as a content block",
            f"Tool weather returned a dict as a content block, which has no MCP form: {ACCEPTED}",
        ),
        (
            {"content": [TEXT], "isError": "yes"},
            "isError='yes'",
            "Tool weather returned an isError of type str, not a boolean",
        ),
        ({"content": "Sunny", "structuredContent": {}}, None, None),
        (
            {"structuredContent": {"when": object()}},
            "not JSON",
            "Tool weather returned structured content that is not JSON (a value JSON cannot carry, or nested too deep)",
        ),
        (
            Tool.Response("ok", structured_content=Weather("Paris", float("nan"))),
            "not JSON",
            "Tool weather returned structured content that is not JSON (a value JSON cannot carry, or nested too deep)",
        ),
    ],
)
def test_anything_else_is_reported_and_the_client_told_in_the_sdks_words(returned, named, told):
    result, reporter = answer(returned)
    if named is None:  # a string as a wire dict's content is one text block, like a bare string
        assert result["content"] == [TEXT]
        return
    assert result == {"content": [{"type": "text", "text": told}], "isError": True}
    (error,) = reporter.errors
    assert isinstance(error, ToolResultError) and isinstance(error, TypeError)
    assert str(error).startswith("Tool weather returned")
    assert named in str(error)


def test_response_keeps_a_single_string_whole():
    assert Tool.Response("Sunny").to_dict() == {"content": [TEXT], "isError": False}


def test_a_number_or_list_return_hint_declares_the_wrapped_output_schema_and_the_result_matches_it():
    server = Server(name="s", configuration=Configuration(validate_tool_call_results=True))

    @server.tool
    def count(word: str) -> int:
        """How long a word is."""
        return len(word)

    @server.tool
    def scores() -> list[float]:
        return [1.5, 2.0]

    @server.tool
    def names() -> list[str]:
        return ["Ada", "Grace"]

    initialize(server)
    tools = {tool["name"]: tool for tool in server.handle({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})["result"]["tools"]}
    assert tools["count"]["outputSchema"] == {
        "type": "object",
        "properties": {"result": {"type": "integer"}},
        "required": ["result"],
    }
    assert tools["scores"]["outputSchema"] == {
        "type": "object",
        "properties": {"result": {"type": "array", "items": {"type": "number"}}},
        "required": ["result"],
    }
    assert "outputSchema" not in tools["names"]  # a list of strings is text content
    assert server.handle(call_tool("count", {"word": "four"}, id=2))["result"] == {
        "content": [{"type": "text", "text": "4"}],
        "structuredContent": {"result": 4},
        "isError": False,
    }
    assert server.handle(call_tool("names", id=3))["result"] == {
        "content": [{"type": "text", "text": "Ada"}, {"type": "text", "text": "Grace"}],
        "isError": False,
    }
