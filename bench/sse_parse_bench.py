"""How long the HTTP client transport takes to read one large response, and its peak memory.

    .venv/bin/python bench/sse_parse_bench.py                    # about 20 s (minutes with a quadratic parser)
    .venv/bin/python bench/sse_parse_bench.py --sizes 10 20 --shapes sse

This process serves the bodies on 127.0.0.1 (``spec.support.client_http_server``); each
measurement runs in a child process of its own, which sends one request through
``mcp_sdk.client.HTTP.send_request`` and reports the wall time of that call and its peak
RSS (``ru_maxrss``) above what it held before, so the server's copy of the body is not
counted. Shapes of the answer (a JSON-RPC response of about N MiB):

- **sse**: one SSE event, its data one line (a string of N MiB in the result);
- **sse-lines**: one SSE event whose data is spread over 16 KiB ``data:`` lines;
- **json**: an ``application/json`` body, chunked (no ``Content-Length``);
- **json-length**: the same with ``Content-Length``.

Sizes past ``max_message_bytes`` (64 MiB by default) time the refusal instead, and the
server counts the bytes it managed to send before the client hung up. Not a test: it never
fails; ``spec/mcp_sdk/client/sse_test.py`` guards the complexity.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import resource
import subprocess
import sys
import threading
import time
import typing as t

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _common import table  # noqa: E402

MIB = 1024 * 1024
#: Seconds one measurement may take before it is reported as a timeout.
CHILD_TIMEOUT = 120.0
_LINE = 16 * 1024
_PIECE = 64 * 1024


def body_pieces(shape: str, mib: int) -> t.Iterator[bytes]:
    """The body of ``shape``, about ``mib`` MiB, in pieces (never held whole)."""
    size = mib * MIB
    if shape == "sse-lines":
        line = b'data: "' + b"x" * (_LINE - 10) + b'",\n'
        yield b'data: {"jsonrpc": "2.0", "id": 1, "result": {"lines": [\n'
        for _ in range(size // _LINE):
            yield line
        yield b'data: ""]}}\n\n'
        return
    head = b'{"jsonrpc": "2.0", "id": 1, "result": {"text": "'
    tail = b'"}}'
    if shape == "sse":
        head, tail = b"data: " + head, tail + b"\n\n"
    yield head
    piece = b"x" * _PIECE
    for _ in range(size // _PIECE):
        yield piece
    yield tail


def serve(sent: dict[str, int]) -> t.Any:
    from spec.support.client_http_server import Reply, Request, ScriptedServer

    def handler(request: Request) -> Reply:
        _, _, query = request.path.partition("?")
        shape, mib = query.split(",")
        content_type = "text/event-stream" if shape.startswith("sse") else "application/json"
        sent["bytes"] = 0

        def counted() -> t.Iterator[bytes]:
            for piece in body_pieces(shape, int(mib)):
                sent["bytes"] += len(piece)
                yield piece

        if shape == "json-length":
            return Reply(200, {"Content-Type": content_type}, b"".join(body_pieces(shape, int(mib))))
        return Reply(200, {"Content-Type": content_type}, counted())

    return ScriptedServer(handler)


def child(url: str) -> None:
    """Send one request to ``url`` and print what it cost, as JSON."""
    from mcp_sdk.client import HTTP
    from mcp_sdk.errors import MCPError

    transport = HTTP(url=url, timeout=CHILD_TIMEOUT, standalone_stream=False)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    outcome: dict[str, t.Any] = {}
    try:
        response = transport.send_request({"jsonrpc": "2.0", "id": 1, "method": "ping"})
        result = response["result"]
        outcome["chars"] = len(result["text"]) if "text" in result else sum(map(len, result["lines"]))
    except MCPError as error:
        outcome["error"] = str(error)
    outcome["seconds"] = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    outcome["peak_mib"] = peak / 1024
    outcome["added_mib"] = (peak - before) / 1024
    transport.close()
    print(json.dumps(outcome))


def measure(url: str, shape: str, mib: int, sent: dict[str, int]) -> list[str]:
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--child", f"{url}?{shape},{mib}"],
            capture_output=True,
            timeout=CHILD_TIMEOUT + 10,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return [shape, str(mib), f"> {CHILD_TIMEOUT:.0f} s", "", "", f"sent {sent.get('bytes', 0) / MIB:.0f} MiB"]
    outcome = json.loads(done.stdout)
    if "error" in outcome:
        error = outcome["error"].replace(f"{url}?{shape},{mib}", "URL")
        what = f"refused after {sent['bytes'] / MIB:.1f} MiB sent: {error[:72]}..."
    else:
        what = f"ok, {outcome['chars'] / MIB:.0f} Mi chars"
    return [shape, str(mib), f"{outcome['seconds']:.2f} s", f"{outcome['peak_mib']:.0f} MiB", f"{outcome['added_mib']:.0f} MiB", what]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 40, 60, 100], help="MiB")
    parser.add_argument("--shapes", nargs="+", default=["sse", "sse-lines", "json", "json-length"])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        child(options.child)
        return
    sent: dict[str, int] = {}
    rows = []
    with serve(sent) as server:
        for shape in options.shapes:
            for mib in options.sizes:
                rows.append(measure(server.url, shape, mib, sent))
                print(table(["shape", "MiB", "time", "peak RSS", "RSS added", "outcome"], rows[-1:]).splitlines()[-1], flush=True)
    print()
    print(table(["shape", "MiB", "time", "peak RSS", "RSS added", "outcome"], rows))


if __name__ == "__main__":
    threading.current_thread().name = "bench"
    main()
