"""CPU instructions per Streamable HTTP ``tools/call``, in-process, counted by valgrind: ``python bench/http_instructions.py``.

The steady measure of the HTTP transport's Python per call (bench/README.md, issue 24): wall
figures under gunicorn move with the machine's load; instruction counts do not (about 0.5 %).
Each figure is the difference between two runs, one of ``--calls`` calls and one of three times
as many, divided by the extra calls, so start-up cancels out. Needs ``valgrind`` on PATH.

The calls go straight through the WSGI application, without sockets: an environ as gunicorn
builds it (its socket in ``gunicorn.socket``, so the body's deadline is watched as there), a
2025-11-25 session, ``echo`` called with a new id each time, the body iterated and closed as a
WSGI server does. Three targets, from ``http_bench.create_app`` of the checkout measured:

- **sse**: the default transport: ``echo`` takes ``server_context``, so each call runs on the
  transport's worker pool and is answered with an SSE stream (priming event + answer), written
  whole with a ``Content-Length`` (``first_event_wait`` is raised to 1 s here: under valgrind the
  pool thread needs longer than the 10 ms it gets under gunicorn to finish the tool);
- **json**: ``enable_json_response=True``: the same call answered with JSON on the calling thread;
- **bare**: ``http_bench.bare_app``, the floor (reads the body, answers canned JSON).

``--profile`` runs the calls under ``cProfile`` instead (each thread its own profiler, the
pool's included; figures added up), without valgrind, and prints the functions by own time.

    python bench/http_instructions.py [--tree ../main] [--calls 300] [--only sse json bare]
    python bench/http_instructions.py --profile sse [--calls 20000]
"""

from __future__ import annotations

import argparse
import io
import os
import re
import socket
import subprocess
import sys
import tempfile
import typing as t

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = ("sse", "json", "bare")
ACCEPT = "application/json, text/event-stream"
CLIENT = b'{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}'
INITIALIZE = b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":' + CLIENT + b"}"
INITIALIZED = b'{"jsonrpc":"2.0","method":"notifications/initialized"}'
CALL = b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}'


# -- the child: calls through the WSGI app ---------------------------------------


class Driver:
    """Calls ``app`` as gunicorn's gthread worker would, one request after another."""

    def __init__(self, app: t.Any) -> None:
        self.app = app
        self.sock, self._peer = socket.socketpair()  # gunicorn.socket: the body deadline watches it
        self.headers: list[tuple[str, str]] = []
        self.base = {
            "REQUEST_METHOD": "POST",
            "SCRIPT_NAME": "",
            "PATH_INFO": "/",
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "SERVER_SOFTWARE": "gunicorn/23.0.0",
            "REMOTE_ADDR": "127.0.0.1",
            "REMOTE_PORT": "50000",
            "RAW_URI": "/",
            "CONTENT_TYPE": "application/json",
            "HTTP_HOST": "127.0.0.1:8000",
            "HTTP_ACCEPT": ACCEPT,
            "HTTP_ACCEPT_ENCODING": "identity",
            "HTTP_CONNECTION": "keep-alive",
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "http",
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": True,
            "wsgi.multiprocess": False,
            "wsgi.run_once": False,
            "wsgi.input_terminated": True,
            "gunicorn.socket": self.sock,
        }

    def start_response(self, status: str, headers: list[tuple[str, str]], exc_info: t.Any = None) -> None:
        self.status = status
        self.headers = headers

    def post(self, body: bytes) -> bytes:
        environ = dict(self.base)
        environ["CONTENT_LENGTH"] = str(len(body))
        environ["wsgi.input"] = io.BytesIO(body)
        answer = self.app(environ, self.start_response)
        try:
            return b"".join(answer)
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()

    def initialize(self) -> None:
        self.post(INITIALIZE)
        session = dict(self.headers).get("Mcp-Session-Id")
        if session is None:
            raise SystemExit(f"no session: {self.status} {self.headers}")
        self.base["HTTP_MCP_SESSION_ID"] = session
        self.base["HTTP_MCP_PROTOCOL_VERSION"] = "2025-11-25"
        self.post(INITIALIZED)

    def calls(self, first: int, count: int) -> bytes:
        post, call = self.post, CALL
        answer = b""
        for number in range(first, first + count):
            answer = post(call % number)
        return answer


