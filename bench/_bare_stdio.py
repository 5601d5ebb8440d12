"""The baseline: a loop that json.loads each line and json.dumps a canned answer.

No MCP, no threads: the cheapest possible server of the same bytes, to
compare the SDK's stdio server against.
"""

from __future__ import annotations

import json
import sys

from _tools import CALL_PARAMS, echo_result, tool_entries

CANNED = {
    "initialize": {
        "protocolVersion": "2025-11-25",
        "capabilities": {"tools": {"listChanged": True}},
        "serverInfo": {"name": "bench", "version": "1.0.0"},
    },
    "tools/call": echo_result(CALL_PARAMS["arguments"]["message"]),
    "tools/list": {"tools": tool_entries()},
    "ping": {},
}
#: A 2026-07-28 ``tools/call`` (its ``_meta`` envelope read by nobody): the result stamped as the SDK stamps it.
MODERN_CALL = {
    **echo_result(CALL_PARAMS["arguments"]["message"]),
    "_meta": {"io.modelcontextprotocol/serverInfo": CANNED["initialize"]["serverInfo"]},
    "resultType": "complete",
}


def main() -> None:
    out = sys.stdout.buffer
    dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if "id" not in message:
            continue
        params = message.get("params")
        result = MODERN_CALL if params and "_meta" in params else CANNED[message["method"]]
        answer = {"jsonrpc": "2.0", "id": message["id"], "result": result}
        out.write((dumps(answer) + "\n").encode())
        out.flush()


if __name__ == "__main__":
    main()
