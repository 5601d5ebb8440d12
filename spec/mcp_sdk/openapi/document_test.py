"""A hostile OpenAPI document is refused with an ``OpenAPIError``: YAML aliases that expand a few
hundred bytes into hundreds of millions of values, an alias inside its own anchor, nesting deeper
than the schema conversion can follow. Anchors and aliases of ordinary size still work."""

from __future__ import annotations

import typing as t

import pytest

from mcp_sdk import Server
from mcp_sdk.openapi import OpenAPIError
from mcp_sdk.openapi.document import MAX_DEPTH, MAX_SHARED_NODES

HEAD = "openapi: 3.1.0\ninfo: {title: Bomb, version: '1'}\nservers: [{url: 'http://127.0.0.1:9'}]\n"
TOO_DEEP = f"^the OpenAPI document nests deeper than {MAX_DEPTH} levels$"


def alias_bomb(levels: int) -> str:
    """Nine values, then ``levels - 1`` lists of nine aliases of the one before: 9**levels values, expanded."""
    lines = [HEAD.rstrip("\n"), "x-bomb:", "  a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"  a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 9) + "]" for n in range(1, levels)]
    lines += [
        "paths:",
        "  /p:",
        "    post:",
        f"      requestBody: {{content: {{application/json: {{schema: {{type: object, properties: {{q: {{enum: *a{levels - 1}}}}}}}}}}}}}",
        "      responses: {'200': {description: ok}}",
    ]
    return "\n".join(lines) + "\n"


def nested_schema(levels: int) -> dict[str, t.Any]:
    schema: dict[str, t.Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"a": schema}}
    return {
        "openapi": "3.1.0", "info": {"title": "Deep", "version": "1"}, "servers": [{"url": "http://127.0.0.1:9"}],
        "paths": {"/p": {"post": {"requestBody": {"content": {"application/json": {"schema": schema}}}, "responses": {"200": {"description": "ok"}}}}},
    }


@pytest.mark.parametrize("levels", [6, 11])
def test_a_yaml_alias_bomb_is_refused(levels: int) -> None:
    document = alias_bomb(levels)
    assert len(document.encode()) == {6: 586, 11: 869}[levels]  # 11: the size of the review's bombs (800-920 bytes)
    with pytest.raises(OpenAPIError, match=rf"^the OpenAPI document's shared parts \(YAML aliases\) expand past {MAX_SHARED_NODES} values$"):
        Server.from_openapi(document)


@pytest.mark.parametrize("document", ["x: &a [1, *a]\n", "x: &a {k: *a}\n"])
def test_an_alias_inside_its_own_anchor_is_refused(document: str) -> None:
    with pytest.raises(OpenAPIError, match=r"^the OpenAPI document contains itself \(a YAML alias inside its own anchor\)$"):
        Server.from_openapi(HEAD + document)


def test_a_document_nested_too_deep_is_refused() -> None:
    with pytest.raises(OpenAPIError, match=TOO_DEEP):
        Server.from_openapi(nested_schema(200))
    with pytest.raises(OpenAPIError, match=TOO_DEEP):  # json.loads itself gives up (RecursionError)
        Server.from_openapi('{"openapi": "3.1.0", "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(OpenAPIError, match=TOO_DEEP):
        Server.from_openapi(HEAD + "x: " + "[" * 5_000 + "]" * 5_000 + "\n")
    # the deepest document allowed converts and validates
    server = Server.from_openapi(nested_schema((MAX_DEPTH - 10) // 2))
    assert server.handle({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "post_p", "arguments": {"a": 1}}}) == {
        "jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "Invalid arguments: a must be object"}], "isError": True},
    }


def test_anchors_and_aliases_of_ordinary_size_still_work() -> None:
    document = HEAD + (
        "x-shared:\n"
        "  name: &name {type: string, maxLength: 20}\n"
        "paths:\n"
        "  /pets:\n"
        "    post:\n"
        "      operationId: addPet\n"
        "      requestBody: {content: {application/json: {schema: {type: object, properties: {name: *name, nick: *name}}}}}\n"
        "      responses: {'200': {description: ok}}\n"
    )
    server = Server.from_openapi(document)
    name = {"type": "string", "maxLength": 20}
    assert server.tools["addPet"].to_dict()["inputSchema"] == {"type": "object", "properties": {"name": name, "nick": name}}