def child(tree: str, target: str, calls: int) -> int:
    sys.path.insert(0, os.path.join(tree, "bench"))
    import http_bench

    app = http_bench.create_app(target)
    import mcp_sdk

    if not os.path.abspath(mcp_sdk.__file__).startswith(os.path.join(tree, "")):
        raise SystemExit(f"mcp_sdk came from {mcp_sdk.__file__}, not {tree}")
    if target != "bare":
        app.first_event_wait = 1.0
    driver = Driver(app)
    if target != "bare":
        driver.initialize()
    last = driver.calls(1, calls)
    expected = b"text/event-stream" if target == "sse" else b"application/json"
    if expected.decode() not in dict(driver.headers).get("Content-Type", "") or b"Hello hi" not in last:
        raise SystemExit(f"{target}: unexpected answer {driver.status} {driver.headers} {last!r}")
    if target == "sse" and "Content-Length" not in dict(driver.headers):
        raise SystemExit("sse: the answer was streamed, not written whole: raise first_event_wait")
    if target != "bare":
        app.close()
    return 0


def profile(tree: str, target: str, calls: int, top: int) -> int:
    import cProfile
    import pstats
    import threading

    profiles: list[cProfile.Profile] = []

    def per_thread(frame: t.Any, event: str, arg: t.Any) -> None:  # a new thread's first event: its own profiler
        profiler = cProfile.Profile()
        profiles.append(profiler)
        sys.setprofile(None)
        profiler.enable()

    threading.setprofile(per_thread)  # before the app starts any thread
    sys.path.insert(0, os.path.join(tree, "bench"))
    import http_bench

    app = http_bench.create_app(target)
    driver = Driver(app)
    if target != "bare":
        driver.initialize()
    driver.calls(1, 200)  # warm: threads started, lazy imports done
    for other in profiles:
        other.clear()
    main = cProfile.Profile()
    main.enable()
    driver.calls(1000, calls)
    main.disable()
    stats = pstats.Stats(main)
    for other in profiles:
        other.create_stats()
        if other.stats:  # a thread that ran nothing since the warm-up (the body deadline's)
            stats.add(other)
    stats.sort_stats("tottime").print_stats(top)
    if target != "bare":
        app.close()
    return 0


# -- the parent: valgrind runs ---------------------------------------------------


def instructions(tree: str, target: str, calls: int, log: str) -> int:
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", f"--log-file={log}",
        sys.executable, os.path.abspath(__file__), "--child", target, "--tree", tree, "--calls", str(calls),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": tree}
    subprocess.run(command, env=env, check=True)
    with open(log) as file:
        match = re.search(r"Collected : (\d+)", file.read())
    if match is None:
        raise SystemExit(f"valgrind wrote no instruction count to {log}")
    return int(match.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", default=os.path.dirname(HERE), help="the checkout whose transport to count")
    parser.add_argument("--calls", type=int, default=300, help="calls in the shorter run (the longer: three times as many)")
    parser.add_argument("--only", nargs="+", choices=TARGETS, default=list(TARGETS))
    parser.add_argument("--profile", choices=TARGETS, help="cProfile this target instead (no valgrind)")
    parser.add_argument("--top", type=int, default=40, help="functions --profile prints")
    parser.add_argument("--child", choices=TARGETS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    tree = os.path.abspath(args.tree)
    if args.child:
        return child(tree, args.child, args.calls)
    if args.profile:
        sys.path.insert(0, tree)
        return profile(tree, args.profile, args.calls, args.top)
    short, long = args.calls, 3 * args.calls
    print(f"instructions per HTTP tools/call (valgrind, in-process), {tree}; {long} - {short} calls")
    with tempfile.TemporaryDirectory() as scratch:
        log = os.path.join(scratch, "valgrind.log")
        for target in args.only:
            extra = instructions(tree, target, long, log) - instructions(tree, target, short, log)
            print(f"{target:5s} {extra / (long - short):9,.0f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
