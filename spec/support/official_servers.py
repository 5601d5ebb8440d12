"""The official Python SDK's server (spec/support/official_server.py) as a real subprocess, over stdio or HTTP."""

from __future__ import annotations

import contextlib
import sys
import typing as t
from pathlib import Path

from mcp_sdk.client import HTTP, Stdio
from spec.support.client_interop import free_port, http_server_process

SCRIPT = str(Path(__file__).with_name("official_server.py"))


def official_stdio() -> Stdio:
    """A transport that starts the official server on stdio."""
    return Stdio(command=sys.executable, args=[SCRIPT, "stdio"], read_timeout=30.0)


@contextlib.contextmanager
def official_http() -> t.Iterator[str]:
    """Run the official server on 127.0.0.1 (Streamable HTTP); yields its MCP URL."""
    port = free_port()
    with http_server_process([sys.executable, SCRIPT, "http", str(port)], port, "the official MCPServer") as url:
        yield url


def official_http_transport(url: str) -> HTTP:
    return HTTP(url=url, timeout=30.0)
