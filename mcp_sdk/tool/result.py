"""What a tool may return, checked and turned into a ``tools/call`` result before anything is encoded.

A tool (or :class:`~mcp_sdk.Tool.Response`) may give:

- a string: one text block;
- a content block: a ``Content.*`` object or a wire dict with a known ``type``;
- a list (or tuple) mixing strings and content blocks;
- a dict, a dataclass, an attrs instance or a ``TypedDict``: ``structuredContent``, with its JSON as
  a text block for clients that read only ``content``;
- a wire result dict (``{"content": [...], "structuredContent": ...}``) or a ``Tool.Response``;
- ``None``: empty content.

Anything else raises :class:`TypeError` naming the tool and the value, which the server reports
through ``exception_reporter`` and answers with its generic ``isError`` result.
"""

from __future__ import annotations

import dataclasses
import typing as t

import attrs

from .._converter import to_wire
from ..content import _Block
from ..json_rpc import encode
from .response import Response

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

    :raises TypeError: naming the tool and the offending value when it has no valid wire form.
    """
    if isinstance(returned, Response):
        result = {"content": content_blocks(tool_name, returned.content), "isError": returned.error}
        if returned.structured_content is not None:
            result["structuredContent"] = structured_content(tool_name, returned.structured_content)
        if returned.meta is not None:
            result["_meta"] = _json_object(tool_name, returned.meta, "_meta")
        return result
    if returned is None:
        return {"content": [], "isError": False}
    if isinstance(returned, dict) and ("content" in returned or "structuredContent" in returned):
        return _wire_result(tool_name, returned)
    if _is_block(returned) or isinstance(returned, (str, list, tuple)):
        return {"content": content_blocks(tool_name, returned), "isError": False}
    if isinstance(returned, dict) or dataclasses.is_dataclass(returned) or attrs.has(type(returned)):
        data = structured_content(tool_name, returned)
        return {"content": [{"type": "text", "text": encode(data)}], "structuredContent": data, "isError": False}
    raise TypeError(f"Tool {tool_name} returned {_describe(returned)}: {_ACCEPTED}")


def content_blocks(tool_name: str, content: t.Any) -> list[dict[str, t.Any]]:
    """``content`` (a string, a block, or a list of them) as a list of checked wire blocks."""
    if content is None:
        return []
    if isinstance(content, str) or _is_block(content):
        content = [content]
    if not isinstance(content, (list, tuple)):
        raise TypeError(f"Tool {tool_name} returned content {_describe(content)}: {_ACCEPTED}")
    return [_block(tool_name, item) for item in content]


def structured_content(tool_name: str, value: t.Any) -> t.Any:
    """The JSON form of a dict, dataclass or attrs instance (lists and scalars as given), checked encodable."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = dataclasses.asdict(value)
    elif attrs.has(type(value)):
        value = attrs.asdict(value)
    try:
        encode(value)
    except (TypeError, ValueError, RecursionError) as error:
        raise TypeError(f"Tool {tool_name} returned structured content that is not JSON: {error}") from None
    return value


def _block(tool_name: str, item: t.Any) -> dict[str, t.Any]:
    if isinstance(item, str):
        return {"type": "text", "text": item}
    wire = to_wire(item) if isinstance(item, _Block) or _has_to_dict(item) else item
    if not isinstance(wire, dict) or wire.get("type") not in REQUIRED_BLOCK_FIELDS:
        raise TypeError(f"Tool {tool_name} returned {_describe(item)} as a content block: {_ACCEPTED}")
    kind = wire["type"]
    for field in REQUIRED_BLOCK_FIELDS[kind]:
        if type(wire.get(field)) is not str:
            raise TypeError(f"Tool {tool_name} returned a {kind!r} content block without a string {field!r}: {item!r:.200}")
    if kind == "resource":
        resource = wire.get("resource")
        if not isinstance(resource, dict) or type(resource.get("uri")) is not str:
            raise TypeError(f"Tool {tool_name} returned a 'resource' content block without a resource 'uri': {item!r:.200}")
    if len(wire) == len(REQUIRED_BLOCK_FIELDS[kind]) + 1:
        return t.cast("dict[str, t.Any]", wire)  # only strings checked above: JSON as it is
    return _json_object(tool_name, wire, "content block")


def _wire_result(tool_name: str, returned: dict[str, t.Any]) -> dict[str, t.Any]:
    result = dict(returned)
    result["content"] = content_blocks(tool_name, result.get("content"))
    is_error = result.setdefault("isError", False)
    if type(is_error) is not bool:
        raise TypeError(f"Tool {tool_name} returned isError={is_error!r}, not a boolean")
    if "structuredContent" in result:
        result["structuredContent"] = structured_content(tool_name, result["structuredContent"])
    return _json_object(tool_name, result, "result")


def _json_object(tool_name: str, value: dict[str, t.Any], what: str) -> dict[str, t.Any]:
    try:
        encode(value)
    except (TypeError, ValueError, RecursionError) as error:
        raise TypeError(f"Tool {tool_name} returned a {what} that is not JSON: {error}") from None
    return value


def _is_block(value: t.Any) -> bool:
    if isinstance(value, _Block):
        return True
    return isinstance(value, dict) and value.get("type") in REQUIRED_BLOCK_FIELDS and "structuredContent" not in value


def _has_to_dict(value: t.Any) -> bool:
    return not isinstance(value, (dict, type)) and callable(getattr(value, "to_dict", None))


def _describe(value: t.Any) -> str:
    return f"{type(value).__name__} {value!r:.200}"


_ACCEPTED = (
    "return a string, content blocks (Content.Text(...) or wire dicts), a list of them, "
    "a dict, dataclass or attrs instance (structured content), a Tool.Response, or None"
)

__all__ = ["tool_result", "content_blocks", "structured_content", "REQUIRED_BLOCK_FIELDS"]
