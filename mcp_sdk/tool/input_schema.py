"""A tool's ``inputSchema``."""

from __future__ import annotations

import typing as t

from ..errors import ValidationError
from .schema import Schema


class InputSchema(Schema):
    """The JSON Schema of a tool's arguments (always ``"type": "object"``)."""

    root_name = "arguments"

    def validate_arguments(self, arguments: t.Any) -> None:
        """Raise :class:`~mcp_sdk.ValidationError` naming the offending field if invalid.

        :param arguments: a ``tools/call``'s arguments.
        """
        message = self.errors(arguments)
        if message is not None:
            raise ValidationError(f"Invalid arguments: {message}")
