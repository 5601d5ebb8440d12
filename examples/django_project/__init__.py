"""A minimal Django project with an MCP endpoint at /mcp (see README.md beside this file)."""
