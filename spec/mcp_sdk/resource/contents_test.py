"""Resource.TextContents and Resource.BlobContents: what resources/read returns."""

from __future__ import annotations

import pytest

from mcp_sdk import Resource
from spec.support.server_helpers import VERSIONS
from spec.support.wire_schema import assert_valid


@pytest.mark.parametrize("version", VERSIONS)
def test_text_contents(version):
    contents = Resource.TextContents(uri="file:///a.txt", mime_type="text/plain", text="Hello")
    assert contents.to_dict() == {"uri": "file:///a.txt", "mimeType": "text/plain", "text": "Hello"}
    assert_valid("TextResourceContents", contents.to_dict(), version)


@pytest.mark.parametrize("version", VERSIONS)
def test_blob_contents_send_data_as_blob(version):
    contents = Resource.BlobContents(uri="file:///a.png", mime_type="image/png", data="iVBORw0KGgo=")
    assert contents.to_dict() == {"uri": "file:///a.png", "mimeType": "image/png", "blob": "iVBORw0KGgo="}
    assert_valid("BlobResourceContents", contents.to_dict(), version)


def test_mime_type_is_optional_and_meta_is_underscore_meta():
    assert Resource.TextContents(uri="x:1", text="t").to_dict() == {"uri": "x:1", "text": "t"}
    assert Resource.BlobContents(uri="x:1", data="AA==", meta={"k": 1}).to_dict() == {"uri": "x:1", "blob": "AA==", "_meta": {"k": 1}}
