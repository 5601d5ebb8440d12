"""What a tool returns: ``Tool.Response(content, structured_content=None, error=False, meta=None)``."""

from __future__ import annotations

import typing as t

from .._converter import to_wire


class Response:
    """A ``tools/call`` result.

    :param content: a string (one text block), a content block (``Content.Text(...)`` or a wire
        dict), or a list of them; checked by the server before anything is sent.
    :param structured_content: JSON for clients that read ``structuredContent``.
    :param error: True for a tool-level failure (``isError``) the model should see.
    :param meta: ``_meta`` of the result.
    """

    __slots__ = ("content", "structured_content", "error", "meta")

    def __init__(
        self,
        content: t.Iterable[t.Any] | str | None = None,
        structured_content: t.Any = None,
        error: bool = False,
        meta: dict[str, t.Any] | None = None,
    ) -> None:
        self.content: list[t.Any]
        if type(content) is list:
            self.content = list(content)
        elif content is None:
            self.content = []
        elif isinstance(content, (str, dict)) or not hasattr(content, "__iter__"):
            self.content = [content]  # one block: never a string split into characters
        else:
            self.content = list(content)
        self.structured_content = structured_content
        self.error = bool(error)
        self.meta = meta

    def to_dict(self) -> dict[str, t.Any]:
        """The wire form: ``content``, ``isError``, and ``structuredContent``/``_meta`` when set."""
        content = [{"type": "text", "text": item} if isinstance(item, str) else to_wire(item) for item in self.content]
        result: dict[str, t.Any] = {"content": content, "isError": self.error}
        if self.structured_content is not None:
            result["structuredContent"] = self.structured_content
        if self.meta is not None:
            result["_meta"] = self.meta
        return result

    def __repr__(self) -> str:
        return f"Tool.Response(content={self.content!r}, structured_content={self.structured_content!r}, error={self.error!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Response):
            return NotImplemented
        return self.to_dict() == other.to_dict()
