"""Protocol versions the SDK speaks, and the fields each one knows.

A response for an older negotiated version leaves out what that version's
schema does not define (``title``, ``icons``, ``outputSchema`` ...), so strict
clients of that version never see unknown fields.
"""

from __future__ import annotations

import typing as t

#: Every version this SDK negotiates, oldest first.
SUPPORTED_VERSIONS: tuple[str, ...] = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
#: The default and latest stable version.
LATEST_VERSION = SUPPORTED_VERSIONS[-1]
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
    """Whether ``version`` is one this SDK negotiates."""
    return version in SUPPORTED_VERSIONS


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
    """Whether ``version`` has a protocol feature that arrived after 2024-11-05.

    ``feature`` is one of ``"progress_message"``, ``"audio"``,
    ``"resource_link"``, ``"elicitation"``, ``"url_elicitation"``.
    """
    since = _FEATURES[feature]
    return SUPPORTED_VERSIONS.index(version or LATEST_VERSION) >= SUPPORTED_VERSIONS.index(since)


_FEATURES = {
    "progress_message": _V2,
    "audio": _V2,
    "completions": _V2,
    "resource_link": _V3,
    "elicitation": _V3,
    "url_elicitation": _V4,
}
