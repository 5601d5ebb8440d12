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


#: The 2026-07-28 revision: per-request envelope, ``resultType`` on every result.
MODERN = "2026-07-28"

#: The result definition each 2026-07-28 request method answers with (when complete).
MODERN_RESULT_TYPES = {
    "server/discover": "DiscoverResult",
    "subscriptions/listen": "SubscriptionsListenResult",
    **{
        method: definition
        for method, definition in RESULT_TYPES.items()
        if method not in {"initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"}
    },
}

#: The typed error-response definition of each 2026-07-28 error code that has one.
MODERN_ERROR_RESPONSES = {
    -32020: "HeaderMismatchError",
    -32021: "MissingRequiredClientCapabilityError",
    -32022: "UnsupportedProtocolVersionError",
}
#: The typed ``error`` object definition of the JSON-RPC codes.
MODERN_ERROR_OBJECTS = {
    -32602: "InvalidParamsError",
    -32601: "MethodNotFoundError",
    -32600: "InvalidRequestError",
    -32603: "InternalError",
}

#: The definition of each notification a 2026-07-28 server sends.
MODERN_NOTIFICATIONS = {
    "notifications/message": "LoggingMessageNotification",
    "notifications/progress": "ProgressNotification",
    "notifications/cancelled": "CancelledNotification",
    "notifications/subscriptions/acknowledged": "SubscriptionsAcknowledgedNotification",
    "notifications/tools/list_changed": "ToolListChangedNotification",
    "notifications/prompts/list_changed": "PromptListChangedNotification",
    "notifications/resources/list_changed": "ResourceListChangedNotification",
    "notifications/resources/updated": "ResourceUpdatedNotification",
}


def assert_valid_modern(method: str, message: dict[str, t.Any]) -> None:
    """Check one message a server wrote while answering a 2026-07-28 ``method`` request:
    a notification by its own definition, an error by its code's typed definition, a result
    by ``method`` (``InputRequiredResult`` when ``resultType`` says so). Every result must
    carry ``resultType`` and ``_meta["io.modelcontextprotocol/serverInfo"]``.
    """
    if "method" in message:
        assert "id" not in message, f"a server-to-client request on a 2026-07-28 answer: {message}"
        assert_valid("JSONRPCNotification", message, MODERN)
        assert_valid(MODERN_NOTIFICATIONS[message["method"]], message, MODERN)
        return
    if "error" in message:
        assert_valid("JSONRPCErrorResponse", message, MODERN)
        code = message["error"]["code"]
        if code in MODERN_ERROR_RESPONSES:
            assert_valid(MODERN_ERROR_RESPONSES[code], message, MODERN)
        elif code in MODERN_ERROR_OBJECTS:
            assert_valid(MODERN_ERROR_OBJECTS[code], message["error"], MODERN)
        return
    assert_valid("JSONRPCResultResponse", message, MODERN)
    result = message["result"]
    assert "resultType" in result, f"no resultType: {result}"
    assert "io.modelcontextprotocol/serverInfo" in result.get("_meta", {}), f"no serverInfo: {result}"
    definition = "InputRequiredResult" if result["resultType"] == "input_required" else MODERN_RESULT_TYPES[method]
    assert_valid(definition, result, MODERN)
