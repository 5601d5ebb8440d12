"""The servers of the two-worker specs (spec/mcp_sdk/contrib/django_workers_test.py): the
configured one (``MCP_SDK["SERVER"]``, the library app's tools added by autodiscovery) and one of
the project's own, served with ``mcp_view(own)``; each has a tool that asks the user (a 2026-07-28
multi round-trip request) and one that says which worker process ran it."""

from __future__ import annotations

import os
import typing as t

from mcp_sdk import Server

NAME_SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}

server = Server(name="workers", version="1.0.0")
own = Server(name="own", version="1.0.0")

for each in (server, own):

    @each.define_tool(name="greet", description="Asks the user for their name (form elicitation).")
    def greet(args: dict[str, t.Any], server_context: t.Any = None) -> str:
        answer = server_context.create_form_elicitation("What is your name?", NAME_SCHEMA)
        return f"Hello, {answer['content']['name']}!"

    @each.define_tool(name="worker", description="The pid of the worker process that ran the call.")
    def worker(args: dict[str, t.Any]) -> str:
        return str(os.getpid())


__all__ = ["own", "server"]
