"""Server transports: stdio (blocking loop) and Streamable HTTP (a WSGI app).

Loaded lazily, so using stdio never imports werkzeug.
"""

from __future__ import annotations

import typing as t

from ..._lazy_names import lazy_names

if t.TYPE_CHECKING:
    from .stdio import StdioTransport as StdioTransport
    from .streamable_http import StreamableHTTPTransport as StreamableHTTPTransport

_LAZY = {
    "StdioTransport": "stdio",
    "StreamableHTTPTransport": "streamable_http",
}

__getattr__ = lazy_names(__name__, _LAZY, globals())


__all__ = ["StdioTransport", "StreamableHTTPTransport"]
