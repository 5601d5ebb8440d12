"""The tool set the benchmarks serve, as plain wire dicts (no mcp_sdk import).

Both the real server and the bare loops build their answers from these, so
every target sends the same bytes.
"""

from __future__ import annotations

import typing as t

#: How many tools ``tools/list`` returns: ``echo`` plus this many minus one fillers.
TOOL_COUNT = 101

ECHO_SCHEMA: dict[str, t.Any] = {
    "type": "object",
    "properties": {"message": {"type": "string"}},
    "required": ["message"],
}
FILLER_SCHEMA: dict[str, t.Any] = {
    "type": "object",
    "properties": {"message": {"type": "string"}, "count": {"type": "integer", "minimum": 0}},
    "required": ["message"],
}


def tool_entries() -> list[dict[str, t.Any]]:
    """The ``tools/list`` entries, in order: ``echo`` first."""
    entries = [{"name": "echo", "description": "Echoes its message", "inputSchema": ECHO_SCHEMA}]
    for number in range(TOOL_COUNT - 1):
        entries.append(
            {
                "name": f"tool_{number:03d}",
                "description": f"Benchmark filler tool number {number}; answers ok",
                "inputSchema": FILLER_SCHEMA,
            }
        )
    return entries


def echo_result(message: str) -> dict[str, t.Any]:
    """What ``echo`` answers."""
    return {"content": [{"type": "text", "text": f"echo: {message}"}], "isError": False}


#: The ``tools/call`` every benchmark sends.
CALL_PARAMS: dict[str, t.Any] = {"name": "echo", "arguments": {"message": "hello"}}
