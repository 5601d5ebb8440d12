"""A tool's ``outputSchema``: the shape of its ``structuredContent``."""

from __future__ import annotations

import typing as t

from ..errors import ValidationError
from .schema import Schema


class OutputSchema(Schema):
    """JSON Schema of a tool's structured result: an object by default, an array with ``type="array"``."""

    root_name = "structuredContent"

    def validate_result(self, result: t.Any) -> None:
        """Raise :class:`~mcp_sdk.ValidationError` if ``result`` does not conform.

        :param result: a tool's ``structuredContent``.
        """
        message = self.errors(result)
        if message is not None:
            raise ValidationError(f"Invalid structured content: {message}")
