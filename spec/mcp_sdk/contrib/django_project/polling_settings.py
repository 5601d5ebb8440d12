"""The spec project serving :mod:`spec.support.polling_server` with every transport default
(``MCP_SDK["TRANSPORT"]`` left out) and no authentication, for the many-sessions spec
(spec/mcp_sdk/server/transports/streamable_http_polling_test.py)."""

from __future__ import annotations

from .settings import *  # noqa: F403

MCP_SDK = {"SERVER": "spec.support.polling_server.server", "AUTHENTICATION": []}
