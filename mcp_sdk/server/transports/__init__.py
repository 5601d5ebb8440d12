"""Server transports: stdio (blocking loop) and Streamable HTTP (a WSGI app).

Loaded lazily, so using stdio never imports werkzeug.
"""

from __future__ import annotations

import typing as t

if t.TYPE_CHECKING:
    from .stdio_transport import StdioTransport as StdioTransport
    from .streamable_http_transport import StreamableHTTPTransport as StreamableHTTPTransport

_LAZY = {
    "StdioTransport": ".stdio_transport",
    "StreamableHTTPTransport": ".streamable_http_transport",
}


def __getattr__(name: str) -> t.Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module, __name__), name)


__all__ = ["StdioTransport", "StreamableHTTPTransport"]
