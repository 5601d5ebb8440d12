"""What a prompt template returns (``prompts/get``)."""

from __future__ import annotations

import typing as t

import attrs

from .._converter import to_wire


@attrs.define
class Result:
    """``Prompt.Result(description=None, messages=[...], meta=None)``.

    :param description: a description of the result.
    :param messages: the :class:`Message` objects (or wire dicts), in order.
    :param meta: the result's ``_meta``.
    """

    description: str | None = None
    messages: list[t.Any] = attrs.field(factory=list)
    meta: dict[str, t.Any] | None = None

    def to_dict(self) -> dict[str, t.Any]:
        """The wire form."""
        data: dict[str, t.Any] = {}
        if self.description is not None:
            data["description"] = self.description
        data["messages"] = [to_wire(message) for message in self.messages]
        if self.meta is not None:
            data["_meta"] = self.meta
        return data
