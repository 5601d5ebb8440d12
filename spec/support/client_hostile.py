"""A misbehaving stdio MCP server for the client hardening specs: ``python client_hostile.py MODE``.

It reads requests line by line and misbehaves as ``MODE`` says before (or
instead of) answering:

- ``unhashable-id``: first answers with ``"id": [id]``, then properly.
- ``deep``: first writes a line nested too deep for ``json.loads``, then answers.
- ``sampling``: sends ``sampling/createMessage`` and answers the request with
  ``{"reply": <the client's raw response line>}``.
- ``silent``: never answers.
"""

from __future__ import annotations

import json
import sys


def write(message: object) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main(mode: str) -> None:
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message or "method" not in message:
            continue
        request_id = message["id"]
        if mode == "silent":
            continue
        if mode == "unhashable-id":
            write({"jsonrpc": "2.0", "id": [request_id], "result": {}})
        elif mode == "deep":
            sys.stdout.write("[" * 200_000 + "\n")
        elif mode == "sampling" and message["method"] != "initialize":
            write({"jsonrpc": "2.0", "id": "s-1", "method": "sampling/createMessage", "params": {"messages": []}})
            write({"jsonrpc": "2.0", "id": request_id, "result": {"reply": sys.stdin.readline()}})
            continue
        write({"jsonrpc": "2.0", "id": request_id, "result": {}})


if __name__ == "__main__":
    main(sys.argv[1])
