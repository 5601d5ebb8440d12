"""Client overhead: ``tools/call`` round trips per second through ``mcp_sdk.Client``,
against a raw JSON-RPC driver, on the same server: ``python bench/client_bench.py``.

Both drive this project's server (``bench/_stdio_server.py``'s tool set) in a
child process, one call at a time:

- stdio: the raw driver writes a JSON line to the pipe and reads the answer
  line (``json.dumps`` / ``readline`` / ``json.loads``); the client goes through
  ``Client.call_tool`` over :class:`mcp_sdk.client.Stdio` (writer and reader threads).
- HTTP: the server is StreamableHTTPTransport under waitress;
  the raw driver ``POST``\\ s with a ``requests.Session`` (connection reuse, the
  session headers) and parses the SSE body; the client goes through
  :class:`mcp_sdk.client.HTTP`.

The "modern" rows do the same against a bare MCP 2026-07-28 server
(``bench/_modern_server.py``): the raw driver sends the ``_meta`` envelope (and,
over HTTP, the ``MCP-Protocol-Version``/``Mcp-Method``/``Mcp-Name`` headers)
itself; the client is ``Client.connect(mode="auto")``, which found the server
modern with one ``server/discover``.

Overhead = raw calls per second / client calls per second (1.25 = the client
adds 25 %). Raw and client runs alternate, and each side's best run counts (as
``timeit`` takes the minimum): on a shared machine noise only ever slows a run
down. See bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
import typing as t

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, ROOT)

from _common import LineProcess, Result, run_for, table  # noqa: E402
from _tools import CALL_PARAMS  # noqa: E402

from mcp_sdk import Client  # noqa: E402
from mcp_sdk.client import HTTP, Stdio  # noqa: E402

#: The most overhead the client may add (raw / client calls per second).
TARGET = 1.25
SERVER_SCRIPT = os.path.join(HERE, "_stdio_server.py")
MODERN_SCRIPT = os.path.join(HERE, "_modern_server.py")
ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "mcp_sdk", "version": "bench"},
}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
}


class Run(t.NamedTuple):
    """One measured run: calls per second, and this process's CPU per call (client side)."""

    per_second: float
    cpu_us: float


def measure(duration: float, pid: int, body: t.Callable[[float], int]) -> Run:
    cpu = time.process_time()
    result: Result = run_for(duration, pid, body)
    return Run(result.per_second, (time.process_time() - cpu) / result.calls * 1e6)


def call_message(request_id: int) -> dict[str, t.Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": CALL_PARAMS}


def modern_call_message(request_id: int) -> dict[str, t.Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {**CALL_PARAMS, "_meta": ENVELOPE}}


# -- stdio ---------------------------------------------------------------------


def raw_stdio(child: LineProcess, message: t.Callable[[int], dict[str, t.Any]] = call_message) -> t.Callable[[float], int]:
    def body(deadline: float) -> int:
        write, flush, readline, now = child.write, child.flush, child.readline, time.perf_counter
        dumps, loads = json.dumps, json.loads
        calls = 0
        while now() < deadline:
            calls += 1
            write(dumps(message(calls), separators=(",", ":")).encode() + b"\n")
            flush()
            response = loads(readline())
            assert response["id"] == calls, response
        return calls

    return body


def client_calls(client: Client) -> t.Callable[[float], int]:
    def body(deadline: float) -> int:
        call, now = client.call_tool, time.perf_counter
        calls = 0
        while now() < deadline:
            call(name=CALL_PARAMS["name"], arguments=CALL_PARAMS["arguments"])
            calls += 1
        return calls

    return body


def measure_stdio(duration: float, repeat: int, modern: bool = False) -> tuple[Run, Run]:
    script = MODERN_SCRIPT if modern else SERVER_SCRIPT
    raw = LineProcess([script])
    transport = Stdio(command=sys.executable, args=[script], read_timeout=30)
    client = Client(transport=transport)
    message = modern_call_message if modern else call_message
    try:
        if modern:
            raw.request({"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": {"_meta": ENVELOPE}})
        else:
            raw.request(INITIALIZE)
            raw.notify({"jsonrpc": "2.0", "method": "notifications/initialized"})
        client.connect(mode="auto" if modern else "legacy")
        assert client.era == ("modern" if modern else "legacy"), client.era
        process = transport.process
        assert process is not None
        raw_runs: list[Run] = []
        client_runs: list[Run] = []
        for _ in range(repeat):
            run_for(0.2, raw.pid, raw_stdio(raw, message))
            raw_runs.append(measure(duration, raw.pid, raw_stdio(raw, message)))
            run_for(0.2, process.pid, client_calls(client))
            client_runs.append(measure(duration, process.pid, client_calls(client)))
    finally:
        client.close()
        raw.close()
    return best(raw_runs), best(client_runs)


def best(runs: list[Run]) -> Run:
    """The fastest run, with the lowest CPU per call seen (each a floor the noise cannot fake)."""
    return Run(max(run.per_second for run in runs), min(run.cpu_us for run in runs))


# -- HTTP ----------------------------------------------------------------------


def serve_http(port: int) -> None:
    """The child process: the bench server over Streamable HTTP on 127.0.0.1:``port``, under
    waitress (werkzeug's development server closes every connection, which would measure TCP setup)."""
    import waitress
    from _stdio_server import build_server

    from mcp_sdk.server.transports import StreamableHTTPTransport

    waitress.serve(StreamableHTTPTransport(build_server()), host="127.0.0.1", port=port, threads=8, _quiet=True)


def start_http_server(modern: bool = False, bare_legacy: bool = False) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    if modern or bare_legacy:
        flag = "--http-legacy" if bare_legacy else "--http"
        process = subprocess.Popen([sys.executable, MODERN_SCRIPT, flag, str(port)])
    else:
        process = subprocess.Popen([sys.executable, __file__, "--serve-http", str(port)])
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the HTTP bench server did not start")
            time.sleep(0.05)
    return process, f"http://127.0.0.1:{port}/mcp"


def raw_http(url: str, modern: bool = False) -> tuple[t.Callable[[float], int], t.Callable[[], None]]:
    import requests

    session = requests.Session()
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    message = call_message
    if modern:
        # 2026-07-28: no handshake; the envelope and the standard headers on every request.
        headers.update({"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": CALL_PARAMS["name"]})
        message = modern_call_message
    else:
        answer = session.post(url, data=json.dumps(INITIALIZE), headers=headers)
        headers["Mcp-Session-Id"] = answer.headers["Mcp-Session-Id"]
        headers["MCP-Protocol-Version"] = answer.json()["result"]["protocolVersion"]
        session.post(url, data=json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}), headers=headers)

    def body(deadline: float) -> int:
        post, now, dumps, loads = session.post, time.perf_counter, json.dumps, json.loads
        calls = 0
        while now() < deadline:
            calls += 1
            reply = post(url, data=dumps(message(calls)), headers=headers)
            body = reply.content  # not .text: guessing a charset would dominate the loop
            if reply.headers["Content-Type"].startswith("text/event-stream"):
                # The response is the last event's data.
                data = body[body.rindex(b"data: ") + 6 :].strip()
            else:
                data = body
            assert loads(data)["id"] == calls
        return calls

    def close() -> None:
        if not modern:
            session.delete(url, headers=headers)
        session.close()

    return body, close


