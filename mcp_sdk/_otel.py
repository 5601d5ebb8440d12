"""The lazy import of the OpenTelemetry API, the ``mcp_sdk[otel]`` extra.

Only :class:`~mcp_sdk.server.middleware.Tracing` imports it, when it is created; the client
uses it only once the application itself has imported OpenTelemetry
(see :mod:`mcp_sdk.client.trace_propagation`).
"""

from __future__ import annotations

import types

from .errors import MissingExtraError


def import_otel() -> tuple[types.ModuleType, types.ModuleType]:
    """The ``opentelemetry.trace`` and ``opentelemetry.propagate`` modules.

    :raises MissingExtraError: opentelemetry-api is not installed (naming the extra to install).
    """
    try:
        from opentelemetry import propagate, trace
    except ImportError:
        raise MissingExtraError("Tracing needs the OpenTelemetry API: pip install 'mcp_sdk[otel]'") from None
    return trace, propagate


__all__ = ["MissingExtraError", "import_otel"]
