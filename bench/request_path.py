"""How straight a request's way through the package is: ``python bench/request_path.py``.

For one warm 2025-11-25 ``tools/call`` of ``echo``, it counts the package's files the call enters
and the switches between them: a profiler sees every Python function called on every thread
(the transport's pool included), and a *switch* is a call from a function of one package file
into a function of another (calls into the standard library or other packages are not counted,
and the package's caller is the nearest package frame below the call). Three ways in:

- **json**: the WSGI Streamable HTTP transport with ``enable_json_response=True``;
- **sse**: the default transport, the answer an SSE stream (``echo`` takes ``server_context``);
- **stdio**: :class:`~mcp_sdk.server.transports.StdioTransport` on two pipes, in-process.

The figures are exact, not timings: the same tree gives the same counts. ``--files`` prints the
files and how many calls entered each.

    python bench/request_path.py [--tree ../main] [--only json sse stdio] [--files]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import threading
import typing as t

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = ("json", "sse", "stdio")


class PathRecorder:
    """Records, per thread, the package functions called and the file each was called from."""

    def __init__(self, package: str) -> None:
        self.package = os.path.join(os.path.abspath(package), "")
        self.entered: collections.Counter[str] = collections.Counter()
        self.switches = 0
        self.recording = False
        self._lock = threading.Lock()

    def _package_file(self, frame: t.Any) -> str | None:
        while frame is not None:
            filename = frame.f_code.co_filename
            if filename.startswith(self.package):
                return filename
            frame = frame.f_back
        return None

    def __call__(self, frame: t.Any, event: str, arg: t.Any) -> None:
        if event != "call" or not self.recording:
            return
        filename = frame.f_code.co_filename
        if not filename.startswith(self.package):
            return
        caller = self._package_file(frame.f_back)
        with self._lock:
            self.entered[filename] += 1
            if caller is not None and caller != filename:
                self.switches += 1

    def install(self) -> None:
        threading.setprofile(self)
        sys.setprofile(self)

    def start(self) -> None:
        with self._lock:
            self.entered.clear()
            self.switches = 0
        self.recording = True

    def stop(self) -> None:
        self.recording = False

    def report(self) -> dict[str, t.Any]:
        with self._lock:
            return {
                "files": len(self.entered),
                "switches": self.switches,
                "calls": sum(self.entered.values()),
                "entered": {os.path.relpath(name, os.path.dirname(self.package.rstrip(os.sep))): count for name, count in self.entered.most_common()},
            }


def http_call(tree: str, target: str, recorder: PathRecorder) -> None:
    sys.path.insert(0, HERE)
    import http_bench
    from http_instructions import CALL, Driver

    app = http_bench.create_app(target)
    app.first_event_wait = 1.0  # the answer written whole, as under gunicorn
    driver = Driver(app)
    driver.initialize()
    driver.calls(1, 50)  # warm: the pool's threads started, lazy imports done
    recorder.start()
    answer = driver.post(CALL % 1000)
    recorder.stop()
    if b"Hello hi" not in answer:
        raise SystemExit(f"{target}: unexpected answer {answer!r}")
    app.close()


def stdio_call(tree: str, recorder: PathRecorder) -> None:
    from mcp_sdk import Server
    from mcp_sdk.server.transports import StdioTransport

    server = Server(name="bench", version="1.0.0")

    @server.define_tool(name="echo", input_schema={"properties": {"message": {"type": "string"}}, "required": ["message"]})
    def echo(args: dict[str, t.Any]) -> str:
        return f"Hello {args['message']}"

    to_server_read, to_server_write = os.pipe()
    from_server_read, from_server_write = os.pipe()
    stdin, stdout = os.fdopen(to_server_read, "rb", buffering=0), os.fdopen(from_server_write, "wb", buffering=0)
    writer, reader = os.fdopen(to_server_write, "wb", buffering=0), os.fdopen(from_server_read, "rb")
    transport = StdioTransport(server, stdin=stdin, stdout=stdout)
    serving = threading.Thread(target=transport.open, name="request-path-stdio", daemon=True)
    serving.start()

    def ask(message: dict[str, t.Any]) -> dict[str, t.Any] | None:
        writer.write(json.dumps(message).encode() + b"\n")
        return json.loads(reader.readline()) if "id" in message else None

    ask({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
    ask({"jsonrpc": "2.0", "method": "notifications/initialized"})
    call = {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "echo", "arguments": {"message": "hi"}}}
    for number in range(1, 51):
        ask({**call, "id": number})
    recorder.start()
    answer = ask({**call, "id": 1000})
    recorder.stop()
    if answer is None or "Hello hi" not in json.dumps(answer):
        raise SystemExit(f"stdio: unexpected answer {answer!r}")
    writer.close()
    serving.join(timeout=10)


def measure(tree: str, target: str) -> dict[str, t.Any]:
    recorder = PathRecorder(os.path.join(tree, "mcp_sdk"))
    recorder.install()
    if target == "stdio":
        stdio_call(tree, recorder)
    else:
        http_call(tree, target, recorder)
    sys.setprofile(None)
    threading.setprofile(None)  # type: ignore[arg-type]
    return recorder.report()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", default=os.path.dirname(HERE), help="the checkout to measure (default: this one)")
    parser.add_argument("--only", nargs="+", choices=TARGETS, default=list(TARGETS))
    parser.add_argument("--files", action="store_true", help="print the files entered, with their calls")
    parser.add_argument("--child", choices=TARGETS, help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    tree = os.path.abspath(options.tree)
    if options.child:
        sys.path.insert(0, tree)
        print(json.dumps(measure(tree, options.child)))
        return 0
    import subprocess

    for target in options.only:  # each in a fresh process: nothing warm from another target
        env = {**os.environ, "PYTHONPATH": tree}
        output = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--child", target, "--tree", tree], env=env, check=True, capture_output=True, text=True
        ).stdout
        figures = json.loads(output.strip().splitlines()[-1])
        print(f"{target:6s} files entered {figures['files']:3d}   switches between files {figures['switches']:3d}   package calls {figures['calls']:4d}")
        if options.files:
            for name, count in figures["entered"].items():
                print(f"         {count:4d}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
