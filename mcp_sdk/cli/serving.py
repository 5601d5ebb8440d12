"""``mcp-sdk run`` and ``mcp-sdk dev``: serve a server file, or open the MCP Inspector on it."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
import typing as t

from ..server import Server
from .command_error import CLIError

#: The Inspector ``dev`` starts, and the Node.js major version it needs.
INSPECTOR_PACKAGE = "@modelcontextprotocol/inspector"
NODE_MAJOR = 22


def serve_stdio(server: Server) -> None:
    """Serve over stdin/stdout until end of input."""
    from ..server.transports import StdioTransport

    StdioTransport(server).open()


def serve_http(server: Server, host: str, port: int) -> None:
    """Serve Streamable HTTP (every path) with waitress when installed, else werkzeug's threaded server."""
    from ..server.transports import StreamableHTTPTransport

    transport = StreamableHTTPTransport(server)
    url = f"http://{host}:{port}/mcp"
    try:
        try:
            waitress: t.Any = importlib.import_module("waitress")  # optional; it has no type stubs
        except ImportError:
            from werkzeug.serving import make_server

            http_server = make_server(host, port, transport, threaded=True)
            print(f"Serving {server.name} on {url} (werkzeug; pip install waitress for production)", file=sys.stderr, flush=True)
            http_server.serve_forever()
        else:
            print(f"Serving {server.name} on {url} (waitress)", file=sys.stderr, flush=True)
            waitress.serve(transport, host=host, port=port, threads=32, channel_timeout=60, _quiet=True)
    except OSError as error:
        raise CLIError(f"cannot serve on {host}:{port}: {error.strerror or error}") from None
    finally:
        transport.close()


def inspector_command(target: str) -> list[str]:
    """The command line that starts the MCP Inspector against ``target`` (needs ``npx``)."""
    npx = shutil.which("npx")
    if npx is None:
        raise CLIError(
            f"dev needs Node.js {NODE_MAJOR}+ with npx (https://nodejs.org/en/download); "
            f"then run: npx {INSPECTOR_PACKAGE} {sys.executable} -m mcp_sdk run {target}"
        )
    node = shutil.which("node")
    if node is not None:
        version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
        major = version.lstrip("v").split(".")[0]
        if major.isdigit() and int(major) < NODE_MAJOR:
            raise CLIError(f"the MCP Inspector needs Node.js {NODE_MAJOR} or newer; this is {version}")
    return [npx, "-y", INSPECTOR_PACKAGE, sys.executable, "-m", "mcp_sdk", "run", target]


__all__ = ["INSPECTOR_PACKAGE", "NODE_MAJOR", "inspector_command", "serve_http", "serve_stdio"]