def measure_http(duration: float, repeat: int, modern: bool = False) -> tuple[Run, Run]:
    server, url = start_http_server(modern)
    raw_body, raw_close = raw_http(url, modern)
    client = Client(transport=HTTP(url=url, timeout=30))
    try:
        client.connect(mode="auto" if modern else "legacy")
        assert client.era == ("modern" if modern else "legacy"), client.era
        raw_runs: list[Run] = []
        client_runs: list[Run] = []
        for _ in range(repeat):
            run_for(0.2, server.pid, raw_body)
            raw_runs.append(measure(duration, server.pid, raw_body))
            run_for(0.2, server.pid, client_calls(client))
            client_runs.append(measure(duration, server.pid, client_calls(client)))
    finally:
        client.close()
        raw_close()
        server.terminate()
        server.wait(10)
    return best(raw_runs), best(client_runs)


def measure_connect() -> list[list[str]]:
    """``connect()`` against a 2025-11-25-only HTTP server: POSTs sent and milliseconds, in legacy
    mode, then in auto mode a first time (the probe) and a second time (era remembered)."""
    import requests

    class CountingSession(requests.Session):
        posts = 0

        def send(self, request: t.Any, **kwargs: t.Any) -> t.Any:
            if request.method == "POST":
                CountingSession.posts += 1
            return super().send(request, **kwargs)

    server, url = start_http_server(bare_legacy=True)
    rows = []
    try:
        for label, mode in (("legacy", "legacy"), ("auto, first", "auto"), ("auto, second", "auto")):
            session = CountingSession()
            client = Client(transport=HTTP(url=url, timeout=30, session=session, standalone_stream=False))
            CountingSession.posts = 0
            started = time.perf_counter()
            client.connect(mode=mode)
            elapsed = (time.perf_counter() - started) * 1000
            rows.append([label, str(CountingSession.posts), f"{elapsed:.1f} ms", client.protocol_version or ""])
            client.close()
            session.close()
    finally:
        server.terminate()
        server.wait(10)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--duration", type=float, default=1.5, help="seconds per measured run (default 1.5)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure; the best is shown (default 5)")
    parser.add_argument("--only", choices=("stdio", "HTTP", "stdio modern", "HTTP modern"), help="measure one row")
    parser.add_argument("--serve-http", type=int, metavar="PORT", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.serve_http:
        serve_http(options.serve_http)
        return

    rows = []
    missed = []
    for name, measure, modern in (("stdio", measure_stdio, False), ("HTTP", measure_http, False),
                                  ("stdio modern", measure_stdio, True), ("HTTP modern", measure_http, True)):
        if options.only not in (None, name):
            continue
        raw, client = measure(options.duration, options.repeat, modern)
        overhead = raw.per_second / client.per_second
        if overhead > TARGET:
            missed.append(name)
        rows.append(
            [
                name,
                f"{raw.per_second:,.0f}",
                f"{client.per_second:,.0f}",
                f"{overhead:.2f}x",
                f"<= {TARGET:.2f}x",
                f"{raw.cpu_us:.1f} us",
                f"{client.cpu_us:.1f} us",
            ]
        )
    print(f"tools/call round trips, Python {sys.version.split()[0]}, {options.repeat} x {options.duration:g} s runs (best)")
    header = ["transport", "raw driver/s", "Client/s", "overhead", "target", "raw CPU/call", "Client CPU/call"]
    print(table(header, rows))
    print("overhead: raw driver calls per second / Client calls per second (wall clock)")
    print("CPU/call: this process's CPU time per call (all its threads), the client-side cost")
    if missed:
        print(f"over target: {', '.join(missed)}")
    if options.only is None:
        print()
        print("connect() against a 2025-11-25-only HTTP server (POSTs include notifications/initialized)")
        print(table(["mode", "POSTs", "wall time", "version"], measure_connect()))


if __name__ == "__main__":
    main()
