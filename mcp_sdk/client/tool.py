"""``Client.Tool``: a tool as a server lists it."""

from __future__ import annotations

import threading
import typing as t

from .. import errors
from .exceptions import ValidationError

_UNSET: t.Any = object()


class Tool:
    """One entry of ``tools/list``, with attribute access to its fields.

    :param name: the tool's name (what :meth:`Client.call_tool` sends).
    :param title: its display name.
    :param description: what it does.
    :param input_schema: JSON Schema of its arguments (``inputSchema``).
    :param output_schema: JSON Schema of its ``structuredContent`` (``outputSchema``), if any.
    :param annotations: behaviour hints (``readOnlyHint`` ...), as sent.
    :param meta: the entry's ``_meta``.
    :param icons: the entry's ``icons``.
    """

    __slots__ = ("name", "title", "description", "input_schema", "output_schema", "annotations", "meta", "icons", "_validator", "_lock")

    def __init__(
        self,
        *,
        name: str,
        title: str | None = None,
        description: str | None = None,
        input_schema: dict[str, t.Any] | None = None,
        output_schema: dict[str, t.Any] | None = None,
        annotations: dict[str, t.Any] | None = None,
        meta: dict[str, t.Any] | None = None,
        icons: list[dict[str, t.Any]] | None = None,
    ) -> None:
        self.name = name
        self.title = title
        self.description = description
        self.input_schema = input_schema if input_schema is not None else {"type": "object"}
        self.output_schema = output_schema
        self.annotations = annotations
        self.meta = meta
        self.icons = icons
        self._validator: t.Any = _UNSET
        self._lock = threading.Lock()

    @classmethod
    def from_dict(cls, data: t.Mapping[str, t.Any]) -> Tool:
        """Build from a ``tools/list`` entry.

        :raises ValidationError: the entry has no string ``name``.
        :param data: the entry, as received.
        """
        if not isinstance(data, t.Mapping) or not isinstance(data.get("name"), str):
            raise ValidationError(f"tools/list entry without a name: {data!r:.200}")
        return cls(
            name=data["name"],
            title=data.get("title"),
            description=data.get("description"),
            input_schema=data.get("inputSchema"),
            output_schema=data.get("outputSchema"),
            annotations=data.get("annotations"),
            meta=data.get("_meta"),
            icons=data.get("icons"),
        )

    def to_dict(self) -> dict[str, t.Any]:
        """The wire form (camelCase keys, ``None`` fields left out)."""
        wire = {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "inputSchema": self.input_schema,
            "outputSchema": self.output_schema,
            "annotations": self.annotations,
            "_meta": self.meta,
            "icons": self.icons,
        }
        return {key: value for key, value in wire.items() if value is not None}

    def validate_structured_content(self, result: t.Mapping[str, t.Any]) -> None:
        """Check a ``tools/call`` result's ``structuredContent`` against :attr:`output_schema`.

        Nothing is checked for a tool without an output schema, or for an error
        result (``isError: true``). The schema is compiled once, on first use.

        :raises ValidationError: ``structuredContent`` is missing or does not conform.
        :param result: the ``tools/call`` result.
        """
        if self.output_schema is None or result.get("isError") is True:
            return
        validator = self._compiled()
        if validator is None:
            return
        if "structuredContent" not in result:
            raise ValidationError(f"Tool {self.name} has an output schema but returned no structuredContent")
        message = validator.errors(result["structuredContent"])
        if message is not None:
            raise ValidationError(f"Tool {self.name} returned invalid structured content: {message}")

    def _compiled(self) -> t.Any:
        validator = self._validator
        if validator is _UNSET:
            with self._lock:
                if self._validator is _UNSET:
                    from ..tool.output_schema import OutputSchema

                    try:
                        self._validator = OutputSchema(self.output_schema)
                    except errors.ValidationError:
                        # A schema this SDK cannot compile is the server's business, not a reason to fail calls.
                        self._validator = None
                validator = self._validator
        return validator

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tool):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"<Client.Tool {self.name!r}>"
