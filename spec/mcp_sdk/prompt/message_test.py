"""Prompt.Message."""

from __future__ import annotations

import pytest

from mcp_sdk import Content, Prompt
from spec.support.server_helpers import VERSIONS
from spec.support.wire_schema import assert_valid


@pytest.mark.parametrize("version", VERSIONS)
def test_a_text_message(version):
    message = Prompt.Message(role="assistant", content=Content.Text("Hi"))
    assert message.to_dict() == {"role": "assistant", "content": {"type": "text", "text": "Hi"}}
    assert_valid("PromptMessage", message.to_dict(), version)


def test_content_may_be_a_wire_dict():
    content = {"type": "image", "data": "aGk=", "mimeType": "image/png"}
    assert Prompt.Message(role="user", content=content).to_dict() == {"role": "user", "content": content}


def test_embedded_resource_content():
    message = Prompt.Message(role="user", content=Content.EmbeddedResource(resource={"uri": "file:///a", "text": "A"}))
    assert message.to_dict() == {"role": "user", "content": {"type": "resource", "resource": {"uri": "file:///a", "text": "A"}}}
    assert_valid("PromptMessage", message.to_dict(), "2024-11-05")
