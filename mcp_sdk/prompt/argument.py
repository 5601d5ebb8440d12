"""A prompt's declared argument."""

from __future__ import annotations

import typing as t

import attrs


@attrs.define
class Argument:
    """``Prompt.Argument(name="message", title=None, description=None, required=False)``.

    :param name: the argument's name, the key of the arguments dict.
    :param title: a display name (protocol 2025-06-18 and later).
    :param description: what the argument is for.
    :param required: whether ``prompts/get`` must give it.
    """

    name: str
    title: str | None = None
    description: str | None = None
    required: bool = False

    def to_dict(self) -> dict[str, t.Any]:
        """The wire form (``required`` always present)."""
        data: dict[str, t.Any] = {"name": self.name}
        if self.title is not None:
            data["title"] = self.title
        if self.description is not None:
            data["description"] = self.description
        data["required"] = self.required
        return data
