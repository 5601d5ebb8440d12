"""Integrations with web frameworks: :mod:`mcp_sdk.contrib.flask`.

Each submodule imports its framework; ``import mcp_sdk`` imports none of them.
"""
