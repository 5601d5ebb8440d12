"""Tool.Annotations: behaviour hints, camelCase on the wire (protocol 2025-03-26 and later)."""

from __future__ import annotations

import pytest

from mcp_sdk import Server, Tool
from spec.support.server_helpers import VERSIONS, connect, request
from spec.support.wire_schema import assert_valid


class TestAnnotations:
    def test_every_hint_in_camel_case(self):
        annotations = Tool.Annotations(
            read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False, title="My Tool"
        )
        assert annotations.to_dict() == {
            "readOnlyHint": True,
            "destructiveHint": False,
            "idempotentHint": True,
            "openWorldHint": False,
            "title": "My Tool",
        }
        for version in VERSIONS[1:]:
            assert_valid("ToolAnnotations", annotations.to_dict(), version)

    def test_unset_hints_are_left_out(self):
        assert Tool.Annotations().to_dict() == {}
        assert Tool.Annotations(destructive_hint=False).to_dict() == {"destructiveHint": False}

    @pytest.mark.parametrize(
        "given",
        [{"read_only_hint": True, "title": "T"}, {"readOnlyHint": True, "title": "T"}, Tool.Annotations(read_only_hint=True, title="T")],
    )
    def test_coerce_takes_snake_case_camel_case_or_an_object(self, given):
        assert Tool.Annotations.coerce(given) == Tool.Annotations(read_only_hint=True, title="T")

    def test_coerce_keeps_none(self):
        assert Tool.Annotations.coerce(None) is None

    def test_an_unknown_hint_is_refused(self):
        with pytest.raises(TypeError, match="fast_hint"):
            Tool.Annotations.coerce({"fast_hint": True})

    def test_a_value_that_is_not_a_mapping_is_refused(self):
        with pytest.raises(TypeError):
            Tool.Annotations.coerce(["read_only_hint"])

    def test_class_level_annotations_become_an_object(self):
        class Reader(Tool):
            annotations = {"read_only_hint": True, "idempotent_hint": True}

        assert Reader.annotations == Tool.Annotations(read_only_hint=True, idempotent_hint=True)


class TestListed:
    class Deleter(Tool):
        annotations = Tool.Annotations(destructive_hint=True, title="Deleter")

        @classmethod
        def call(cls):
            return None

    @pytest.mark.parametrize("version", ["2025-03-26", "2025-06-18", "2025-11-25"])
    def test_annotations_are_listed_from_2025_03_26(self, version):
        session, _ = connect(Server(tools=[self.Deleter]), version)
        (tool,) = session.handle(request("tools/list"))["result"]["tools"]
        assert tool["annotations"] == {"destructiveHint": True, "title": "Deleter"}

    def test_annotations_are_left_out_for_2024_11_05(self):
        session, _ = connect(Server(tools=[self.Deleter]), "2024-11-05")
        (tool,) = session.handle(request("tools/list"))["result"]["tools"]
        assert "annotations" not in tool
