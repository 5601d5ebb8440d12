"""Content blocks: Text, Image, Audio, EmbeddedResource, ResourceLink."""

from __future__ import annotations

import pytest

from mcp_sdk import Content, Resource
from mcp_sdk import content as content_module
from spec.support.server_helpers import VERSIONS
from spec.support.wire_schema import assert_valid


@pytest.mark.parametrize("version", VERSIONS)
def test_text(version):
    block = Content.Text("Hello")
    assert block.to_dict() == {"type": "text", "text": "Hello"}
    assert_valid("TextContent", block.to_dict(), version)


def test_text_with_annotations_and_meta():
    block = Content.Text("Hello", annotations={"audience": ["user"], "priority": 1}, meta={"k": "v"})
    assert block.to_dict() == {"type": "text", "text": "Hello", "annotations": {"audience": ["user"], "priority": 1}, "_meta": {"k": "v"}}
    assert_valid("TextContent", block.to_dict(), "2025-11-25")


@pytest.mark.parametrize("version", VERSIONS)
def test_image(version):
    block = Content.Image(data="iVBORw0KGgo=", mime_type="image/png")
    assert block.to_dict() == {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
    assert_valid("ImageContent", block.to_dict(), version)


@pytest.mark.parametrize("version", VERSIONS[1:])
def test_audio(version):
    block = Content.Audio(data="UklGRg==", mime_type="audio/wav")
    assert block.to_dict() == {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"}
    assert_valid("AudioContent", block.to_dict(), version)


@pytest.mark.parametrize("version", VERSIONS)
def test_embedded_text_resource(version):
    block = Content.EmbeddedResource(Resource.TextContents(uri="file:///a.txt", mime_type="text/plain", text="A"))
    assert block.to_dict() == {"type": "resource", "resource": {"uri": "file:///a.txt", "mimeType": "text/plain", "text": "A"}}
    assert_valid("EmbeddedResource", block.to_dict(), version)


def test_embedded_blob_resource_with_annotations():
    block = Content.EmbeddedResource(Resource.BlobContents(uri="file:///a.bin", data="AA=="), annotations={"priority": 0.2}, meta={"m": 1})
    assert block.to_dict() == {
        "type": "resource",
        "resource": {"uri": "file:///a.bin", "blob": "AA=="},
        "annotations": {"priority": 0.2},
        "_meta": {"m": 1},
    }
    assert_valid("EmbeddedResource", block.to_dict(), "2025-11-25")


@pytest.mark.parametrize("version", VERSIONS[2:])
def test_resource_link(version):
    block = Content.ResourceLink(uri="file:///report.pdf", name="report", mime_type="application/pdf", size=1024, description="Q3")
    assert block.to_dict() == {
        "type": "resource_link",
        "uri": "file:///report.pdf",
        "name": "report",
        "description": "Q3",
        "mimeType": "application/pdf",
        "size": 1024,
    }
    assert_valid("ResourceLink", block.to_dict(), version)


def test_the_namespace_matches_the_module():
    assert Content.Text is content_module.Text
    assert Content.ResourceLink is content_module.ResourceLink


def test_blocks_compare_by_value():
    assert Content.Text("a") == Content.Text("a")
    assert Content.Text("a") != Content.Text("b")
