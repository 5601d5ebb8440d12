"""A minimal stdio "server" that records every byte the client writes.

    python client_stdio_recorder.py LOG_PATH

Appends each line read from stdin to LOG_PATH, first writes a line that is not
JSON (a client must skip it), and answers: ``initialize`` (a fixed result),
``env`` (``{"value": $NAME, "cwd": ...}`` for ``params.name``), ``environ``
(``{"names": [...]}``, the names of its whole environment, sorted), ``silence``
(never), ``say`` (first sends the notification and request in ``params``),
anything else ``{}``. Responses from the client are recorded and not answered.
The methods named (space-separated) in ``$MCP_SPEC_SILENT`` are never answered either.
"""

from __future__ import annotations

import json
import os
import sys

INITIALIZE_RESULT = {
    "protocolVersion": "2025-11-25",
    "capabilities": {"tools": {}},
    "serverInfo": {"name": "recorder", "version": "0.0.1"},
}


def main() -> None:
    log = open(sys.argv[1], "ab") if len(sys.argv) > 1 else None
    out = sys.stdout
    out.write("recorder: this line is not JSON\n")
    out.flush()
    silent = {"silence", *os.environ.get("MCP_SPEC_SILENT", "").split()}
    for line in sys.stdin.buffer:
        if log is not None:
            log.write(line)
            log.flush()
        message = json.loads(line)
        if "method" not in message or "id" not in message:
            continue
        method = message["method"]
        params = message.get("params") or {}
        if method in silent:
            continue
        if method == "initialize":
            result = INITIALIZE_RESULT
        elif method == "env":
            result = {"value": os.environ.get(params["name"]), "cwd": os.getcwd()}
        elif method == "environ":
            result = {"names": sorted(os.environ)}
        elif method == "say":
            for said in params.get("messages", []):
                out.write(json.dumps(said) + "\n")
            result = {}
        else:
            result = {}
        out.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
