"""The official Python SDK's client (``mcp`` >= 2.3) against examples/pydantic_server.py: Pydantic
models as tool parameters, as a tool's whole input, as results, as prompt arguments and as an
elicitation form, in both protocol eras, over real stdio (every line recorded and validated
against the protocol's schemas, one ``tools/list`` and one ``tools/call`` compared byte for byte)
and over real HTTP."""

from __future__ import annotations

import json
import pathlib
import sys
import typing as t

import anyio
import mcp_types as types
import pytest
from mcp import Client, MCPError
from mcp.client.stdio import StdioServerParameters

from spec.support.http_server import ROOT, LiveServer
from spec.support.wire_schema import MODERN, assert_valid, assert_valid_modern, assert_valid_response

SERVER = ROOT / "examples" / "pydantic_server.py"
TEE = ROOT / "spec" / "support" / "stdio_tee.py"
TIMEOUT = 30.0
LEGACY = "2025-11-25"

#: The form the client is asked to fill: Preferences, flat, its enum written out.
PREFERENCES_FORM = {
    "type": "object",
    "properties": {
        "nickname": {"description": "What to call you", "title": "Nickname", "type": "string"},
        "color": {"enum": ["red", "blue"], "title": "Color", "type": "string", "default": "blue"},
        "newsletter": {"default": False, "title": "Newsletter", "type": "boolean"},
    },
    "required": ["nickname"],
}

USER_SCHEMA = {
    "properties": {
        "name": {"description": "Full name", "minLength": 1, "title": "Name", "type": "string"},
        "age": {"maximum": 150, "minimum": 0, "title": "Age", "type": "integer"},
        "address": {
            "anyOf": [
                {
                    "properties": {
                        "city": {"title": "City", "type": "string"},
                        "country": {"default": "CH", "title": "Country", "type": "string"},
                    },
                    "required": ["city"],
                    "title": "Address",
                    "type": "object",
                },
                {"type": "null"},
            ],
            "default": None,
        },
    },
    "required": ["name", "age"],
    "title": "User",
    "type": "object",
}

#: greet's tools/list entry, exactly: the model inlined (no $ref), Field constraints kept.
GREET_ENTRY = {
    "name": "greet",
    "description": "Greet a user.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "user": USER_SCHEMA,
            "times": {"description": "How often", "maximum": 3, "minimum": 1, "type": "integer", "default": 1},
        },
        "required": ["user"],
    },
}

#: create_user's tools/list entry: input and output schema from the model itself.
CREATE_USER_ENTRY = {
    "name": "create_user",
    "description": "Create a user",
    "inputSchema": USER_SCHEMA,
    "outputSchema": USER_SCHEMA,
}

ADA = {"name": "ada lovelace", "age": 36, "address": {"city": "London", "country": "UK"}}
#: create_user's tools/call result, exactly: the returned model as structuredContent and as text.
CREATE_USER_RESULT = {
    "content": [{"type": "text", "text": '{"name":"Ada Lovelace","age":36,"address":{"city":"London","country":"UK"}}'}],
    "structuredContent": {"name": "Ada Lovelace", "age": 36, "address": {"city": "London", "country": "UK"}},
    "isError": False,
}


async def elicitation(context: t.Any, params: types.ElicitRequestParams) -> types.ElicitResult:
    assert params.requested_schema == PREFERENCES_FORM  # type: ignore[union-attr]
    return types.ElicitResult(action="accept", content={"nickname": "Ada", "color": "red", "newsletter": True})


def client(server: t.Any, mode: str) -> Client:
    return Client(server, mode=mode, elicitation_callback=elicitation, read_timeout_seconds=TIMEOUT)


async def call(session: Client, name: str, arguments: dict[str, t.Any]) -> tuple[bool, str, t.Any]:
    result = await session.call_tool(name, arguments)
    return result.is_error, result.content[0].text, result.structured_content  # type: ignore[union-attr]


