"""What a tool returns is checked and put in wire form before anything is encoded (issue 12)."""

from __future__ import annotations

import dataclasses
import json
import typing as t

import attrs
import pytest

from mcp_sdk import Configuration, Content, Server, Tool
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
    "returned, named",
    [
        (42, "int 42"),
        (3.5, "float 3.5"),
        (object, "type"),
        ([42], "int 42"),
        ([{"kind": "text"}], "dict {'kind': 'text'}"),
        (Tool.Response([{"type": "text", "text": 5}]), "without a string 'text'"),
        (Tool.Response([{"type": "image", "data": "x"}]), "without a string 'mimeType'"),
        ({"content": [TEXT], "isError": "yes"}, "isError='yes'"),
        ({"content": "Sunny", "structuredContent": {}}, None),
        ({"structuredContent": {"when": object()}}, "not JSON"),
        (Tool.Response("ok", structured_content=Weather("Paris", float("nan"))), "not JSON"),
    ],
)
def test_anything_else_is_a_type_error_naming_the_tool_reported_and_answered_generically(returned, named):
    result, reporter = answer(returned)
    if named is None:  # a string as a wire dict's content is one text block, like a bare string
        assert result["content"] == [TEXT]
        return
    assert result == {"content": [{"type": "text", "text": "Internal error occurred"}], "isError": True}
    (error,) = reporter.errors
    assert isinstance(error, TypeError)
    assert str(error).startswith("Tool weather returned")
    assert named in str(error)


def test_response_keeps_a_single_string_whole():
    assert Tool.Response("Sunny").to_dict() == {"content": [TEXT], "isError": False}
