"""What a tool may return, checked and turned into a ``tools/call`` result before anything is encoded.

A tool (or :class:`~mcp_sdk.Tool.Response`) may give:

- a string: one text block;
- a content block: a ``Content.*`` object or a wire dict with a known ``type``;
- a list (or tuple) of strings and content blocks: those blocks;
- a dict, a dataclass, an attrs instance, a ``TypedDict`` or a Pydantic model: ``structuredContent``,
  with its JSON as a text block for clients that read only ``content``;
- an ``int``, ``float`` or ``bool``, or a list (or tuple) of anything else JSON can carry: the
  structured content ``{"result": value}`` and the value's JSON as a text block (as FastMCP and
  the official SDK wrap a value that is not an object);
- a wire result dict (``{"content": [...], "structuredContent": ...}``) or a ``Tool.Response``;
- ``None``: empty content.

Anything else raises :class:`~mcp_sdk.errors.ToolResultError` naming the tool and the value,
which the server reports through ``exception_reporter``; the client gets an ``isError`` result
that says, in the SDK's words, what the tool returned (its type, never its contents) and what
it may return.
"""

from __future__ import annotations

import dataclasses
import typing as t

import attrs

from .._converter import to_wire
from ..content import _Block
from ..errors import ToolResultError
from ..json_rpc import encode
from . import schema_sources
from .response import Response

#: The key a value that is not an object is wrapped in as structured content.
RESULT_KEY = "result"

#: The fields each content block type must carry as strings (MCP ``ContentBlock``).
REQUIRED_BLOCK_FIELDS: dict[str, tuple[str, ...]] = {
    "text": ("text",),
    "image": ("data", "mimeType"),
    "audio": ("data", "mimeType"),
    "resource_link": ("uri", "name"),
    "resource": (),
}


def tool_result(tool_name: str, returned: t.Any) -> dict[str, t.Any]:
    """The checked wire result of what tool ``tool_name`` returned.

    :raises ToolResultError: naming the tool and the offending value when it has no valid wire form.
    """
    if isinstance(returned, Response):
        result = {"content": content_blocks(tool_name, returned.content), "isError": returned.error}
        if returned.structured_content is not None:
            result["structuredContent"] = structured_content(tool_name, returned.structured_content)
        if returned.meta is not None:
            result["_meta"] = _json_object(tool_name, returned.meta, "_meta")
        return result
    if isinstance(returned, str):  # the usual plain return, tested before the rest
        return {"content": content_blocks(tool_name, returned), "isError": False}
    if returned is None:
        return {"content": [], "isError": False}
    if isinstance(returned, dict) and ("content" in returned or "structuredContent" in returned):
        return _wire_result(tool_name, returned)
    if _is_block(returned) or (
        isinstance(returned, (list, tuple)) and all(isinstance(item, str) or _is_block(item) for item in returned)
    ):
        return {"content": content_blocks(tool_name, returned), "isError": False}
    return _data_result(tool_name, returned)


def _data_result(tool_name: str, returned: t.Any) -> dict[str, t.Any]:
    """The result of a value returned as data: its JSON as ``structuredContent`` (a value that is
    no object wrapped under :data:`RESULT_KEY`) and as one text block.

    :raises ToolResultError: ``returned`` is no data JSON can carry.
    """
    if (
        isinstance(returned, dict)
        or (dataclasses.is_dataclass(returned) and not isinstance(returned, type))
        or attrs.has(type(returned))
        or any(source.dumps(returned) for source in schema_sources.SOURCES)
    ):
        data = structured_content(tool_name, returned)
        text = [{"type": "text", "text": encode(data)}]
        if not isinstance(data, dict):  # a model whose JSON is no object (RootModel[list[int]]): wrapped, as its schema
            return {"content": text, "structuredContent": {RESULT_KEY: data}, "isError": False}
        return {"content": text, "structuredContent": data, "isError": False}
    if isinstance(returned, (int, float, list, tuple)):  # bool is an int
        value = structured_content(tool_name, list(returned) if isinstance(returned, tuple) else returned)
        return {"content": [{"type": "text", "text": encode(value)}], "structuredContent": {RESULT_KEY: value}, "isError": False}
    raise _error(tool_name, returned, "")


def content_blocks(tool_name: str, content: t.Any) -> list[dict[str, t.Any]]:
    """``content`` (a string, a block, or a list of them) as a list of checked wire blocks."""
    if type(content) is list:
        if len(content) == 1:  # the usual one block, without a comprehension's frame
            return [_block(tool_name, content[0])]
        return [_block(tool_name, item) for item in content]
    if content is None:
        return []
    if isinstance(content, str) or _is_block(content):
        content = [content]
    if not isinstance(content, (list, tuple)):
        raise _error(tool_name, content, "content ")
    return [_block(tool_name, item) for item in content]


