"""ResourceTemplate: the value object behind resources/templates/list."""

from __future__ import annotations

import pytest

from mcp_sdk import ResourceTemplate
from spec.support.server_helpers import VERSIONS
from spec.support.wire_schema import assert_valid


def test_every_field_in_wire_form():
    template = ResourceTemplate(
        uri_template="https://example.com/my_resource_template/{id}",
        name="my-resource-template",
        title="My Resource Template",
        description="Lorem ipsum dolor sit amet",
        mime_type="text/html",
        annotations={"priority": 1},
        icons=[{"src": "https://example.com/t.png"}],
        meta={"k": "v"},
    )
    assert template.to_dict() == {
        "uriTemplate": "https://example.com/my_resource_template/{id}",
        "name": "my-resource-template",
        "title": "My Resource Template",
        "description": "Lorem ipsum dolor sit amet",
        "mimeType": "text/html",
        "annotations": {"priority": 1},
        "icons": [{"src": "https://example.com/t.png"}],
        "_meta": {"k": "v"},
    }
    assert_valid("ResourceTemplate", template.to_dict(), "2025-11-25")


@pytest.mark.parametrize("version", VERSIONS)
def test_uri_template_and_name_only(version):
    template = ResourceTemplate(uri_template="file:///{path}", name="files")
    assert template.to_dict() == {"uriTemplate": "file:///{path}", "name": "files"}
    assert_valid("ResourceTemplate", template.to_dict(), version)
