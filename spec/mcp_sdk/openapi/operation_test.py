"""What one operation's tool takes and sends: names for clashing parameters, the body as one
argument when it is not an object, form bodies, names made from method and path, recursive
bodies validated. Requests go to the recording app of spec/support/openapi_api.py (which answers
operations it does not implement with 501, an ``isError`` result)."""

from __future__ import annotations

import typing as t

import pytest

from mcp_sdk import Server
from mcp_sdk.openapi import OpenAPIError
from spec.support.openapi_api import APIApp, serving

DOCUMENT: dict[str, t.Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Made here", "version": "1"},
    "servers": [{"url": "https://api.example.invalid/v1"}],
    "paths": {
        "/items/{id}": {
            "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
            "put": {
                "parameters": [
                    {"name": "id", "in": "query", "schema": {"type": "integer"}},
                    {"name": "flag", "in": "query", "schema": {"type": "boolean"}},
                    {"name": "tags", "in": "query", "schema": {"type": "array", "items": {"type": "string"}}},
                    {"name": "ids", "in": "query", "explode": False, "schema": {"type": "array", "items": {"type": "integer"}}},
                ],
                "requestBody": {"required": True, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
                "responses": {"200": {"description": "ok"}},
            },
        },
        "/batch": {
            "post": {
                "operationId": "send batch!",
                "requestBody": {"content": {"application/json": {"schema": {"type": "array", "items": {"type": "integer"}}}}},
                "responses": {"204": {"description": "done"}},
            }
        },
        "/download": {"get": {"operationId": "download", "responses": {"200": {"description": "bytes"}}}},
        "/form": {
            "post": {
                "requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": {
                    "type": "object", "properties": {"name": {"type": "string"}}}}}},
                "responses": {"200": {"description": "ok"}},
            }
        },
    },
    "components": {"schemas": {"Item": {"type": "object", "required": ["id"], "properties": {
        "id": {"type": "string"}, "parts": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}}}}}},
}


def test_schemas_of_clashing_parameters_whole_bodies_and_fallback_names() -> None:
    server = Server.from_openapi(DOCUMENT)
    assert server.name == "Made here"
    assert list(server.tools) == ["put_items_id", "send_batch", "download", "post_form"]
    item = {"type": "object", "required": ["id"], "properties": {
        "id": {"type": "string"}, "parts": {"type": "array", "items": {"$ref": "#/$defs/Item"}}}}
    assert server.tools["put_items_id"].to_dict()["inputSchema"] == {
        "type": "object",
        "properties": {
            "id__path": {"type": "string"},
            "id__query": {"type": "integer"},
            "flag": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "ids": {"type": "array", "items": {"type": "integer"}},
            "id": {"type": "string"},
            "parts": {"type": "array", "items": {"$ref": "#/$defs/Item"}},
        },
        "required": ["id", "id__path"],
        "$defs": {"Item": item},
    }
    assert server.tools["send_batch"].to_dict()["inputSchema"] == {
        "type": "object", "properties": {"body": {"type": "array", "items": {"type": "integer"}}},
    }


def test_recursive_arguments_are_validated() -> None:
    server = Server.from_openapi(DOCUMENT)
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "put_items_id", "arguments": {
        "id__path": "a", "id": "a", "parts": [{"id": "b", "parts": [{"parts": []}]}]}}}
    assert server.handle(call)["result"] == {  # refused before any request (the API's host does not exist)
        "content": [{"type": "text", "text": "Invalid arguments: parts[0].parts[0] must contain ['id'] properties"}],
        "isError": True,
    }


def test_what_the_calls_send() -> None:
    app = APIApp()
    with serving(app) as base:
        server = Server.from_openapi(DOCUMENT, base_url=base + "/v1/")
        arguments = {"id__path": "a/b c", "id__query": 7, "flag": True, "tags": ["x", "y"], "ids": [1, 2], "id": "i", "parts": []}
        results = [
            server.handle({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": name, "arguments": args}})
            for n, (name, args) in enumerate(
                [("put_items_id", arguments), ("send_batch", {"body": [1, 2]}), ("post_form", {"name": "n&m"}), ("download", {})]
            )
        ]
    assert [(r.method, r.path, r.query, r.headers.get("Content-Type"), r.body) for r in app.requests] == [
        ("PUT", "/v1/items/a%2Fb%20c", "id=7&flag=true&tags=x&tags=y&ids=1%2C2", "application/json", {"id": "i", "parts": []}),
        ("POST", "/v1/batch", "", "application/json", [1, 2]),
        ("POST", "/v1/form", "", "application/x-www-form-urlencoded", {"name": "n&m"}),
        ("GET", "/v1/download", "", None, None),
    ]
    assert results[0]["result"] == {
        "content": [{"type": "text", "text": "HTTP 501 NOT IMPLEMENTED: no such operation here"}], "isError": True,
    }
    assert results[3]["result"] == {  # bytes that are not text, an image or audio: an embedded blob
        "content": [{"type": "resource", "resource": {
            "uri": base + "/v1/download", "mimeType": "application/octet-stream", "blob": "AAFiaW5hcnk=",
        }}],
        "isError": False,
    }


@pytest.mark.parametrize(
    ("document", "message"),
    [({"openapi": "2.0"}, "only OpenAPI 3.0 and 3.1 documents are supported, not openapi: '2.0'"),
     ("swagger: '2.0'\n", "only OpenAPI 3.0 and 3.1 documents are supported, not openapi: 'missing'"),
     ({"openapi": "3.0.0", "paths": {}}, "give base_url=: the document names no absolute server URL")],
)
def test_unusable_documents(document: t.Any, message: str) -> None:
    with pytest.raises(OpenAPIError, match=f"^{message}$"):
        Server.from_openapi(document)
