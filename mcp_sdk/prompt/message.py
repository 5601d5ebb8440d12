"""One message of a prompt's result."""

from __future__ import annotations

import typing as t

import attrs

from .._converter import to_wire


@attrs.define
class Message:
    """``Prompt.Message(role="user", content=Content.Text("..."))``; content may be a wire dict.

    :param role: ``"user"`` or ``"assistant"``.
    :param content: a ``Content.*`` block (:class:`~mcp_sdk.Content`) or its wire dict.
    """

    role: str
    content: t.Any

    def to_dict(self) -> dict[str, t.Any]:
        """The wire form."""
        return {"role": self.role, "content": to_wire(self.content)}
