"""Prompt.Result."""

from __future__ import annotations

from mcp_sdk import Content, Prompt
from spec.support.wire_schema import assert_valid


def test_every_field():
    result = Prompt.Result(
        description="Response description",
        messages=[Prompt.Message(role="user", content=Content.Text("User message"))],
        meta={"k": "v"},
    )
    assert result.to_dict() == {
        "description": "Response description",
        "messages": [{"role": "user", "content": {"type": "text", "text": "User message"}}],
        "_meta": {"k": "v"},
    }
    assert_valid("GetPromptResult", result.to_dict(), "2025-11-25")


def test_messages_only():
    assert Prompt.Result().to_dict() == {"messages": []}


def test_messages_may_be_wire_dicts():
    message = {"role": "user", "content": {"type": "text", "text": "x"}}
    assert Prompt.Result(messages=[message]).to_dict() == {"messages": [message]}
