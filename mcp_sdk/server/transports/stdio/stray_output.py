"""Keep stray ``print()`` calls off the protocol while a stdio server owns stdout.

Over stdio, stdout carries JSON-RPC and nothing else; a ``print()`` in a tool would
corrupt the stream. While :class:`~mcp_sdk.server.transports.StdioTransport` serves on
the process's stdout, ``sys.stdout`` is pointed at stderr; the transport keeps writing
to the real stdout it took before.
"""

from __future__ import annotations

import sys
import threading
import typing as t

_lock = threading.Lock()


class StrayOutputToStderr:
    """Point ``sys.stdout`` at ``sys.stderr`` until :meth:`restore` (which is idempotent)."""

    def __init__(self) -> None:
        with _lock:
            self._saved: t.Any = sys.stdout
            self._replacement: t.Any = sys.stderr
            if self._replacement is not None:
                sys.stdout = self._replacement

    def restore(self) -> None:
        """Put the saved ``sys.stdout`` back, unless someone else replaced it since."""
        with _lock:
            if self._replacement is not None and sys.stdout is self._replacement:
                sys.stdout = self._saved
            self._replacement = None


__all__ = ["StrayOutputToStderr"]
