"""A stdio MCP server that leans on the client, for the issue-13 client specs: ``python client_hostile_leaks.py MODE``.

It answers ``initialize`` and ``ping``, and on the request ``go``:

- ``flood``: sends ``params.count`` ``sampling/createMessage`` requests at once, reads
  their responses (writing ``refused <n>`` to stderr at each refusal), and answers ``go``
  with how many were answered and how many refused.
- ``stderr``: writes one stderr line of ``params.mib`` MiB, then ``after``, then answers.
- ``deaf``: answers, then never reads stdin again.
- ``fake-ids``: answers with ``"id": true`` and ``"id": <id>.0`` first, then properly.
"""

from __future__ import annotations

import json
import sys
import time


def write(message: object) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def result(request_id: object, value: object) -> None:
    write({"jsonrpc": "2.0", "id": request_id, "result": value})


INITIALIZE_RESULT = {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "hostile", "version": "1"}}


def flood(request_id: object, count: int) -> None:
    for number in range(count):
        write({"jsonrpc": "2.0", "id": f"f-{number}", "method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 1}})
    answered = refused = 0
    while answered + refused < count:
        message = json.loads(sys.stdin.readline())
        if str(message.get("id", "")).startswith("f-"):
            if "error" in message:
                refused += 1
                busy = message["error"]["message"]
                sys.stderr.write(f"refused {refused}\n")
                sys.stderr.flush()
            else:
                answered += 1
    result(request_id, {"answered": answered, "refused": refused, "busy": busy if refused else None})


def main(mode: str) -> None:
    for line in sys.stdin:
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if method is None or request_id is None:
            continue
        if method == "initialize":
            result(request_id, INITIALIZE_RESULT)
        elif method != "go":
            result(request_id, {})
        elif mode == "flood":
            flood(request_id, message["params"]["count"])
        elif mode == "stderr":
            piece = b"x" * (1024 * 1024)
            for _ in range(message["params"]["mib"]):
                sys.stderr.buffer.write(piece)
            sys.stderr.buffer.write(b"\nafter\n")
            sys.stderr.flush()
            result(request_id, {})
        elif mode == "deaf":
            result(request_id, {})
            time.sleep(60)  # the test ends the process long before
            return
        elif mode == "fake-ids":
            write({"jsonrpc": "2.0", "id": True, "result": {"from": "true"}})
            write({"jsonrpc": "2.0", "id": float(request_id), "result": {"from": "float"}})
            result(request_id, {"from": "the real id"})


if __name__ == "__main__":
    main(sys.argv[1])
