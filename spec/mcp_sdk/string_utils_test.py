"""string_utils: names between Python and the wire."""

from __future__ import annotations

import pytest

from mcp_sdk.string_utils import camelize, class_name, underscore


@pytest.mark.parametrize(
    "name, expected",
    [("ExampleTool", "example_tool"), ("HTTPTool", "http_tool"), ("Tool", "tool"), ("already_snake", "already_snake"), ("Dash-Name", "dash_name"), ("ABC", "abc")],
)
def test_underscore(name, expected):
    assert underscore(name) == expected


@pytest.mark.parametrize(
    "name, expected",
    [("read_only_hint", "readOnlyHint"), ("mime_type", "mimeType"), ("uri", "uri"), ("meta", "_meta"), ("website_url", "websiteUrl")],
)
def test_camelize(name, expected):
    assert camelize(name) == expected


@pytest.mark.parametrize(
    "name, expected",
    [("add_numbers", "AddNumbers"), ("greet", "Greet"), ("fetch.v2-beta", "FetchV2Beta"), ("._-", "Tool")],
)
def test_class_name(name, expected):
    assert class_name(name, "Tool") == expected
