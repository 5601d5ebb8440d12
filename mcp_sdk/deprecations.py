"""The MCP features that SEP-2577 deprecates as of protocol 2026-07-28, and the warning the SDK
gives when they are used.

Roots, Sampling and Logging remain fully part of the specification during their deprecation
window (earliest removal: the first revision on or after 2027-07-28; see the specification's
"Deprecated Features" registry), so they keep working in every protocol version; calling them
warns with :class:`~mcp_sdk.MCPDeprecationWarning`, as the official Python SDK does. Being a
``DeprecationWarning``, it shows by default only for calls made from ``__main__`` (and under
pytest); ``warnings.filterwarnings("ignore", category=mcp_sdk.MCPDeprecationWarning)`` silences it.
"""

from __future__ import annotations

import warnings

from .errors import MCPDeprecationWarning

#: Feature -> what the specification's registry says to use instead.
MIGRATIONS = {
    "roots": "pass directories or files via tool parameters, resource URIs, or server configuration",
    "sampling": "integrate directly with LLM provider APIs",
    "logging": "log to stderr on stdio, and use OpenTelemetry for observability",
}


def warn_deprecated(feature: str, stacklevel: int = 3) -> None:
    """Warn that ``feature`` (``"roots"``, ``"sampling"`` or ``"logging"``) is deprecated.

    :param stacklevel: as for :func:`warnings.warn`; the default 3 names the caller of the
        function that calls this one (the user's line).
    """
    warnings.warn(
        f"The {feature} capability is deprecated as of MCP 2026-07-28 (SEP-2577): {MIGRATIONS[feature]}.",
        MCPDeprecationWarning,
        stacklevel=stacklevel,
    )


__all__ = ["MIGRATIONS", "warn_deprecated"]