def structured_content(tool_name: str, value: t.Any) -> t.Any:
    """The JSON form of a dict, dataclass, attrs instance or Pydantic model (lists and scalars as
    given, models in them dumped), checked encodable.

    :raises ToolResultError: JSON cannot carry it.
    """
    value = schema_sources.dumped(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = dataclasses.asdict(value)
    elif attrs.has(type(value)):
        value = attrs.asdict(value)
    _require_json(tool_name, value, "structured content")
    return value


def _block(tool_name: str, item: t.Any) -> dict[str, t.Any]:
    if type(item) is dict:
        if len(item) == 2 and item.get("type") == "text" and type(item.get("text")) is str:
            return item  # the usual text block: only strings, JSON as it is
        wire = item
    elif isinstance(item, str):
        return {"type": "text", "text": item}
    else:
        wire = to_wire(item) if isinstance(item, _Block) or _has_to_dict(item) else item
    if not isinstance(wire, dict) or wire.get("type") not in REQUIRED_BLOCK_FIELDS:
        raise _error(tool_name, item, "", " as a content block")
    kind = wire["type"]
    for field in REQUIRED_BLOCK_FIELDS[kind]:
        if type(wire.get(field)) is not str:
            raise ToolResultError(
                f"Tool {tool_name} returned a {kind!r} content block without a string {field!r}: {item!r:.200}",
                f"Tool {tool_name} returned a {kind!r} content block without a string {field!r}",
            )
    if kind == "resource":
        resource = wire.get("resource")
        if not isinstance(resource, dict) or type(resource.get("uri")) is not str:
            raise ToolResultError(
                f"Tool {tool_name} returned a 'resource' content block without a resource 'uri': {item!r:.200}",
                f"Tool {tool_name} returned a 'resource' content block without a resource 'uri'",
            )
    if len(wire) == len(REQUIRED_BLOCK_FIELDS[kind]) + 1:
        return wire  # only strings checked above: JSON as it is
    return _json_object(tool_name, wire, "content block")


def _wire_result(tool_name: str, returned: dict[str, t.Any]) -> dict[str, t.Any]:
    result = dict(returned)
    result["content"] = content_blocks(tool_name, result.get("content"))
    is_error = result.setdefault("isError", False)
    if type(is_error) is not bool:
        raise ToolResultError(
            f"Tool {tool_name} returned isError={is_error!r}, not a boolean",
            f"Tool {tool_name} returned an isError of type {type(is_error).__name__}, not a boolean",
        )
    if "structuredContent" in result:
        result["structuredContent"] = structured_content(tool_name, result["structuredContent"])
    return _json_object(tool_name, result, "result")


def _json_object(tool_name: str, value: dict[str, t.Any], what: str) -> dict[str, t.Any]:
    _require_json(tool_name, value, f"a {what}")
    return value


def _require_json(tool_name: str, value: t.Any, what: str) -> None:
    """:raises ToolResultError: JSON cannot carry ``value`` (``what`` the tool returned)."""
    try:
        encode(value)
    except (TypeError, ValueError, RecursionError) as error:
        raise ToolResultError(
            f"Tool {tool_name} returned {what} that is not JSON: {error}",
            f"Tool {tool_name} returned {what} that is not JSON (a value JSON cannot carry, or nested too deep)",
        ) from None


def _is_block(value: t.Any) -> bool:
    if isinstance(value, _Block):
        return True
    return isinstance(value, dict) and value.get("type") in REQUIRED_BLOCK_FIELDS and "structuredContent" not in value


def _has_to_dict(value: t.Any) -> bool:
    return not isinstance(value, (dict, type)) and callable(getattr(value, "to_dict", None))


def _describe(value: t.Any) -> str:
    return f"{type(value).__name__} {value!r:.200}"


def _error(tool_name: str, value: t.Any, what: str, where: str = "") -> ToolResultError:
    """The error for a value with no MCP form: the reporter sees the value, the client its type."""
    return ToolResultError(
        f"Tool {tool_name} returned {what}{_describe(value)}{where}: {_ACCEPTED}",
        f"Tool {tool_name} returned {what}a {type(value).__name__}{where}, which has no MCP form: {_ACCEPTED}",
    )


_ACCEPTED = (
    "return a string, content blocks (Content.Text(...) or wire dicts), a list of them, "
    "a dict, dataclass, attrs instance or Pydantic model (structured content), a number, a boolean or a list of "
    "JSON values (structured content as {\"result\": value}), a Tool.Response, or None"
)

__all__ = ["RESULT_KEY", "tool_result", "content_blocks", "structured_content", "REQUIRED_BLOCK_FIELDS"]
