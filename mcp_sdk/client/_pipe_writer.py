"""Writing to a subprocess's stdin from many threads, without holding a lock while writing.

A caller that finds the pipe idle writes its message itself, with one
non-blocking ``write`` (no thread handoff on the common path). Anything that
cannot go out at once (the pipe is full, or another write is under way) joins
a queue that a named writer thread drains in order, so callers never block on
a server that stops reading: their own waits keep their timeouts. The queue is
bounded in bytes: past it a write waits a few seconds for room, then fails.
"""

from __future__ import annotations

import collections
import os
import select
import sys
import threading
import time
import typing as t

from ..errors import TransportError

_CALLER = "caller"
_THREAD = "thread"
#: Seconds between checks for an abort while the pipe is full.
_SLICE = 0.1
#: Bytes that may wait for a server that stopped reading before writes are refused.
MAX_QUEUED_BYTES = 16 * 1024 * 1024
#: Seconds a write waits for room in a full queue (a slow reader) before it is refused.
_FULL_WAIT = 5.0


class QueueFull(TransportError):
    """The server stopped reading and the queue of unwritten bytes is full (the pipe still works)."""


class PipeWriter:
    """Ordered, thread-safe writes to ``stream`` (a pipe's write end), which it closes at the end.

    :param stream: the binary file object of the pipe.
    :param name: the writer thread's name.
    :param on_error: called (on whichever thread hit it) with the first write error.
    :param max_queued_bytes: bytes that may wait unwritten; a write that would pass it
        raises :class:`~mcp_sdk.TransportError` (one message is always taken when none wait).
    """

    def __init__(
        self,
        stream: t.BinaryIO,
        name: str,
        on_error: t.Callable[[OSError], None],
        max_queued_bytes: int = MAX_QUEUED_BYTES,
    ) -> None:
        self._stream = stream
        self._fd = stream.fileno()
        # Windows cannot poll a pipe: every write goes through the thread, blocking.
        self._direct = sys.platform != "win32"
        if self._direct:
            os.set_blocking(self._fd, False)
        self._on_error = on_error
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._queue: collections.deque[memoryview] = collections.deque()
        self.max_queued_bytes = max_queued_bytes
        self._queued_bytes = 0
        self._owner: str | None = None  # who is writing now
        self._closing = False
        self._aborted = False
        self._error: OSError | None = None
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.thread.start()

    def write(self, data: bytes) -> None:
        """Write ``data`` after everything written before it.

        :raises TransportError: the pipe is closed or broken.
        """
        with self._lock:
            self._check()
            self._wait_for_room(len(data))
            if self._owner is not None or not self._direct:
                self._queued_bytes += len(data)
                self._queue.append(memoryview(data))
                if self._owner is None:
                    self._owner = _THREAD
                    self._changed.notify_all()
                return
            self._owner = _CALLER
        try:
            written = os.write(self._fd, data)
        except BlockingIOError:
            written = 0
        except OSError as error:
            self._fail(error)
            written = len(data)
        with self._lock:
            if written < len(data):
                self._queued_bytes += len(data) - written
                self._queue.appendleft(memoryview(data)[written:])
            if self._queue:
                self._owner = _THREAD
                self._changed.notify_all()
            else:
                self._owner = None
                if self._closing:
                    self._changed.notify_all()
            if self._error is not None:
                raise TransportError(f"writing to the server failed: {self._error}")

    def _wait_for_room(self, size: int) -> None:
        """With the lock held: wait a little while the queue is too full for ``size`` more bytes.

        :raises TransportError: the queue stays full (the server stopped reading).
        """
        deadline = None
        while self._queued_bytes and self._queued_bytes + size > self.max_queued_bytes:
            now = time.monotonic()
            deadline = deadline or now + _FULL_WAIT
            if now >= deadline:
                raise QueueFull(
                    f"the server is not reading its stdin: {self._queued_bytes} bytes have been waiting "
                    f"for {_FULL_WAIT:g} seconds"
                )
            self._changed.wait(deadline - now)
            self._check()

    def close(self) -> None:
        """Write what is queued, then close the pipe (on the writer thread)."""
        with self._lock:
            self._closing = True
            self._changed.notify_all()

    def abort(self) -> None:
        """Give up on what is queued (the reader is dead or stuck) and close the pipe."""
        with self._lock:
            self._closing = self._aborted = True
            self._queue.clear()
            self._queued_bytes = 0
            self._changed.notify_all()

    def _check(self) -> None:
        if self._error is not None:
            raise TransportError(f"writing to the server failed: {self._error}")
        if self._closing:
            raise TransportError("the server's stdin is closed")

    def _fail(self, error: OSError) -> None:
        with self._lock:
            first = self._error is None
            self._error = self._error or error
            self._queue.clear()
            self._queued_bytes = 0
            self._changed.notify_all()
        if first:
            self._on_error(error)

    def _run(self) -> None:
        try:
            while True:
                with self._lock:
                    while (
                        self._owner != _THREAD
                        and not (self._closing and self._owner is None)
                        and self._error is None
                    ):
                        self._changed.wait()
                    if self._owner != _THREAD or self._aborted or self._error is not None:
                        return
                    if not self._queue:
                        self._owner = None
                        continue
                    chunk = self._queue.popleft()
                self._write_all(chunk)
                with self._lock:
                    self._queued_bytes = max(self._queued_bytes - len(chunk), 0)
                    self._changed.notify_all()  # room for a waiting caller
        finally:
            try:
                self._stream.close()
            except OSError:
                pass

    def _write_all(self, chunk: memoryview) -> None:
        """Write all of ``chunk``, unless aborted or the pipe breaks."""
        while chunk:
            if self._aborted:
                return
            try:
                if self._direct:
                    _, ready, _ = select.select([], [self._fd], [], _SLICE)
                    if not ready:
                        continue
                chunk = chunk[os.write(self._fd, chunk):]
            except BlockingIOError:
                continue
            except (OSError, ValueError) as error:
                self._fail(error if isinstance(error, OSError) else OSError(str(error)))
                return
