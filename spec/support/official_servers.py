"""The official Python SDK's server (spec/support/official_server.py) as a real subprocess, over stdio or HTTP."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
import typing as t
from pathlib import Path

from mcp_sdk.client import HTTP, Stdio

SCRIPT = str(Path(__file__).with_name("official_server.py"))


def official_stdio() -> Stdio:
    """A transport that starts the official server on stdio."""
    return Stdio(command=sys.executable, args=[SCRIPT, "stdio"], read_timeout=30.0)


@contextlib.contextmanager
def official_http() -> t.Iterator[str]:
    """Run the official server on 127.0.0.1 (Streamable HTTP); yields its MCP URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([sys.executable, SCRIPT, "http", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.5).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the official server did not start") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def official_http_transport(url: str) -> HTTP:
    return HTTP(url=url, timeout=30.0)
