"""The project's server; the apps' ``mcp.py`` modules register its tools."""

from __future__ import annotations

from mcp_sdk import Server

server = Server(name="library", version="1.0.0")
