"""protocol_version: the versions negotiated and the fields each one knows."""

from __future__ import annotations

import pytest

from mcp_sdk import protocol_version as versions


def test_supported_versions_oldest_first():
    assert versions.SUPPORTED_VERSIONS == ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
    assert versions.LATEST_VERSION == "2025-11-25"


def test_batches_exist_only_in_2025_03_26():
    assert versions.BATCH_VERSIONS == frozenset({"2025-03-26"})


@pytest.mark.parametrize("value, supported", [("2025-06-18", True), ("2025-11-25", True), ("2026-01-01", False), (None, False), (20250618, False)])
def test_is_supported(value, supported):
    assert versions.is_supported(value) is supported


TOOL = {
    "name": "t",
    "title": "T",
    "description": "d",
    "inputSchema": {"type": "object"},
    "outputSchema": {"type": "object"},
    "annotations": {"readOnlyHint": True},
    "icons": [{"src": "https://example.com/i.png"}],
    "_meta": {"k": 1},
}


@pytest.mark.parametrize(
    "version, kept",
    [
        ("2024-11-05", ["description", "inputSchema", "name"]),
        ("2025-03-26", ["annotations", "description", "inputSchema", "name"]),
        ("2025-06-18", ["_meta", "annotations", "description", "inputSchema", "name", "outputSchema", "title"]),
        ("2025-11-25", sorted(TOOL)),
        (None, sorted(TOOL)),
    ],
)
def test_filter_fields_of_a_tool(version, kept):
    assert sorted(versions.filter_fields("tool", TOOL, version)) == kept


def test_filter_fields_returns_the_same_dict_when_nothing_is_dropped():
    data = {"name": "t", "inputSchema": {"type": "object"}}
    assert versions.filter_fields("tool", data, "2024-11-05") is data


@pytest.mark.parametrize(
    "kind, data, version, expected",
    [
        ("implementation", {"name": "s", "title": "S", "version": "1", "websiteUrl": "u", "icons": []}, "2025-06-18", {"name": "s", "title": "S", "version": "1"}),
        ("implementation", {"name": "s", "title": "S", "version": "1"}, "2025-03-26", {"name": "s", "version": "1"}),
        ("prompt_argument", {"name": "a", "title": "A", "required": True}, "2024-11-05", {"name": "a", "required": True}),
        ("call_tool_result", {"content": [], "isError": False, "structuredContent": {}}, "2025-03-26", {"content": [], "isError": False}),
        ("resource_template", {"uriTemplate": "u", "name": "n", "title": "t", "icons": []}, "2025-06-18", {"uriTemplate": "u", "name": "n", "title": "t"}),
    ],
)
def test_filter_fields_of_other_kinds(kind, data, version, expected):
    assert versions.filter_fields(kind, data, version) == expected


@pytest.mark.parametrize(
    "feature, first",
    [("progress_message", "2025-03-26"), ("audio", "2025-03-26"), ("completions", "2025-03-26"), ("resource_link", "2025-06-18"), ("elicitation", "2025-06-18"), ("url_elicitation", "2025-11-25")],
)
def test_supports_features_from_the_version_that_added_them(feature, first):
    index = versions.SUPPORTED_VERSIONS.index(first)
    for position, version in enumerate(versions.SUPPORTED_VERSIONS):
        assert versions.supports(version, feature) is (position >= index)
    assert versions.supports(None, feature) is True
