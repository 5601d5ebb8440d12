"""``StdioTransport.open()`` on a thread, fed through an ``os.pipe()``: for in-process stdio tests."""

from __future__ import annotations

import io
import os
import threading
import typing as t

import pytest

from mcp_sdk import Server
from mcp_sdk.server.transports import StdioTransport

TIMEOUT = 10.0


class Serving:
    """A transport serving ``server`` on a thread; the test writes its stdin and reads ``stdout``."""

    def __init__(self, server: Server, stdout: t.Any, **options: t.Any) -> None:
        read_fd, self._write_fd = os.pipe()
        self.stdin = open(read_fd, "rb")
        self.stdout = stdout
        self.transport = StdioTransport(server, stdin=self.stdin, stdout=self.stdout, **options)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._open, name="spec-stdio-open")
        self.thread.start()

    def _open(self) -> None:
        try:
            self.transport.open()
        except BaseException as error:  # pragma: no cover - reported by the test
            self.error = error

    def write(self, data: bytes) -> None:
        os.write(self._write_fd, data)

    def close_input(self) -> None:
        if self._write_fd >= 0:
            os.close(self._write_fd)
            self._write_fd = -1

    def join(self) -> None:
        """Wait for ``open()`` to return, and fail if it raised."""
        self.thread.join(TIMEOUT)
        assert not self.thread.is_alive(), "open() did not return"
        assert self.error is None, self.error

    def cleanup(self) -> None:
        self.close_input()
        self.transport.close()
        self.thread.join(TIMEOUT)
        self.stdin.close()


def serving_fixture(
    make_server: t.Callable[[], Server], make_stdout: t.Callable[[], t.Any] = io.BytesIO
) -> t.Any:
    """A pytest fixture giving ``start(**transport_options) -> Serving``; every one started is cleaned up."""

    @pytest.fixture
    def serving() -> t.Iterator[t.Callable[..., Serving]]:
        started: list[Serving] = []

        def start(**options: t.Any) -> Serving:
            started.append(Serving(make_server(), make_stdout(), **options))
            return started[-1]

        yield start
        for item in started:
            item.cleanup()

    return serving
