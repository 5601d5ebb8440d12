"""2026-07-28 request headers: ``Mcp-Method``, ``Mcp-Name``, ``Mcp-Param-*`` checked against the body.

https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
("Request Metadata", "Server Validation"). A header that disagrees with the body,
a required one that is missing, or a malformed Base64 sentinel: HTTP 400 with
``HeaderMismatch`` (-32020), so that nothing routing on headers can be told one
thing while the server runs another.
"""

from __future__ import annotations

import base64
import binascii
import re
import typing as t
import weakref

from ..... import methods
from .....errors import HeaderMismatchError
from ....envelope import PROTOCOL_VERSION_KEY

if t.TYPE_CHECKING:
    from .....tool import Tool

WSGIEnvironment = t.Dict[str, t.Any]

#: The schema keyword that mirrors a tool argument into an ``Mcp-Param-{name}`` header.
X_MCP_HEADER = "x-mcp-header"

#: Methods whose ``Mcp-Name`` header mirrors a body field, and that field.
NAME_FIELDS = {
    methods.TOOLS_CALL: "name",
    methods.PROMPTS_GET: "name",
    methods.RESOURCES_READ: "uri",
    methods.TASKS_GET: "taskId",  # the tasks extension's routing header
    methods.TASKS_UPDATE: "taskId",
    methods.TASKS_CANCEL: "taskId",
}

_SENTINEL = re.compile(r"=\?base64\?(.*)\?=", re.DOTALL)
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_SAFE_VALUE = re.compile(r"[\x20-\x7e\t]*")
_MAX_SAFE_INTEGER = 2**53 - 1
_PRIMITIVE_TYPES = frozenset({"string", "integer", "boolean"})


def decode_value(raw: str) -> str | None:
    """A header value with the ``=?base64?...?=`` sentinel decoded; None when it is malformed.

    A value without the exact sentinel (``=?base64?...`` with no ``?=``) is taken literally.
    """
    if "=?" not in raw:  # the common case: a plain value
        return raw if raw.isascii() and (raw.isprintable() or _SAFE_VALUE.fullmatch(raw)) else None
    match = _SENTINEL.fullmatch(raw)
    if match is None:
        return raw if _SAFE_VALUE.fullmatch(raw) else None
    payload = match.group(1)
    try:
        decoded = base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        return None
    if base64.b64encode(decoded).decode("ascii") != payload:  # non-canonical: not what a client encodes
        return None
    try:
        return decoded.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _header(environ: WSGIEnvironment, name: str) -> str | None:
    key = _ENVIRON_KEYS.get(name)
    if key is None:
        key = "HTTP_" + name.upper().replace("-", "_")
    value = environ.get(key)
    return value.strip(" \t") if isinstance(value, str) else None


#: The WSGI environ keys of the headers every request carries (spared the string work per request).
_ENVIRON_KEYS = {name: "HTTP_" + name.upper().replace("-", "_") for name in ("MCP-Protocol-Version", "Mcp-Method", "Mcp-Name")}


def annotated_parameters(schema: t.Any) -> list[tuple[tuple[str, ...], str, str]] | None:
    """The ``x-mcp-header`` annotations of an input schema: (property path, header name, type).

    :return: None when an annotation breaks the rules (the tool is then invalid for clients,
        and its headers are not checked).
    """
    found: list[tuple[tuple[str, ...], str, str]] = []
    names: set[str] = set()
    stack: list[tuple[tuple[str, ...] | None, t.Any]] = [((), schema)]
    while stack:
        path, node = stack.pop()
        if not isinstance(node, dict):
            continue
        if X_MCP_HEADER in node:
            name = node[X_MCP_HEADER]
            kind = node.get("type")
            if not path or not _header_allowed(name, kind, names):  # only on a property reached through properties
                return None
            names.add(name.lower())
            found.append((path, name, t.cast(str, kind)))
        stack.extend(_subschemas(path, node))
    return found


def _header_allowed(name: t.Any, kind: t.Any, names: set[str]) -> bool:
    """Whether a property of type ``kind`` may be sent as the header ``name``: a token naming no
    header already taken (``names``, lowercase), for a string, number, integer or boolean."""
    return type(name) is str and bool(_TOKEN.fullmatch(name)) and kind in _PRIMITIVE_TYPES and name.lower() not in names


