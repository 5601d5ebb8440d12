"""Serve an MCP server from a Flask app: ``MCP(app, server=server)``.

The endpoint is a Flask view, so ``before_request`` hooks, Flask-Login and error handlers apply
to it; tools run in the app's context, with ``flask.request`` (a copy of the request that
carried the call), ``current_app`` and ``g``; ``flask mcp stdio`` and ``flask mcp tools`` serve
and list the same server from the command line. See :class:`MCP`. :func:`tools_from_routes`
exposes the app's own view functions as tools, called through the app in-process.
"""

from __future__ import annotations

from ...errors import MissingExtraError

try:
    import flask as _flask  # noqa: F401  (only to say which extra is missing)
except ImportError:
    raise MissingExtraError("mcp_sdk.contrib.flask needs Flask: pip install 'mcp_sdk[flask]'") from None

from .extension import MCP as MCP  # noqa: E402
from .route_tools import tools_from_routes as tools_from_routes  # noqa: E402

__all__ = ["MCP", "tools_from_routes"]
