"""An ``mcpServers`` configuration of real servers for the multi-server client specs: this
project's example server on stdio, the official Python SDK's server on stdio, the TypeScript
``server-everything`` on stdio (a 2025-only server), this project's example HTTP server as a
subprocess, and three that fail (a command that does not exist, one that exits at once, a
refused port)."""

from __future__ import annotations

import contextlib
import sys
import typing as t

from spec.support.client_interop import ensure_everything
from spec.support.http_server import PYTHON, ROOT, ServerProcess, free_port
from spec.support.official_servers import SCRIPT as OFFICIAL_SERVER


def ours_stdio() -> dict[str, t.Any]:
    # A stdio server inherits no PYTHONPATH: this tree's mcp_sdk, not the installed one, is given.
    return {"command": sys.executable, "args": ["examples/stdio_server.py"], "cwd": str(ROOT), "env": {"PYTHONPATH": str(ROOT)}}


def recorder_stdio(log: str, **env: str) -> dict[str, t.Any]:
    """``spec/support/client_stdio_recorder.py`` (a 2025-11-25 server that answers ``environ``, records
    what it reads in ``log``, and never answers the methods named in ``MCP_SPEC_SILENT``), with ``env``."""
    return {"command": sys.executable, "args": [str(ROOT / "spec" / "support" / "client_stdio_recorder.py"), log], "env": env}


def official_stdio() -> dict[str, t.Any]:
    return {"command": sys.executable, "args": [OFFICIAL_SERVER, "stdio"]}


def everything_stdio() -> dict[str, t.Any]:
    node, script = ensure_everything()
    return {"command": node, "args": [script, "stdio"]}


def missing_command() -> dict[str, t.Any]:
    return {"command": str(ROOT / "no-such-mcp-server"), "args": ["--stdio"]}


def crashing_command() -> dict[str, t.Any]:
    return {"command": sys.executable, "args": ["-c", "import sys; sys.stderr.write('boom\\n'); sys.exit(3)"]}


def refused_url() -> dict[str, t.Any]:
    return {"url": f"http://127.0.0.1:{free_port()}/mcp", "transport": "http"}


@contextlib.contextmanager
def ours_http() -> t.Iterator[dict[str, t.Any]]:
    """``examples/http_server.py`` on a free port; yields its entry (with a header it ignores)."""
    with ServerProcess([PYTHON, "examples/http_server.py", "--port", "{port}"]) as served:
        yield {"url": served.url, "headers": {"X-Team": "docs"}}
