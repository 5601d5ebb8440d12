"""What a real Redis was asked: its ``MONITOR`` feed, read on a raw connection (no client library).

The hostile-input specs use it to show that a value a client sent never reached
Redis (and, as a control, that a valid one did).
"""

from __future__ import annotations

import socket
import time

#: Seconds without a new command after which the feed is taken as read.
QUIET = 0.5
#: Seconds the feed is read at most.
MAX_READ = 10.0


class RedisMonitor:
    """Collects every command the Redis on 127.0.0.1:``port`` runs from now on."""

    def __init__(self, port: int) -> None:
        self._socket = socket.create_connection(("127.0.0.1", port), timeout=5)
        self._socket.sendall(b"MONITOR\r\n")
        self._seen = b""
        self._seen += self._socket.recv(64)
        assert self._seen.startswith(b"+OK"), self._seen

    def commands(self) -> str:
        """The feed so far (each command on a line, its arguments quoted), once Redis went quiet."""
        self._socket.settimeout(QUIET)
        deadline = time.monotonic() + MAX_READ
        while time.monotonic() < deadline:
            try:
                chunk = self._socket.recv(65536)
            except socket.timeout:
                break
            if not chunk:
                break
            self._seen += chunk
        return self._seen.decode("utf-8", errors="replace")

    def close(self) -> None:
        self._socket.close()

    def __enter__(self) -> RedisMonitor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


__all__ = ["RedisMonitor"]