def _subschemas(path: tuple[str, ...] | None, node: dict[str, t.Any]) -> t.Iterator[tuple[tuple[str, ...] | None, t.Any]]:
    """The schemas inside ``node``, each with its property path (None below anything but ``properties``)."""
    for keyword, value in node.items():
        if keyword == "properties" and isinstance(value, dict):
            yield from (((*path, key) if path is not None else None, sub) for key, sub in value.items())
        elif keyword in ("items", "additionalProperties", "not", "if", "then", "else", "contains"):
            yield None, value
        elif keyword in ("allOf", "anyOf", "oneOf", "prefixItems") and isinstance(value, list):
            yield from ((None, sub) for sub in value)
        elif keyword in ("$defs", "definitions", "patternProperties", "dependentSchemas") and isinstance(value, dict):
            yield from ((None, sub) for sub in value.values())


def _rendered(value: t.Any, kind: str) -> str | None:
    if kind == "boolean":
        return ("true" if value else "false") if type(value) is bool else None
    if kind == "integer":
        if type(value) is int and abs(value) <= _MAX_SAFE_INTEGER:
            return str(value)
        if type(value) is float and value.is_integer() and abs(value) <= _MAX_SAFE_INTEGER:
            return str(int(value))
        return None
    return value if type(value) is str else None


def check(environ: WSGIEnvironment, message: dict[str, t.Any], tools: t.Mapping[str, type[Tool]]) -> None:
    """Check a modern request's headers against its body.

    :raises HeaderMismatchError: a header is missing, malformed, or disagrees with the body.
    """
    params = message.get("params")
    meta = params.get("_meta") if type(params) is dict else None
    version = meta.get(PROTOCOL_VERSION_KEY) if type(meta) is dict else None
    header_version = _header(environ, "MCP-Protocol-Version")
    if header_version is None:
        raise HeaderMismatchError("Header mismatch: the MCP-Protocol-Version header is required")
    if header_version != version:
        raise HeaderMismatchError(
            f"Header mismatch: MCP-Protocol-Version header {header_version!r} does not match the body's {version!r}"
        )
    method = message.get("method")
    header_method = _header(environ, "Mcp-Method")
    if header_method is None:
        raise HeaderMismatchError("Header mismatch: the Mcp-Method header is required")
    if header_method != method:
        raise HeaderMismatchError(f"Header mismatch: Mcp-Method header {header_method!r} does not match the body's {method!r}")
    field = NAME_FIELDS.get(t.cast(str, method))
    if field is None or type(params) is not dict:
        return
    raw_name = _header(environ, "Mcp-Name")
    if raw_name is None:
        raise HeaderMismatchError(f"Header mismatch: the Mcp-Name header is required for {method}")
    name = decode_value(raw_name)
    if name is None:
        raise HeaderMismatchError("Header mismatch: the Mcp-Name header is malformed")
    if name != params.get(field):
        raise HeaderMismatchError(f"Header mismatch: Mcp-Name header does not match the body's {field!r}")
    if method == methods.TOOLS_CALL:
        tool = tools.get(name)
        if tool is not None:
            _check_parameters(environ, _tool_annotations(tool), params.get("arguments"))


#: The ``x-mcp-header`` annotations of each tool class, found once (a tool's schema is fixed).
_ANNOTATIONS: weakref.WeakKeyDictionary[type[Tool], list[tuple[tuple[str, ...], str, str]] | None] = (
    weakref.WeakKeyDictionary()
)


def _tool_annotations(tool: type[Tool]) -> list[tuple[tuple[str, ...], str, str]] | None:
    try:
        return _ANNOTATIONS[tool]
    except KeyError:
        found = _ANNOTATIONS[tool] = annotated_parameters(tool.input_schema.to_dict())
        return found


def _check_parameters(
    environ: WSGIEnvironment, annotations: list[tuple[tuple[str, ...], str, str]] | None, arguments: t.Any
) -> None:
    if not annotations:
        return
    for path, name, kind in annotations:
        value: t.Any = arguments
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        header = f"Mcp-Param-{name}"
        raw = _header(environ, header)
        rendered = None if value is None else _rendered(value, kind)
        if rendered is None:
            if raw is not None:
                raise HeaderMismatchError(f"Header mismatch: {header} is sent but the argument is absent or not a {kind}")
            continue
        if raw is None:
            raise HeaderMismatchError(f"Header mismatch: {header} is required: the body carries {'.'.join(path)!r}")
        decoded = decode_value(raw)
        if decoded is None:
            raise HeaderMismatchError(f"Header mismatch: {header} carries invalid characters or a malformed Base64 value")
        if kind == "integer" and re.fullmatch(r"-?[0-9]+(\.0+)?", decoded):
            matches = int(decoded.split(".")[0]) == int(rendered)
        else:
            matches = decoded == rendered
        if not matches:
            raise HeaderMismatchError(f"Header mismatch: {header} does not match the body's {'.'.join(path)!r}")


__all__ = ["NAME_FIELDS", "X_MCP_HEADER", "annotated_parameters", "check", "decode_value"]
