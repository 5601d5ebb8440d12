"""A bare MCP 2026-07-28 server for the client benchmark: ``server/discover``, ``tools/list``, ``tools/call`` (echo).

No SDK: it answers from fixed wire dicts, so the benchmark measures the client.
``python _modern_server.py`` serves stdio; ``python _modern_server.py --http PORT``
serves Streamable HTTP (JSON responses) under waitress on 127.0.0.1;
``--http-legacy PORT`` plays a 2025-11-25-only server instead (``initialize``;
``server/discover`` is an unknown method), for the cost of the auto-mode probe.
"""

from __future__ import annotations

import json
import sys
import typing as t

VERSION = "2026-07-28"
DISCOVER = {"resultType": "complete", "supportedVersions": [VERSION], "capabilities": {"tools": {}},
            "serverInfo": {"name": "bench-modern", "version": "1"}, "ttlMs": 0, "cacheScope": "public"}
TOOLS = {"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "tools": [
    {"name": "echo", "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}}}]}


def answer(request: dict[str, t.Any]) -> dict[str, t.Any]:
    method = request.get("method")
    params = request.get("params") or {}
    meta = params.get("_meta") or {}
    if meta.get("io.modelcontextprotocol/protocolVersion") != VERSION:
        return {"jsonrpc": "2.0", "id": request.get("id"), "error": {
            "code": -32022, "message": "Unsupported protocol version", "data": {"supported": [VERSION]}}}
    if method == "server/discover":
        result: dict[str, t.Any] = DISCOVER
    elif method == "tools/list":
        result = TOOLS
    elif method == "tools/call":
        text = (params.get("arguments") or {}).get("message", "")
        result = {"resultType": "complete", "content": [{"type": "text", "text": text}]}
    else:
        return {"jsonrpc": "2.0", "id": request.get("id"), "error": {"code": -32601, "message": "Method not found"}}
    return {"jsonrpc": "2.0", "id": request.get("id"), "result": result}


LEGACY = False
INITIALIZE = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "bench-legacy", "version": "1"}}


def answer_legacy(request: dict[str, t.Any]) -> dict[str, t.Any]:
    if request.get("method") == "initialize":
        return {"jsonrpc": "2.0", "id": request.get("id"), "result": INITIALIZE}
    return {"jsonrpc": "2.0", "id": request.get("id"), "error": {"code": -32601, "message": "Method not found"}}


def serve_stdio() -> None:
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if "id" in message:
            out.write(json.dumps(answer(message), separators=(",", ":")).encode() + b"\n")
            out.flush()


def app(environ: dict[str, t.Any], start_response: t.Any) -> list[bytes]:
    if environ["REQUEST_METHOD"] != "POST":
        start_response("405 Method Not Allowed", [("Content-Length", "0")])
        return []
    length = int(environ.get("CONTENT_LENGTH") or 0)
    message = json.loads(environ["wsgi.input"].read(length))
    if "id" not in message:
        start_response("202 Accepted", [("Content-Length", "0")])
        return []
    body = json.dumps((answer_legacy if LEGACY else answer)(message), separators=(",", ":")).encode()
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] in ("--http", "--http-legacy"):
        import waitress

        LEGACY = sys.argv[1] == "--http-legacy"
        waitress.serve(app, host="127.0.0.1", port=int(sys.argv[2]), threads=8, _quiet=True)
    else:
        serve_stdio()
