"""What the handshake told a :class:`~mcp_sdk.Client` about its server: era, version, info, capabilities.

:class:`ServerDescription` is the part of :class:`~mcp_sdk.Client` that reads the server's
``InitializeResult`` (2025 eras) or ``DiscoverResult`` (MCP 2026-07-28) once :meth:`~mcp_sdk.Client.connect`
has them.
"""

from __future__ import annotations

import typing as t

from . import modern

if t.TYPE_CHECKING:
    from .request_sender import RequestSender


class ServerDescription:
    """The server's description, as :class:`~mcp_sdk.Client` exposes it after :meth:`~mcp_sdk.Client.connect`."""

    # Set by Client (which documents them).
    _sender: RequestSender
    initialize_result: dict[str, t.Any] | None
    discover_result: dict[str, t.Any] | None

    @property
    def era(self) -> str | None:
        """``"modern"`` (MCP 2026-07-28), ``"legacy"`` (``initialize``), or None before :meth:`~mcp_sdk.Client.connect`."""
        if self.discover_result is None and self.initialize_result is None:
            return None
        return self._sender.era.name

    @property
    def connected(self) -> bool:
        """Whether :meth:`~mcp_sdk.Client.connect` has completed."""
        return self.era is not None

    @property
    def protocol_version(self) -> str | None:
        """The agreed protocol version (e.g. ``"2026-07-28"``; None before :meth:`~mcp_sdk.Client.connect`)."""
        return self._sender.era.protocol_version if self.connected else None

    @property
    def _description(self) -> dict[str, t.Any]:
        return self.discover_result or self.initialize_result or {}

    @property
    def server_info(self) -> dict[str, t.Any] | None:
        """The server's ``serverInfo`` (``name``, ``version``, ``title``...)."""
        return modern.server_info(self._description)

    @property
    def server_capabilities(self) -> dict[str, t.Any] | None:
        """The ``capabilities`` the server declared."""
        return self._description.get("capabilities")

    @property
    def instructions(self) -> str | None:
        """The server's ``instructions``, if it gave any."""
        return self._description.get("instructions")
