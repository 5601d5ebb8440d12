"""The client end of a stdio server subprocess, for tests: write lines, read messages, with timeouts."""

from __future__ import annotations

import json
import pathlib
import queue
import subprocess
import threading
import time
import typing as t

from spec.support.sigint import python_command

SUPPORT = pathlib.Path(__file__).parent
FIXTURE_SERVER = SUPPORT / "stdio_fixture_server.py"
#: Seconds any single wait may take before the test fails.
TIMEOUT = 10.0

_EOF = object()


class StdioPeer:
    """A server subprocess whose stdout and stderr are read by background threads.

    Every stdout line is kept raw in :attr:`stdout_lines` (to check that
    nothing but JSON is written) and parsed into :meth:`recv`'s queue.
    """

    def __init__(self, args: list[str]) -> None:
        self.process = subprocess.Popen(
            python_command(*args), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.stdout_lines: list[bytes] = []
        self.stderr_lines: list[str] = []
        self._messages: queue.Queue[t.Any] = queue.Queue()
        self._stderr_changed = threading.Condition()
        self._threads = [
            threading.Thread(target=self._read_stdout, name="peer-stdout", daemon=True),
            threading.Thread(target=self._read_stderr, name="peer-stderr", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    @classmethod
    def fixture(cls, **options: t.Any) -> StdioPeer:
        """Spawn ``stdio_fixture_server.py`` with these StdioTransport options."""
        return cls([str(FIXTURE_SERVER), json.dumps(options)])

    # -- background readers ---------------------------------------------------

    def _read_stdout(self) -> None:
        stream = t.cast(t.IO[bytes], self.process.stdout)
        for line in iter(stream.readline, b""):
            self.stdout_lines.append(line)
            try:
                self._messages.put(json.loads(line))
            except ValueError:
                self._messages.put(("NOT JSON", line))
        self._messages.put(_EOF)

    def _read_stderr(self) -> None:
        stream = t.cast(t.IO[bytes], self.process.stderr)
        for line in iter(stream.readline, b""):
            with self._stderr_changed:
                self.stderr_lines.append(line.decode("utf-8", "replace").rstrip("\n"))
                self._stderr_changed.notify_all()

    # -- talking ------------------------------------------------------------------

    def send_raw(self, data: bytes) -> None:
        stdin = t.cast(t.IO[bytes], self.process.stdin)
        stdin.write(data)
        stdin.flush()

    def send(self, message: t.Any) -> None:
        self.send_raw(json.dumps(message).encode() + b"\n")

    def recv(self, timeout: float = TIMEOUT) -> t.Any:
        """The next message the server wrote.

        :raises AssertionError: none within ``timeout``, or the server's stdout ended.
        """
        try:
            message = self._messages.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no message from the server within {timeout} s; stderr: {self.stderr_lines}") from None
        if message is _EOF:
            self._messages.put(_EOF)
            raise AssertionError(f"the server's stdout ended; stderr: {self.stderr_lines}")
        return message

    def request(self, request_id: t.Any, method: str, params: t.Any = None) -> t.Any:
        """Send a request and return its response (other messages before it fail the test)."""
        message: dict[str, t.Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        response = self.recv()
        assert response.get("id") == request_id and "method" not in response, response
        return response

    def initialize(self, capabilities: dict[str, t.Any] | None = None) -> dict[str, t.Any]:
        """``initialize`` + ``notifications/initialized``; returns the initialize response."""
        response = self.request(
            0,
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": capabilities or {},
                "clientInfo": {"name": "spec", "version": "1.0"},
            },
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return t.cast("dict[str, t.Any]", response)

    def wait_stderr(self, text: str, timeout: float = TIMEOUT) -> None:
        """Block until a stderr line equals ``text``."""
        deadline = time.monotonic() + timeout
        with self._stderr_changed:
            while text not in self.stderr_lines:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"stderr never said {text!r}: {self.stderr_lines}")
                self._stderr_changed.wait(remaining)

    # -- ending ---------------------------------------------------------------------

    def finish(self, timeout: float = TIMEOUT) -> list[t.Any]:
        """Close stdin (EOF), wait for the exit; return the messages not yet received.

        :raises AssertionError: the process did not exit in time (it is killed).
        """
        self.close_stdin()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"the server did not exit within {timeout} s after EOF") from None
        for thread in self._threads:
            thread.join(timeout)
        rest = []
        while True:
            message = self._messages.get_nowait() if not self._messages.empty() else _EOF
            if message is _EOF:
                break
            rest.append(message)
        self._close_pipes()
        return rest

    def close_stdin(self) -> None:
        stdin = self.process.stdin
        if stdin is not None and not stdin.closed:
            try:
                stdin.close()
            except BrokenPipeError:
                pass

    def kill(self) -> None:
        """Kill the process (if alive) and release everything; safe to call twice."""
        if self.process.poll() is None:
            self.process.kill()
        self.close_stdin()
        self.process.wait(TIMEOUT)
        for thread in self._threads:
            thread.join(TIMEOUT)
        self._close_pipes()

    def _close_pipes(self) -> None:
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None and not stream.closed:
                stream.close()

    def __enter__(self) -> StdioPeer:
        return self

    def __exit__(self, *exc_info: t.Any) -> None:
        self.kill()
