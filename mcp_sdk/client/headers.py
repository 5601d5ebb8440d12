"""The HTTP headers a 2026-07-28 request carries besides its body (SEP-2243).

``Mcp-Method`` and ``Mcp-Name`` mirror the method and the ``name``/``uri``;
``Mcp-Param-{Name}`` mirrors each tool argument whose schema property carries
``x-mcp-header``. A value that is not plain visible ASCII travels in the Base64
sentinel form ``=?base64?...?=``.

https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#request-metadata
"""

from __future__ import annotations

import base64
import logging
import re
import threading
import typing as t

from .. import methods

#: RFC 9110 ``tchar``: what a header field name may be made of.
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
#: Visible ASCII, space and tab (RFC 9110 field values), with no space or tab at either end.
_PLAIN = re.compile(r"[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?")
_SENTINEL_PREFIX, _SENTINEL_SUFFIX = "=?base64?", "?="
#: JavaScript's safe integer range, which header integers must stay within.
_MAX_SAFE_INTEGER = 2**53 - 1
#: Methods whose ``Mcp-Name`` comes from ``params.name`` or ``params.uri``.
_NAMED = {
    methods.TOOLS_CALL: "name",
    methods.PROMPTS_GET: "name",
    methods.RESOURCES_READ: "uri",
    methods.TASKS_GET: "taskId",  # the tasks extension routes by task id
    methods.TASKS_UPDATE: "taskId",
    methods.TASKS_CANCEL: "taskId",
}
ANNOTATION = "x-mcp-header"

logger = logging.getLogger("mcp_sdk.client")


def encode_value(value: str) -> str:
    """``value`` as it may stand in a header: as is when plain ASCII, else in the Base64 sentinel form."""
    if _PLAIN.fullmatch(value) and not (value.startswith(_SENTINEL_PREFIX) and value.endswith(_SENTINEL_SUFFIX)):
        return value
    return _SENTINEL_PREFIX + base64.b64encode(value.encode("utf-8")).decode("ascii") + _SENTINEL_SUFFIX


def standard_headers(method: str, params: t.Mapping[str, t.Any] | None, version: str) -> dict[str, str]:
    """``MCP-Protocol-Version``, ``Mcp-Method`` and (for a named request) ``Mcp-Name``."""
    headers = {"MCP-Protocol-Version": version, "Mcp-Method": method}
    field = _NAMED.get(method)
    if field is not None and params is not None:
        name = params.get(field)
        if isinstance(name, str):
            headers["Mcp-Name"] = encode_value(name)
    return headers


def annotated_paths(input_schema: t.Any) -> dict[str, tuple[str, ...]]:
    """Header name -> the chain of ``properties`` keys of each ``x-mcp-header`` annotation.

    :raises ValueError: an annotation breaks a rule of SEP-2243 (the message says which);
        the tool must then be left out of ``tools()``.
    """
    found: dict[str, tuple[str, ...]] = {}
    _collect(input_schema, (), True, found)
    return found


def _collect(schema: t.Any, path: tuple[str, ...], reachable: bool, found: dict[str, tuple[str, ...]]) -> None:
    if isinstance(schema, list):
        for item in schema:
            _collect(item, path, False, found)
        return
    if not isinstance(schema, dict):
        return
    if ANNOTATION in schema:
        _check_annotation(schema, path, reachable, found)
    for key, value in schema.items():
        if key == "properties" and isinstance(value, dict):
            for name, sub in value.items():
                _collect(sub, (*path, name), reachable, found)
        elif key not in (ANNOTATION, "const", "default", "enum", "examples"):
            # Anything under items, oneOf, $defs, if/then... is not statically reachable.
            _collect(value, path, False, found)


def _check_annotation(schema: dict[str, t.Any], path: tuple[str, ...], reachable: bool,
                      found: dict[str, tuple[str, ...]]) -> None:
    name = schema[ANNOTATION]
    where = ".".join(path) or "the schema root"
    if not reachable or not path:
        raise ValueError(f"x-mcp-header on {where} is not reachable through properties alone")
    if not isinstance(name, str) or not _TOKEN.fullmatch(name):
        raise ValueError(f"x-mcp-header {name!r} on {where} is not a valid header name")
    if schema.get("type") not in ("string", "integer", "boolean"):
        raise ValueError(f"x-mcp-header on {where} needs type string, integer or boolean, not {schema.get('type')!r}")
    if any(name.lower() == other.lower() for other in found):
        raise ValueError(f"x-mcp-header {name!r} is used twice (header names are case-insensitive)")
    found[name] = path


def param_headers(paths: t.Mapping[str, tuple[str, ...]], arguments: t.Mapping[str, t.Any] | None) -> dict[str, str]:
    """``Mcp-Param-{Name}`` for every annotated argument present (and not null) in ``arguments``."""
    headers: dict[str, str] = {}
    for name, path in paths.items():
        value: t.Any = arguments
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if value is None:
            continue
        if value is True or value is False:
            text = "true" if value else "false"
        elif isinstance(value, int) and abs(value) <= _MAX_SAFE_INTEGER:
            text = str(value)
        elif isinstance(value, str):
            text = value
        else:
            continue  # a value of another type than the schema says: the server judges the body
        headers[f"Mcp-Param-{name}"] = encode_value(text)
    return headers


class ToolHeaders:
    """The ``x-mcp-header`` paths of each listed tool, for its calls (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._paths: dict[str, dict[str, tuple[str, ...]]] = {}

    def usable(self, entries: list[t.Any]) -> list[t.Any]:
        """The tool definitions whose annotations are valid; the others are logged and left out."""
        usable = []
        for entry in entries:
            name = str(entry.get("name")) if isinstance(entry, dict) else None
            try:
                paths = annotated_paths(entry.get("inputSchema") if isinstance(entry, dict) else None)
            except ValueError as error:
                logger.warning("tool %r left out: %s", name, error)
                continue
            with self._lock:
                if paths and name is not None:
                    self._paths[name] = paths
                elif name is not None:
                    self._paths.pop(name, None)
            usable.append(entry)
        return usable

    def for_call(self, params: t.Mapping[str, t.Any]) -> dict[str, str]:
        """The ``Mcp-Param-*`` headers of a ``tools/call`` with ``params``."""
        with self._lock:
            paths = self._paths.get(str(params.get("name")))
        arguments = params.get("arguments")
        return param_headers(paths, arguments if isinstance(arguments, dict) else None) if paths else {}


__all__ = ["ToolHeaders", "annotated_paths", "encode_value", "param_headers", "standard_headers"]
