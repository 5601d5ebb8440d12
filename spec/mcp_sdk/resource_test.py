"""Resource: the value object behind resources/list."""

from __future__ import annotations

import pytest

from mcp_sdk import Resource
from spec.support.server_helpers import VERSIONS
from spec.support.wire_schema import assert_valid


def test_every_field_in_wire_form():
    resource = Resource(
        uri="https://example.com/my_resource",
        name="my-resource",
        title="My Resource",
        description="Lorem ipsum dolor sit amet",
        mime_type="text/html",
        size=2048,
        annotations={"audience": ["user"], "priority": 0.5},
        icons=[{"src": "https://example.com/r.png"}],
        meta={"k": "v"},
    )
    assert resource.to_dict() == {
        "uri": "https://example.com/my_resource",
        "name": "my-resource",
        "title": "My Resource",
        "description": "Lorem ipsum dolor sit amet",
        "mimeType": "text/html",
        "size": 2048,
        "annotations": {"audience": ["user"], "priority": 0.5},
        "icons": [{"src": "https://example.com/r.png"}],
        "_meta": {"k": "v"},
    }
    assert_valid("Resource", resource.to_dict(), "2025-11-25")


@pytest.mark.parametrize("version", VERSIONS)
def test_uri_and_name_only(version):
    resource = Resource(uri="file:///a", name="a")
    assert resource.to_dict() == {"uri": "file:///a", "name": "a"}
    assert_valid("Resource", resource.to_dict(), version)


def test_contents_types_hang_off_the_class():
    from mcp_sdk.resource.contents import BlobContents, TextContents

    assert (Resource.TextContents, Resource.BlobContents) == (TextContents, BlobContents)


def test_value_equality():
    assert Resource(uri="u:1", name="a") == Resource(uri="u:1", name="a")
    assert Resource(uri="u:1", name="a") != Resource(uri="u:2", name="a")
