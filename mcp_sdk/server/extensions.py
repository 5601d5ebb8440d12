"""Extensions a server declares itself: ``server.declare_extension(name, settings)``.

The ``extensions`` capability (SEP-2133) maps extension identifiers to settings objects. The
server derives the ones it implements (MCP Apps, tasks); a custom extension is declared with
:meth:`mcp_sdk.Server.declare_extension` and added to whatever capabilities the server
advertises, derived or given as ``capabilities=``, in ``initialize`` (2025) and
``server/discover`` (2026-07-28) alike, without replacing the rest.
"""

from __future__ import annotations

import copy
import re
import threading
import typing as t

from ..errors import InvalidNameError

# The `_meta` key grammar with its prefix mandatory (basic/index "_meta", basic/versioning
# "Extension Negotiation"): dot-separated labels, then "/", then a name.
_LABEL = r"[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
_NAME = r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?"
IDENTIFIER = re.compile(rf"{_LABEL}(?:\.{_LABEL})*/{_NAME}")


class DeclaredExtensions:
    """The extensions declared with :meth:`declare`, merged into capabilities by :meth:`apply`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._declared: dict[str, dict[str, t.Any]] = {}

    def declare(self, name: str, settings: t.Mapping[str, t.Any] | None = None) -> None:
        """Declare extension ``name`` with ``settings`` (a JSON object; None or ``{}``: no settings).

        Declaring a name again replaces its settings.

        :raises InvalidNameError: ``name`` is not ``vendor.prefix/name`` (e.g. ``com.example/search``).
        :raises TypeError: ``settings`` is not a mapping.
        """
        if not isinstance(name, str) or not IDENTIFIER.fullmatch(name):
            raise InvalidNameError(
                f"an extension identifier is a reverse-DNS prefix, '/' and a name (com.example/search), not {name!r}"
            )
        if settings is not None and not isinstance(settings, t.Mapping):
            raise TypeError(f"extension settings are a JSON object (a dict), not {type(settings).__name__}")
        with self._lock:
            self._declared = {**self._declared, name: copy.deepcopy(dict(settings or {}))}

    def withdraw(self, name: str) -> bool:
        """Stop declaring ``name``; returns whether it was declared."""
        with self._lock:
            if name not in self._declared:
                return False
            self._declared = {key: value for key, value in self._declared.items() if key != name}
            return True

    @property
    def declared(self) -> dict[str, dict[str, t.Any]]:
        """Identifier -> settings, as declared (a copy)."""
        return copy.deepcopy(self._declared)

    def apply(self, capabilities: dict[str, t.Any]) -> dict[str, t.Any]:
        """``capabilities`` with the declared extensions added to its ``extensions`` (a new dict;
        ``capabilities`` is left as it was). A declared name wins over one already there."""
        declared = self._declared  # replaced, never changed in place: no lock needed to read it
        if not declared:
            return capabilities
        existing = capabilities.get("extensions")
        merged = {**(existing if isinstance(existing, dict) else {}), **copy.deepcopy(declared)}
        return {**capabilities, "extensions": merged}


__all__ = ["IDENTIFIER", "DeclaredExtensions"]
