"""Real HTTP servers for the Streamable HTTP tests, on 127.0.0.1.

- :class:`LiveServer` serves a WSGI app with werkzeug's threaded server on a
  background thread (port 0: the OS picks a free one).
- :class:`ServerProcess` runs a server command (waitress, gunicorn, Django) as a
  subprocess on a free port and stops it.

Both stop cleanly (sockets closed, threads and processes ended), so the suite's
``filterwarnings = error`` sees no ``ResourceWarning``.
"""

from __future__ import annotations

import os
import pathlib
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import typing as t

from werkzeug.serving import BaseWSGIServer, make_server

#: The repository root (examples/ lives there).
ROOT = pathlib.Path(__file__).resolve().parents[2]
#: Seconds a server gets to start or stop.
START_TIMEOUT = 20.0


class LiveServer:
    """A WSGI app on ``http://127.0.0.1:<port>``, served by werkzeug's threaded server.

    Use as a context manager; :meth:`stop` shuts the server down and closes ``closeables``
    (the transport) first, so its open SSE responses end and their threads exit.
    """

    def __init__(self, app: t.Callable[..., t.Any], path: str = "/mcp", closeables: t.Sequence[t.Any] = ()) -> None:
        self.httpd: BaseWSGIServer = make_server("127.0.0.1", 0, app, threaded=True)
        self.port = self.httpd.server_port
        self.base = f"http://127.0.0.1:{self.port}"
        self.url = self.base + path
        self.closeables = list(closeables)
        self._thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="live-server", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        for closeable in self.closeables:
            closeable.close()
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(START_TIMEOUT)

    def __enter__(self) -> LiveServer:
        return self

    def __exit__(self, *exc_info: t.Any) -> None:
        self.stop()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen[bytes] | None = None, timeout: float = START_TIMEOUT) -> None:
    """Block until 127.0.0.1:``port`` accepts connections.

    :raises RuntimeError: the process exited or the port stayed closed.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listening on port {port} after {timeout} s")


class ServerProcess:
    """A server command run as a subprocess (``{port}`` in ``command`` is replaced by a free port).

    Its stderr is kept in a temporary file, shown when startup fails.
    """

    def __init__(self, command: t.Sequence[str], cwd: pathlib.Path = ROOT, path: str = "/mcp", env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.url = self.base + path
        self.command = [part.replace("{port}", str(self.port)) for part in command]
        environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]), **(env or {})}
        self._stderr = tempfile.TemporaryFile()  # a file, not a pipe: a chatty server never blocks on it
        self.process = subprocess.Popen(
            self.command, cwd=cwd, env=environment, stdout=subprocess.DEVNULL, stderr=self._stderr
        )
        try:
            wait_for_port(self.port, self.process)
        except RuntimeError as error:
            output = self._terminate()
            raise RuntimeError(f"{' '.join(self.command)}: {error}\n{output}") from None

    def _terminate(self) -> str:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=START_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=START_TIMEOUT)
        if self._stderr.closed:
            return ""
        self._stderr.seek(0)
        output = self._stderr.read().decode(errors="replace")[-4000:]
        self._stderr.close()
        return output

    def stop(self) -> str:
        """Stop the server; returns the end of its stderr."""
        return self._terminate()

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc_info: t.Any) -> None:
        self.stop()


PYTHON = sys.executable

__all__ = ["LiveServer", "PYTHON", "ROOT", "ServerProcess", "free_port", "wait_for_port"]
