"""A scripted MCP session against examples/stdio_server.py, printing every message.

    python examples/demo.py

It starts the example server as a subprocess, speaks raw JSON-RPC to it over
its stdin/stdout (the way any MCP host does), and shows what each side says:
the handshake, tools, progress and log notifications, a validation error,
a prompt, a resource, an unknown method, then the same server spoken to in
MCP 2026-07-28 (no handshake; the version travels with every request).
"""

from __future__ import annotations

import json
import pathlib
import queue
import subprocess
import sys
import threading
import typing as t

SERVER = pathlib.Path(__file__).with_name("stdio_server.py")
TIMEOUT = 10.0

#: The per-request envelope of MCP 2026-07-28 (a client that declares no capabilities).
MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "demo-client", "version": "1.0"},
}

SCRIPT: list[tuple[str, dict[str, t.Any]]] = [
    (
        "Handshake: the client proposes a protocol version and says who it is",
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "demo-client", "version": "1.0"},
            },
        },
    ),
    ("The client confirms; notifications get no answer", {"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ("Liveness check", {"jsonrpc": "2.0", "id": 2, "method": "ping"}),
    ("What tools are there?", {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}),
    (
        "Call a tool",
        {
            "jsonrpc": "2.0",
            "id": 4,
            "method": "tools/call",
            "params": {"name": "example_tool", "arguments": {"message": "Hello"}},
        },
    ),
    (
        "Arguments that break the tool's input schema: a tool error the model can read, not a crash",
        {
            "jsonrpc": "2.0",
            "id": 5,
            "method": "tools/call",
            "params": {"name": "example_tool", "arguments": {"message": 42}},
        },
    ),
    (
        "A long-running tool with a progress token: progress notifications arrive before the result",
        {
            "jsonrpc": "2.0",
            "id": 6,
            "method": "tools/call",
            "params": {"name": "count", "arguments": {"to": 3}, "_meta": {"progressToken": "demo-progress"}},
        },
    ),
    ("Ask for log messages at level info and above", {"jsonrpc": "2.0", "id": 7, "method": "logging/setLevel", "params": {"level": "info"}}),
    (
        "A tool that logs: the log message comes first",
        {
            "jsonrpc": "2.0",
            "id": 8,
            "method": "tools/call",
            "params": {"name": "shout_tool", "arguments": {"message": "mcp over stdio"}},
        },
    ),
    (
        "Fill in a prompt template",
        {"jsonrpc": "2.0", "id": 9, "method": "prompts/get", "params": {"name": "greeting", "arguments": {"name": "Ada"}}},
    ),
    ("Read a resource", {"jsonrpc": "2.0", "id": 10, "method": "resources/read", "params": {"uri": "example://readme"}}),
    ("A method the server does not have", {"jsonrpc": "2.0", "id": 11, "method": "no/such/method"}),
    (
        "MCP 2026-07-28 on the same stdio loop: no handshake; every request carries its version and"
        " capabilities in _meta, and the server tells what it supports",
        {"jsonrpc": "2.0", "id": 12, "method": "server/discover", "params": {"_meta": MODERN_META}},
    ),
    (
        "A 2026-07-28 tool call: the result says it is complete and who answered",
        {
            "jsonrpc": "2.0",
            "id": 13,
            "method": "tools/call",
            "params": {"name": "example_tool", "arguments": {"message": "Hello"}, "_meta": MODERN_META},
        },
    ),
    (
        "ping does not exist in 2026-07-28",
        {"jsonrpc": "2.0", "id": 14, "method": "ping", "params": {"_meta": MODERN_META}},
    ),
]


def _show(prefix: str, message: dict[str, t.Any]) -> None:
    text = json.dumps(message, separators=(",", ":"))
    if len(text) > 400:
        text = text[:397] + "..."
    print(f"  {prefix} {text}")


def _reader(stream: t.IO[bytes], inbox: queue.Queue[dict[str, t.Any] | None]) -> None:
    for line in stream:
        inbox.put(json.loads(line))
    inbox.put(None)


def main() -> int:
    process = subprocess.Popen(
        [sys.executable, str(SERVER)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None and process.stdout is not None
    inbox: queue.Queue[dict[str, t.Any] | None] = queue.Queue()
    threading.Thread(target=_reader, args=(process.stdout, inbox), name="demo-reader", daemon=True).start()
    print(f"Started {SERVER.name} (pid {process.pid}); -> is the client, <- the server.\n")
    try:
        for caption, message in SCRIPT:
            print(caption)
            _show("->", message)
            process.stdin.write(json.dumps(message).encode() + b"\n")
            process.stdin.flush()
            if "id" not in message:
                print()
                continue
            while True:
                reply = inbox.get(timeout=TIMEOUT)
                if reply is None:
                    print("The server closed its output unexpectedly.")
                    return 1
                _show("<-", reply)
                if reply.get("id") == message["id"] and "method" not in reply:
                    break
            print()
    except queue.Empty:
        print(f"No answer within {TIMEOUT:g} seconds.")
        return 1
    finally:
        process.stdin.close()
        try:
            process.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stdout.close()
    print(f"Closed the server's stdin; it exited with code {process.returncode}.")
    return 0 if process.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
