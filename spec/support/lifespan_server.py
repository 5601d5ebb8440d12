"""A server with a lifespan, run for spec/mcp_sdk/server/lifespan_test.py.

- ``python lifespan_server.py stdio DIR``: on stdio, copying what it reads and writes to
  ``DIR/stdin.jsonl`` and ``DIR/stdout.jsonl``.
- ``gunicorn spec.support.lifespan_server:app`` with ``LIFESPAN_DIR``: a stateless Streamable HTTP
  app (built once, in the master under ``--preload``); each worker writes its exchanges to
  ``DIR/wire-<pid>.jsonl``.

The lifespan appends ``enter <pid>`` and ``exit <pid>`` to ``DIR/lifespan.log``, and yields the
pid and a counter of its entries in the process: the ``state`` tool answers with it.
"""

from __future__ import annotations

import json
import os
import sys
import time
import typing as t
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mcp_sdk import Server  # noqa: E402
from mcp_sdk.server.transports import StdioTransport, StreamableHTTPTransport  # noqa: E402

#: How long ``rendezvous`` waits for the other workers (seconds).
RENDEZVOUS_TIMEOUT = 30.0


def _append(path: Path, line: str) -> None:
    with open(path, "a", encoding="utf-8") as log:
        log.write(line + "\n")


def build(directory: Path) -> Server:
    entries = {"count": 0}

    def lifespan(server: Server) -> t.Iterator[dict[str, t.Any]]:  # a generator function: wrapped for us
        entries["count"] += 1
        _append(directory / "lifespan.log", f"enter {os.getpid()}")
        try:
            yield {"pid": os.getpid(), "server": server.name, "entries": entries["count"]}
        finally:
            _append(directory / "lifespan.log", f"exit {os.getpid()}")

    server = Server(name="lifespan-demo", lifespan=lifespan)

    @server.tool
    def state(server_context: t.Any = None) -> str:
        """What the lifespan yielded, as JSON."""
        return json.dumps(server_context.lifespan, sort_keys=True)

    @server.tool
    def rendezvous(workers: int, server_context: t.Any = None) -> str:
        """Wait until ``workers`` processes run this tool at once; then answer like ``state``."""
        arrivals = directory / "arrivals"
        arrivals.mkdir(exist_ok=True)
        (arrivals / str(os.getpid())).touch()
        deadline = time.monotonic() + RENDEZVOUS_TIMEOUT
        while len(list(arrivals.iterdir())) < workers and time.monotonic() < deadline:
            time.sleep(0.01)
        return json.dumps(server_context.lifespan, sort_keys=True)

    return server


class _TeeReader:
    """stdin, copied to a file as it is read."""

    def __init__(self, stream: t.Any, copy: Path) -> None:
        self.stream = stream
        self.copy = copy

    def fileno(self) -> int:
        return int(self.stream.fileno())

    def read1(self, size: int = -1) -> bytes:
        data: bytes = self.stream.read1(size)
        with open(self.copy, "ab") as copy:
            copy.write(data)
        return data


class _TeeWriter:
    """stdout, copied to a file as it is written."""

    def __init__(self, stream: t.Any, copy: Path) -> None:
        self.stream = stream
        self.copy = copy

    def write(self, data: bytes) -> int:
        with open(self.copy, "ab") as copy:
            copy.write(data)
        return int(self.stream.write(data))

    def flush(self) -> None:
        self.stream.flush()

    def fileno(self) -> int:
        return int(self.stream.fileno())


def _http_app() -> t.Any:
    from spec.support.wire_tap import WireTap

    directory = Path(os.environ["LIFESPAN_DIR"])

    def sink(exchange: t.Any) -> None:
        _append(directory / f"wire-{os.getpid()}.jsonl", json.dumps(exchange._asdict()))

    return WireTap(StreamableHTTPTransport(build(directory), stateless=True), sink)


if __name__ == "__main__":
    out = Path(sys.argv[2])
    transport = StdioTransport(
        build(out), stdin=_TeeReader(sys.stdin.buffer, out / "stdin.jsonl"), stdout=_TeeWriter(sys.stdout.buffer, out / "stdout.jsonl")
    )
    transport.open()
elif "LIFESPAN_DIR" in os.environ:
    app = _http_app()
