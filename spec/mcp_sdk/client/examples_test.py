"""The client examples run as documented."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

from spec.support.client_servers import ROOT, wsgi_server

TIMEOUT = 60


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT
    )


def test_stdio_client() -> None:
    completed = run("examples/stdio_client.py")
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.splitlines() == [
        "Connected to example_server 1.0.0 (protocol 2026-07-28)",
        "Tool: example_tool - A simple example tool that echoes back its arguments",
        "Tool: count - Counts to a number, reporting progress (send _meta.progressToken to see it)",
        "Tool: shout_tool - Logs its message to the client (after logging/setLevel) and shouts it back",
        "Hello from example tool! Message: Hello, world!",
        "  progress 1/3: Counted to 1",
        "  progress 2/3: Counted to 2",
        "  progress 3/3: Counted to 3",
        "Counted to 3",
    ]


def test_http_client() -> None:
    spec = importlib.util.spec_from_file_location("example_http_server", ROOT / "examples" / "http_server.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    transport, app = module.build_app()
    try:
        with wsgi_server(app) as url:
            completed = run("examples/http_client.py", url)
    finally:
        transport.close()
        module.transport.close()
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert lines[0] == "Connected to http_example (protocol 2026-07-28)"
    assert "Hello world" in lines
    assert lines[-8:] == [
        "  progress 1/3: 3...",
        "  log [info] countdown: 3...",
        "  progress 2/3: 2...",
        "  log [info] countdown: 2...",
        "  progress 3/3: 1...",
        "  log [info] countdown: 1...",
        "Liftoff!",
        "You asked: 'What is MCP?'",
    ]


def test_http_client_reports_an_unreachable_server() -> None:
    completed = run("examples/http_client.py", "http://127.0.0.1:9/mcp")
    assert completed.returncode == 1
    assert "Could not connect: POST http://127.0.0.1:9/mcp failed" in completed.stderr
