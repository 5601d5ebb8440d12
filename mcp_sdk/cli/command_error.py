"""The CLI's one error type: a message printed as one line, then a non-zero exit."""

from __future__ import annotations

from ..errors import MCPError


class CLIError(MCPError):
    """A failure the CLI reports as ``mcp-sdk: error: <message>`` and exit status 1."""


__all__ = ["CLIError"]