async def exercise(session: Client, version: str) -> None:
    assert session.protocol_version == version
    tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert sorted(tools) == ["adults", "ask_preferences", "create_user", "greet", "oldest"]
    assert tools["greet"].input_schema == GREET_ENTRY["inputSchema"]
    assert tools["create_user"].output_schema == USER_SCHEMA

    # A model as a parameter, and an Annotated[int, Field(...)] beside it.
    assert await call(session, "greet", {"user": {"name": "Ada", "age": 36, "address": {"city": "London"}}, "times": 2}) == (
        False, "Hello Ada from London! Hello Ada from London!", None
    )
    # What the schema says fails as schema failures do; what only the model knows (its validator) too.
    assert await call(session, "greet", {"user": {"name": "Ada", "age": -1}}) == (
        True, "Invalid arguments: user.age must be bigger than or equal to 0", None
    )
    assert await call(session, "greet", {"user": {"name": "Ada", "age": 1}, "times": 4}) == (
        True, "Invalid arguments: times must be smaller than or equal to 3", None
    )
    assert await call(session, "greet", {"user": {"name": "root", "age": 1}}) == (
        True, "Invalid arguments: user.name: Value error, 'root' is reserved", None
    )
    # The model as the tool's whole input (class API) and as its result.
    assert await call(session, "create_user", ADA) == (
        False, CREATE_USER_RESULT["content"][0]["text"], CREATE_USER_RESULT["structuredContent"]  # type: ignore[index]
    )
    assert await call(session, "create_user", {"name": "root", "age": 1}) == (
        True, "Invalid arguments: name: Value error, 'root' is reserved", None
    )
    # Lists of models in and out.
    users = [{"name": "Ada", "age": 36}, {"name": "Tim", "age": 12}]
    oldest = {"name": "Ada", "age": 36, "address": None}
    assert (await call(session, "oldest", {"users": users}))[::2] == (False, oldest)
    assert (await call(session, "adults", {"users": users}))[::2] == (False, {"result": [oldest]})
    # Elicitation: the form from the model, the answer as a validated model instance.
    assert await call(session, "ask_preferences", {}) == (False, "Preferences: Ada likes red, newsletter=True", None)

    # Prompts: a model argument as JSON text, a model as the whole arguments (class API).
    prompts = {prompt.name: prompt for prompt in (await session.list_prompts()).prompts}
    assert [(argument.name, argument.required) for argument in prompts["summary"].arguments or []] == [
        ("style", False), ("max_points", False)
    ]
    review = await session.get_prompt("review", {"code": "x = 1", "options": '{"style": "detailed"}'})
    assert review.messages[0].content.text == "Review (detailed, at most 3 points): x = 1"  # type: ignore[union-attr]
    summary = await session.get_prompt("summary", {"max_points": "5"})
    assert summary.messages[0].content.text == "Summarize in 5 short points."  # type: ignore[union-attr]
    with pytest.raises(MCPError) as refused:
        await session.get_prompt("summary", {"max_points": "11"})
    assert (refused.value.error.code, refused.value.error.message) == (
        -32602, "Invalid params: argument 'max_points': Input should be less than or equal to 10"
    )


def tee(log: pathlib.Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=[str(TEE), str(log), sys.executable, str(SERVER)])


def recorded(log: pathlib.Path) -> list[tuple[str, dict[str, t.Any]]]:
    return [(entry["from"], json.loads(entry["line"])) for entry in map(json.loads, log.read_text().splitlines())]


def check_wire(messages: list[tuple[str, dict[str, t.Any]]], version: str) -> dict[str, list[dict[str, t.Any]]]:
    """Validate every message the server wrote; return its responses by the method they answer."""
    methods = {message["id"]: message["method"] for side, message in messages if side == "client" and "method" in message and "id" in message}
    answers: dict[str, list[dict[str, t.Any]]] = {}
    for side, message in messages:
        if side != "server":
            continue
        if "method" in message:  # a server-to-client request (2025: elicitation/create)
            assert (version, message["method"]) == (LEGACY, "elicitation/create")
            assert_valid("JSONRPCRequest", message, version)
            assert_valid("ElicitRequest", message, version)
            assert message["params"]["requestedSchema"] == PREFERENCES_FORM
            continue
        method = methods[message["id"]]
        if version == MODERN:
            assert_valid_modern(method, message)
        else:
            assert_valid_response(method, message, version)
        answers.setdefault(method, []).append(message)
    return answers


def without_envelope(result: dict[str, t.Any]) -> dict[str, t.Any]:
    return {key: value for key, value in result.items() if key not in ("resultType", "_meta")}


@pytest.mark.parametrize(("mode", "version"), [("legacy", LEGACY), ("2026-07-28", MODERN)])
def test_the_official_client_over_stdio_with_the_wire_checked(tmp_path: pathlib.Path, mode: str, version: str) -> None:
    log = tmp_path / "wire.jsonl"

    async def main() -> None:
        async with client(tee(log), mode) as session:
            await exercise(session, version)

    anyio.run(main)
    answers = check_wire(recorded(log), version)
    listed = answers["tools/list"][0]["result"]
    tools = {entry["name"]: entry for entry in listed["tools"]}
    assert tools["greet"] == GREET_ENTRY
    assert tools["create_user"] == CREATE_USER_ENTRY
    created = [answer["result"] for answer in answers["tools/call"] if answer["result"].get("structuredContent", {}).get("name") == "Ada Lovelace"]
    assert [without_envelope(result) for result in created] == [CREATE_USER_RESULT]
    if version == MODERN:
        assert created[0]["resultType"] == "complete"
        # The elicitation went as an input request (MRTR), its form the same.
        asked = [answer["result"] for answer in answers["tools/call"] if answer["result"]["resultType"] == "input_required"]
        assert [list(result["inputRequests"].values())[0]["params"]["requestedSchema"] for result in asked] == [PREFERENCES_FORM]


@pytest.fixture(scope="module")
def http_url() -> t.Iterator[str]:
    sys.path.insert(0, str(SERVER.parent))
    try:
        import pydantic_server
    finally:
        sys.path.remove(str(SERVER.parent))
    from mcp_sdk.server.transports import StreamableHTTPTransport

    transport = StreamableHTTPTransport(pydantic_server.build_server())
    with LiveServer(transport, closeables=[transport]) as live:
        yield live.url


@pytest.mark.parametrize(("mode", "version"), [("legacy", LEGACY), ("2026-07-28", MODERN)])
def test_the_official_client_over_http(http_url: str, mode: str, version: str) -> None:
    async def main() -> None:
        async with client(http_url, mode) as session:
            await exercise(session, version)

    anyio.run(main)
