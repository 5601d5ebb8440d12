"""Validate what the SDK puts on the wire against the official MCP JSON Schemas.

The schemas in ``spec/support/schema/`` are copies of the specification's
``schema.json`` for each protocol version.
"""

from __future__ import annotations

import functools
import json
import pathlib
import typing as t

import jsonschema

SCHEMA_DIR = pathlib.Path(__file__).with_name("schema")

#: The result definition each request method answers with.
RESULT_TYPES = {
    "initialize": "InitializeResult",
    "ping": "EmptyResult",
    "logging/setLevel": "EmptyResult",
    "tools/list": "ListToolsResult",
    "tools/call": "CallToolResult",
    "prompts/list": "ListPromptsResult",
    "prompts/get": "GetPromptResult",
    "resources/list": "ListResourcesResult",
    "resources/read": "ReadResourceResult",
    "resources/templates/list": "ListResourceTemplatesResult",
    "resources/subscribe": "EmptyResult",
    "resources/unsubscribe": "EmptyResult",
    "completion/complete": "CompleteResult",
    "roots/list": "ListRootsResult",
    "sampling/createMessage": "CreateMessageResult",
    "elicitation/create": "ElicitResult",
}


@functools.lru_cache(maxsize=None)
def _schema(version: str) -> dict[str, t.Any]:
    return t.cast("dict[str, t.Any]", json.loads((SCHEMA_DIR / f"{version}.json").read_text()))


@functools.lru_cache(maxsize=None)
def _validator(version: str, definition: str) -> t.Any:
    schema = _schema(version)
    defs_key = "$defs" if "$defs" in schema else "definitions"
    if definition not in schema[defs_key]:
        raise KeyError(f"{definition} is not defined in the {version} schema")
    root = {
        "$schema": schema.get("$schema", "http://json-schema.org/draft-07/schema#"),
        defs_key: schema[defs_key],
        "$ref": f"#/{defs_key}/{definition}",
    }
    cls = jsonschema.validators.validator_for(root)
    return cls(root)


def assert_valid(definition: str, value: t.Any, version: str = "2025-11-25") -> None:
    """Fail with the schema's complaint unless ``value`` is a valid ``definition`` of ``version``.

    Unknown fields count as invalid where the schema allows them (we also check
    the keys of the top object against the definition's properties), so a field
    an older version does not know is caught.
    """
    validator = _validator(version, definition)
    errors = sorted(validator.iter_errors(value), key=lambda e: list(e.path))
    if errors:
        raise AssertionError(f"not a valid {version} {definition}: {errors[0].message} at {list(errors[0].path)}")
    schema = _schema(version)
    defs = schema.get("$defs") or schema["definitions"]
    properties = defs[definition].get("properties")
    if isinstance(value, dict) and properties is not None:
        unknown = set(value) - set(properties)
        if unknown:
            raise AssertionError(f"{version} {definition} does not define {sorted(unknown)}")


def assert_valid_response(method: str, response: dict[str, t.Any], version: str = "2025-11-25") -> None:
    """Check a whole JSON-RPC response to ``method``: envelope and result (or error)."""
    if "error" in response:
        assert_valid("JSONRPCErrorResponse" if version == "2025-11-25" else "JSONRPCError", response, version)
        return
    result_definition = "JSONRPCResultResponse" if version == "2025-11-25" else "JSONRPCResponse"
    assert_valid(result_definition, response, version)
    assert_valid(RESULT_TYPES[method], response["result"], version)


def assert_valid_notification(message: dict[str, t.Any], definition: str, version: str = "2025-11-25") -> None:
    """Check a notification the server sent (e.g. ``ProgressNotification``)."""
    assert_valid("JSONRPCNotification", message, version)
    assert_valid(definition, message, version)
