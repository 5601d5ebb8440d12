"""Prompt.Argument."""

from __future__ import annotations

from mcp_sdk import Prompt
from mcp_sdk.prompt.argument import Argument
from spec.support.wire_schema import assert_valid


def test_every_field():
    argument = Prompt.Argument(name="message", title="Message Title", description="Input message", required=True)
    assert argument.to_dict() == {"name": "message", "title": "Message Title", "description": "Input message", "required": True}
    assert_valid("PromptArgument", argument.to_dict(), "2025-11-25")


def test_required_is_always_present():
    assert Prompt.Argument(name="style").to_dict() == {"name": "style", "required": False}


def test_importable_from_its_module():
    assert Argument is Prompt.Argument
