"""Tool.Response: what a tool returns, in wire form."""

from __future__ import annotations

import pytest

from mcp_sdk import Content, Tool
from spec.support.server_helpers import VERSIONS
from spec.support.wire_schema import assert_valid


class TestResponse:
    def test_content_only(self):
        response = Tool.Response([{"type": "text", "text": "OK"}])
        assert response.to_dict() == {"content": [{"type": "text", "text": "OK"}], "isError": False}
        for version in VERSIONS:
            assert_valid("CallToolResult", response.to_dict(), version)

    def test_every_field(self):
        response = Tool.Response(
            [Content.Text("{}")], structured_content={"a": 1}, error=True, meta={"io.example/trace": "t"}
        )
        assert response.to_dict() == {
            "content": [{"type": "text", "text": "{}"}],
            "isError": True,
            "structuredContent": {"a": 1},
            "_meta": {"io.example/trace": "t"},
        }
        assert_valid("CallToolResult", response.to_dict(), "2025-11-25")

    def test_content_objects_of_every_kind_are_put_in_wire_form(self):
        response = Tool.Response(
            [
                Content.Text("t"),
                Content.Image(data="aW1n", mime_type="image/png"),
                Content.Audio(data="YXVk", mime_type="audio/wav"),
                Content.EmbeddedResource(resource={"uri": "file:///a", "text": "A"}),
                Content.ResourceLink(uri="file:///b", name="b"),
            ]
        )
        assert response.to_dict()["content"] == [
            {"type": "text", "text": "t"},
            {"type": "image", "data": "aW1n", "mimeType": "image/png"},
            {"type": "audio", "data": "YXVk", "mimeType": "audio/wav"},
            {"type": "resource", "resource": {"uri": "file:///a", "text": "A"}},
            {"type": "resource_link", "uri": "file:///b", "name": "b"},
        ]
        assert_valid("CallToolResult", response.to_dict(), "2025-11-25")

    def test_no_content_is_an_empty_list(self):
        assert Tool.Response().to_dict() == {"content": [], "isError": False}

    def test_attributes(self):
        response = Tool.Response((c for c in [Content.Text("x")]), structured_content=[1], error=1)
        assert response.content == [Content.Text("x")]
        assert response.structured_content == [1]
        assert response.error is True
        assert response.meta is None

    def test_equality_compares_the_wire_form(self):
        assert Tool.Response([Content.Text("a")]) == Tool.Response([{"type": "text", "text": "a"}])
        assert Tool.Response([Content.Text("a")]) != Tool.Response([Content.Text("a")], error=True)
        assert Tool.Response() != "response"
        assert "Tool.Response" in repr(Tool.Response())

    @pytest.mark.parametrize("module_path", ["mcp_sdk.tool.Response", "mcp_sdk.tool.response.Response"])
    def test_importable_from_its_module(self, module_path):
        import importlib

        module_name, _, name = module_path.rpartition(".")
        assert getattr(importlib.import_module(module_name), name) is Tool.Response
