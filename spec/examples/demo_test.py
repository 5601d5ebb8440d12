"""The README's first command runs examples/demo.py: keep it working."""

from __future__ import annotations

import pathlib
import subprocess
import sys

DEMO = pathlib.Path(__file__).resolve().parents[2] / "examples" / "demo.py"


def test_demo_runs_the_scripted_session_and_exits_cleanly() -> None:
    completed = subprocess.run([sys.executable, str(DEMO)], capture_output=True, text=True, timeout=60)

    assert completed.returncode == 0, completed.stdout + completed.stderr
    out = completed.stdout
    assert '<- {"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"Hello from example tool! Message: Hello"}],"isError":false}}' in out
    assert '"text":"Invalid arguments: message must be string"}],"isError":true}' in out
    assert out.count('"method":"notifications/progress"') == 3
    assert '"method":"notifications/message","params":{"level":"info","data":{"message":"mcp over stdio"},"logger":"shout_tool"}' in out
    assert '"error":{"code":-32601,"message":"Method not found: no/such/method"}' in out
    assert '"id":12,"result":{"supportedVersions":["2026-07-28"]' in out
    assert '"id":13,"result":{"content":[{"type":"text","text":"Hello from example tool! Message: Hello"}],"isError":false,"_meta":{"io.modelcontextprotocol/serverInfo":' in out
    assert '"id":14,"error":{"code":-32601,"message":"Method not found: ping is not part of protocol 2026-07-28"}' in out
    assert out.rstrip().endswith("it exited with code 0.")
