"""Integrations with web frameworks: :mod:`mcp_sdk.contrib.flask` and :mod:`mcp_sdk.contrib.django`.

Each submodule imports its framework; ``import mcp_sdk`` imports none of them.
"""
