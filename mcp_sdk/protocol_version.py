"""Protocol versions the SDK speaks, and the fields each one knows.

A response for an older negotiated version leaves out what that version's
schema does not define (``title``, ``icons``, ``outputSchema`` ...), so strict
clients of that version never see unknown fields.
"""

from __future__ import annotations

import typing as t

#: Every version ``initialize`` negotiates (the legacy, session-based era), oldest first.
SUPPORTED_VERSIONS: tuple[str, ...] = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
#: The default and latest version of the session-based era.
LATEST_VERSION = SUPPORTED_VERSIONS[-1]
#: Versions served statelessly, from the ``_meta`` envelope of each request (the modern era).
MODERN_VERSIONS: tuple[str, ...] = ("2026-07-28",)
#: The latest modern version.
MODERN_VERSION = MODERN_VERSIONS[-1]
#: Every version this SDK speaks, oldest first.
ALL_VERSIONS: tuple[str, ...] = SUPPORTED_VERSIONS + MODERN_VERSIONS
#: The version assumed for an HTTP request without ``MCP-Protocol-Version``.
DEFAULT_HTTP_VERSION = "2025-03-26"
#: JSON-RPC batches exist only in this revision (added 2025-03-26, removed 2025-06-18).
BATCH_VERSIONS = frozenset({"2025-03-26"})

_V1, _V2, _V3, _V4 = SUPPORTED_VERSIONS

_FIELDS: dict[str, dict[str, frozenset[str]]] = {
    _V1: {
        "tool": frozenset({"name", "description", "inputSchema"}),
        "prompt": frozenset({"name", "description", "arguments"}),
        "prompt_argument": frozenset({"name", "description", "required"}),
        "resource": frozenset({"uri", "name", "description", "mimeType", "size", "annotations"}),
        "resource_template": frozenset({"uriTemplate", "name", "description", "mimeType", "annotations"}),
        "implementation": frozenset({"name", "version"}),
        "call_tool_result": frozenset({"_meta", "content", "isError"}),
    },
    _V2: {
        "tool": frozenset({"name", "description", "inputSchema", "annotations"}),
        "prompt": frozenset({"name", "description", "arguments"}),
        "prompt_argument": frozenset({"name", "description", "required"}),
        "resource": frozenset({"uri", "name", "description", "mimeType", "size", "annotations"}),
        "resource_template": frozenset({"uriTemplate", "name", "description", "mimeType", "annotations"}),
        "implementation": frozenset({"name", "version"}),
        "call_tool_result": frozenset({"_meta", "content", "isError"}),
    },
    _V3: {
        "tool": frozenset({"_meta", "annotations", "description", "inputSchema", "name", "outputSchema", "title"}),
        "prompt": frozenset({"_meta", "arguments", "description", "name", "title"}),
        "prompt_argument": frozenset({"description", "name", "required", "title"}),
        "resource": frozenset({"_meta", "annotations", "description", "mimeType", "name", "size", "title", "uri"}),
        "resource_template": frozenset(
            {"_meta", "annotations", "description", "mimeType", "name", "title", "uriTemplate"}
        ),
        "implementation": frozenset({"name", "title", "version"}),
        "call_tool_result": frozenset({"_meta", "content", "isError", "structuredContent"}),
    },
}


def is_supported(version: t.Any) -> bool:
    """Whether ``version`` is one ``initialize`` negotiates."""
    return version in SUPPORTED_VERSIONS


def is_modern(version: t.Any) -> bool:
    """Whether ``version`` is one of the stateless, per-request versions (2026-07-28 on)."""
    return version in MODERN_VERSIONS


def filter_fields(kind: str, data: dict[str, t.Any], version: str | None) -> dict[str, t.Any]:
    """``data`` without the keys ``version`` does not define for objects of ``kind``.

    The latest version (and ``None``) keeps everything, so the common case costs
    one lookup.
    """
    fields = _FIELDS.get(version or LATEST_VERSION)
    if fields is None:
        return data
    allowed = fields[kind]
    if all(key in allowed for key in data):
        return data
    return {key: value for key, value in data.items() if key in allowed}


def supports(version: str | None, feature: str) -> bool:
    """Whether ``version`` has a protocol feature that arrived after 2024-11-05, or one that
    2026-07-28 removed.

    ``feature`` is one of ``"progress_message"``, ``"audio"``, ``"completions"``,
    ``"resource_link"``, ``"elicitation"``, ``"url_elicitation"``, ``"tasks"`` (the tasks
    extension), or of the removed ``"resource_updated_notification"`` (a request's
    ``notifications/resources/updated``), ``"elicitation_complete"``, ``"elicitation_id"``.
    """
    position = ALL_VERSIONS.index(version or LATEST_VERSION)
    since = _FEATURES.get(feature)
    if since is not None:
        return position >= ALL_VERSIONS.index(since)
    return position < ALL_VERSIONS.index(_REMOVED[feature])


_FEATURES = {
    "progress_message": _V2,
    "audio": _V2,
    "completions": _V2,
    "resource_link": _V3,
    "elicitation": _V3,
    "url_elicitation": _V4,
    "tasks": MODERN_VERSION,
}
#: Features a later version removed: feature -> the first version without it.
_REMOVED = {
    "resource_updated_notification": MODERN_VERSION,
    "elicitation_complete": MODERN_VERSION,
    "elicitation_id": MODERN_VERSION,
}


#: Content block types each older version defines (newer versions define them all).
_CONTENT_TYPES: dict[str, frozenset[str]] = {
    _V1: frozenset({"text", "image", "resource"}),
    _V2: frozenset({"text", "image", "audio", "resource"}),
}
#: Versions whose content blocks need :func:`content_for`.
OLDER_CONTENT_VERSIONS = frozenset(_CONTENT_TYPES)
#: Versions whose objects :func:`filter_fields` may trim (any other keeps every field).
FILTERED_VERSIONS = frozenset(_FIELDS)


def content_for(blocks: list[t.Any], version: str | None) -> list[t.Any]:
    """Content blocks as ``version`` can carry them.

    A block type the version does not define (``audio`` before 2025-03-26,
    ``resource_link`` before 2025-06-18) becomes a text block that describes it,
    and block ``_meta`` (2025-06-18) is left out before its time. The latest
    versions get ``blocks`` back unchanged.
    """
    allowed = _CONTENT_TYPES.get(version or LATEST_VERSION)
    if allowed is None:
        return blocks
    converted = []
    for block in blocks:
        if type(block) is dict:
            if block.get("type") not in allowed:
                block = {"type": "text", "text": _describe_block(block, version)}
            elif "_meta" in block:
                block = {key: value for key, value in block.items() if key != "_meta"}
        converted.append(block)
    return converted


def _describe_block(block: dict[str, t.Any], version: str | None) -> str:
    kind = block.get("type")
    if kind == "resource_link":
        name = block.get("name")
        return f"Resource: {block.get('uri')}" + (f" ({name})" if name else "")
    mime = block.get("mimeType")
    return f"[{kind} content{f' ({mime})' if mime else ''} left out: protocol {version} cannot carry it]"
