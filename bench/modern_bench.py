"""Server CPU per ``tools/call``: a 2026-07-28 request against the same call in a 2025 session.

    python bench/modern_bench.py [--duration 1.5] [--rounds 3] [--only stdio|http]

The same server process answers both eras, the two taking turns run by run:

- **stdio**: ``_stdio_server.py`` (101 tools); one ``initialize`` opens the 2025 session, then
  sequential ``tools/call`` (``echo``) either plain (2025) or with the ``_meta`` envelope
  (2026-07-28: envelope read, result stamped with ``resultType`` and ``serverInfo``).
- **http**: ``http_bench.py``'s waitress server (16 threads), JSON mode and the default (SSE
  where a tool may talk first); one kept-alive client, either in a session (``Mcp-Session-Id``)
  or sending 2026-07-28 requests (envelope + ``MCP-Protocol-Version``, ``Mcp-Method``,
  ``Mcp-Name`` headers, no session).

Reports calls/s and the server process's CPU per call (best of ``--rounds``), and the ratio
2026 / 2025 of CPU per call. Target: at most 1.2x. See bench/README.md.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import sys
import time
import typing as t

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from _common import LineProcess, Result, best_result, cpu_seconds, run_for, table  # noqa: E402
from _tools import CALL_PARAMS  # noqa: E402
from http_bench import ACCEPT, CALL, ServerProcess  # noqa: E402
from stdio_bench import sequential  # noqa: E402

MODERN = "2026-07-28"
TARGET = 1.2
ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
}
ERAS = ("2025 session", "2026-07-28")


def call_message(era: str, params: dict[str, t.Any]) -> dict[str, t.Any]:
    if era == MODERN:
        params = {**params, "_meta": ENVELOPE}
    return {"jsonrpc": "2.0", "id": 0, "method": "tools/call", "params": params}


# -- stdio ---------------------------------------------------------------------------


def stdio_calls(child: LineProcess, era: str) -> t.Callable[[float], int]:
    return sequential(child, "tools/call", call_message(era, CALL_PARAMS)["params"])


def measure_stdio(duration: float, rounds: int) -> dict[str, Result]:
    child = LineProcess([os.path.join(HERE, "_stdio_server.py")])
    try:
        params = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
        assert "result" in child.request({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": params})
        child.notify({"jsonrpc": "2.0", "method": "notifications/initialized"})
        for era in ERAS:  # both eras answer the same call
            answer = child.request(call_message(MODERN if era == MODERN else era, CALL_PARAMS))
            assert answer["result"]["content"] == [{"type": "text", "text": "echo: hello"}], answer
            assert ("resultType" in answer["result"]) == (era == MODERN), answer
        runs: dict[str, list[Result]] = {era: [] for era in ERAS}
        for _ in range(rounds):
            for era in ERAS:
                run_for(0.2, child.pid, stdio_calls(child, era))  # warm up
                runs[era].append(run_for(duration, child.pid, stdio_calls(child, era)))
    finally:
        code = child.close()
    if code:
        raise SystemExit(f"the stdio server exited with {code}")
    return {era: best_result(results) for era, results in runs.items()}


# -- HTTP ----------------------------------------------------------------------------


class HTTPClient:
    """One kept-alive connection, in a 2025 session or sending 2026-07-28 requests."""

    def __init__(self, port: int, era: str) -> None:
        self.http = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.headers = {"Accept": ACCEPT, "Content-Type": "application/json"}
        self.message = call_message(era, CALL)
        if era == MODERN:
            self.headers.update({"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": CALL["name"]})
            return
        params = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
        status, headers, _ = self.post({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": params})
        assert status == 200, status
        self.headers.update({"Mcp-Session-Id": headers["Mcp-Session-Id"], "MCP-Protocol-Version": "2025-11-25"})
        assert self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})[0] == 202

    def post(self, message: dict[str, t.Any]) -> tuple[int, t.Any, bytes]:
        self.http.request("POST", "/", json.dumps(message).encode(), self.headers)
        response = self.http.getresponse()
        return response.status, response.headers, response.read()

    def calls(self, deadline: float) -> int:
        message, calls, now = self.message, 0, time.perf_counter
        while now() < deadline:
            message["id"] = calls
            self.post(message)
            calls += 1
        return calls

    def close(self) -> None:
        self.http.close()


def measure_http(mode: str, duration: float, rounds: int) -> dict[str, Result]:
    server = ServerProcess("waitress", mode)
    clients = {era: HTTPClient(server.port, era) for era in ERAS}
    try:
        for era, client in clients.items():
            status, _, body = client.post(client.message)
            assert status == 200 and b'"Hello hi"' in body and (b'"resultType"' in body) == (era == MODERN), (era, status, body)
        runs: dict[str, list[Result]] = {era: [] for era in ERAS}
        pid = server.worker_pid
        for _ in range(rounds):
            for era, client in clients.items():
                run_for(0.2, pid, client.calls)
                runs[era].append(run_for(duration, pid, client.calls))
    finally:
        for client in clients.values():
            client.close()
        server.stop()
    return {era: best_result(results) for era, results in runs.items()}


# -- main ----------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=1.5, help="seconds per run")
    parser.add_argument("--rounds", type=int, default=3, help="runs per figure (the best counts)")
    parser.add_argument("--only", choices=["stdio", "http"])
    args = parser.parse_args(argv)
    if cpu_seconds(os.getpid()) is None:
        raise SystemExit("needs Linux /proc to read the server's CPU time")

    figures: dict[str, dict[str, Result]] = {}
    if args.only in (None, "stdio"):
        figures["stdio"] = measure_stdio(args.duration, args.rounds)
    if args.only in (None, "http"):
        figures["HTTP json"] = measure_http("json", args.duration, args.rounds)
        figures["HTTP sse"] = measure_http("sse", args.duration, args.rounds)

    rows = []
    missed = []
    for transport, results in figures.items():
        legacy, modern = results[ERAS[0]], results[ERAS[1]]
        assert legacy.cpu_us_per_call is not None and modern.cpu_us_per_call is not None
        ratio = modern.cpu_us_per_call / legacy.cpu_us_per_call
        verdict = "ok" if ratio <= TARGET else "MISSED"
        if verdict == "MISSED":
            missed.append(transport)
        rows.append(
            [
                transport,
                f"{legacy.per_second:,.0f}",
                f"{modern.per_second:,.0f}",
                f"{legacy.cpu_us_per_call:.1f} us",
                f"{modern.cpu_us_per_call:.1f} us",
                f"{ratio:.2f}x",
                f"<= {TARGET}x {verdict}",
            ]
        )
    print(f"tools/call, 2025 session vs 2026-07-28, Python {sys.version.split()[0]}, best of {args.rounds} x {args.duration:g} s")
    header = ["transport", "2025 calls/s", "2026 calls/s", "2025 CPU/call", "2026 CPU/call", "2026/2025", "target"]
    print(table(header, rows))
    if missed:
        print("missed: " + ", ".join(missed))
    return 0  # a benchmark reports; it does not fail on speed


if __name__ == "__main__":
    sys.exit(main())
