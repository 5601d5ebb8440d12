"""The server of :mod:`spec.support.polling_server` in a Flask app through
``mcp_sdk.contrib.flask.MCP`` with every transport default, at ``/mcp``: ``polling_flask:app``."""

from __future__ import annotations

from flask import Flask

from mcp_sdk.contrib.flask import MCP
from spec.support.polling_server import server

app = Flask(__name__)
mcp = MCP(app, server=server)
