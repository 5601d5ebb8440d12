#!/usr/bin/env python3
"""The conformance client: ``python conformance/client.py <server-url>``.

The official suite (``@modelcontextprotocol/conformance``) starts a mock
server per client scenario and runs this script against it, naming the
scenario in ``MCP_CONFORMANCE_SCENARIO`` (and giving data for some in
``MCP_CONFORMANCE_CONTEXT``, a JSON object). Each scenario is a function in
:data:`SCENARIOS`; it uses only the public ``mcp_sdk`` API. Exit code 0 means
the client did what the scenario asks; the suite judges the wire traffic.

See ``conformance/SCENARIOS.md`` for what each scenario expects.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import typing as t
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mcp_sdk import Client  # noqa: E402
from mcp_sdk.client import HTTP  # noqa: E402

Scenario = t.Callable[[str, t.Dict[str, t.Any]], None]

#: Scenario name -> function(server_url, context). Add ``auth/...`` entries here.
SCENARIOS: dict[str, Scenario] = {}

CLIENT_INFO = {"name": "mcp_sdk-conformance-client", "version": "1.0.0"}


def scenario(*names: str) -> t.Callable[[Scenario], Scenario]:
    """Register a function for one or more scenario names."""

    def register(function: Scenario) -> Scenario:
        for name in names:
            SCENARIOS[name] = function
        return function

    return register


def open_client(url: str, **transport_options: t.Any) -> Client:
    return Client(transport=HTTP(url=url, timeout=20.0, **transport_options))


@scenario("initialize")
def initialize(url: str, context: dict[str, t.Any]) -> None:
    """Handshake, list the tools."""
    with open_client(url) as client:
        client.connect(client_info=CLIENT_INFO)
        client.tools()


@scenario("tools_call")
def tools_call(url: str, context: dict[str, t.Any]) -> None:
    """Handshake, list the tools, call ``add_numbers``."""
    with open_client(url) as client:
        client.connect(client_info=CLIENT_INFO)
        names = [tool.name for tool in client.tools()]
        if "add_numbers" not in names:
            raise SystemExit(f"add_numbers not listed: {names}")
        response = client.call_tool(name="add_numbers", arguments={"a": 5, "b": 3})
        print(response["result"]["content"])


@scenario("elicitation-sep1034-client-defaults")
def elicitation_defaults(url: str, context: dict[str, t.Any]) -> None:
    """Accept the server's form with no input: the SDK fills in every field's default (SEP-1034)."""
    with open_client(url) as client:

        @client.on_elicitation
        def accept(params: dict[str, t.Any]) -> dict[str, t.Any]:
            return {"action": "accept", "content": {}}

        client.connect(client_info=CLIENT_INFO)
        client.tools()
        response = client.call_tool(name="test_client_elicitation_defaults", arguments={})
        print(response["result"]["content"])


@scenario("sse-retry")
def sse_retry(url: str, context: dict[str, t.Any]) -> None:
    """Call a tool whose stream closes early: the transport resumes it after ``retry`` (SEP-1699)."""
    with open_client(url) as client:
        client.connect(client_info=CLIENT_INFO)
        client.tools()
        response = client.call_tool(name="test_reconnection", arguments={})
        print(response["result"]["content"])


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(threadName)s %(name)s: %(message)s")
    if len(argv) < 2:
        print("usage: client.py <server-url>", file=sys.stderr)
        return 2
    url = argv[-1]
    name = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    run = SCENARIOS.get(name)
    if run is None:
        print(f"client.py: unknown scenario {name!r}; known: {', '.join(sorted(SCENARIOS))}", file=sys.stderr)
        return 1
    run(url, context)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
