"""The output side of :class:`~mcp_sdk.server.transports.StdioTransport`.

Whole lines only, one writer at a time: a thread with a line to write while
another writes queues it for that writer (group commit), so no thread waits on
another's I/O. The transport's reader holds back its own answers while more
requests are already buffered (``defer``) and has them written together before
it next blocks (:meth:`LineWriter.flush_deferred`).
"""

from __future__ import annotations

import json
import os
import threading
import typing as t

#: Bytes of answers the reader may hold back while more requests are already buffered.
_DEFER_LIMIT = 64 * 1024
#: Bytes of output that may wait for a slow client before writers block.
_OUTPUT_HIGH_WATER = 4 * 1024 * 1024
#: Seconds between checks while a writer waits for a slow client to read.
_WAIT_SLICE = 1.0


class LineWriter:
    """Thread-safe, batched writes of JSON-RPC lines to a binary stream.

    :param on_error: called, once, with the error of the write that found the
        stream gone (EPIPE, closed); every line after it is dropped.
    :param lock: the lock guarding the queue (the owner's, to :meth:`claim` lines under it).
    """

    def __init__(self, on_error: t.Callable[[BaseException], None], lock: threading.Lock | None = None) -> None:
        #: The binary stream written to; lines queued while it is None wait for it.
        self.stream: t.BinaryIO | None = None
        self._on_error = on_error
        # Lines queued for the one thread writing at a time (the lock is never held across I/O).
        # The owner's own lock when it passes one: it can then queue a line (claim()) inside a
        # critical section it needs anyway, one lock round trip fewer.
        self._lock = lock if lock is not None else threading.Lock()
        self._drained = threading.Condition(self._lock)
        self._pending: list[bytes] = []
        self._bytes = 0  # queued or being written
        self._waiters = 0
        self._writing = False
        self._dead = False

    def write_line(self, text: str, message: t.Any, defer: bool = False) -> None:
        """Queue ``text`` (the JSON of ``message``) as one line and write it, unless another thread is writing.

        :param defer: the reader's own answers while it has more requests
            buffered: held back (up to ``_DEFER_LIMIT``) and written together
            by :meth:`flush_deferred` before the reader next blocks, one write for many answers.
        """
        self.write_data(line_bytes(text, message), defer)

    def write_data(self, data: bytes, defer: bool = False) -> None:
        """:meth:`write_line` for a line already made by :func:`line_bytes`."""
        with self._lock:
            claimed = self.claim(data, defer)
        if claimed is not None:
            self.write_claimed(claimed)

    def claim(self, data: bytes, defer: bool = False) -> bytes | list[bytes] | None:
        """Queue ``data`` (a line from :func:`line_bytes`), called with the lock given to the
        constructor held (its own otherwise: only :meth:`write_line` then calls it); returns
        what this thread must now write with :meth:`write_claimed` (after releasing the lock), or
        None when another thread (or :meth:`flush_deferred`) writes it. See :meth:`write_line`."""
        size = len(data)
        queued = self._bytes + size
        if queued > _OUTPUT_HIGH_WATER and self._bytes:
            queued = self._wait_for_room(size)
        if self._dead:
            return None
        pending = self._pending
        self._bytes = queued
        if self._writing or (defer and queued < _DEFER_LIMIT) or self.stream is None:
            pending.append(data)
            return None  # the thread writing now (or the reader, before it blocks) writes it
        self._writing = True  # this thread writes the queue (as _take_pending would give it)
        if pending:
            pending.append(data)
            self._pending = []
            return pending
        return data  # the usual case, nothing else queued: this line alone, without a batch list

    def _wait_for_room(self, size: int) -> int:
        """Wait while the client is not reading, rather than buffer without bound; returns the
        bytes queued with ``size`` more. Called with self._lock held."""
        while self._bytes and self._bytes + size > _OUTPUT_HIGH_WATER and not self._dead:
            self._waiters += 1
            try:
                self._drained.wait(_WAIT_SLICE)
            finally:
                self._waiters -= 1
        return self._bytes + size

    def flush_deferred(self) -> None:
        """Write the lines held back, unless another thread is writing (it takes them)."""
        if not self._pending:
            # Read without the lock: lines are held back only by the thread that flushes them
            # (the reader, see write_line's defer); any other queued line has a writer taking it.
            return
        with self._lock:
            if self._writing:
                return
            batch = self._take_pending()
        if batch is not None:
            self.write_claimed(batch)

    def _take_pending(self) -> list[bytes] | None:
        """The queued lines, for this thread to write (it is the writer until it finds none
        left); None when there are none or no stream yet. Called with self._lock held."""
        batch = self._pending
        if not batch or self.stream is None:
            self._writing = False
            return None
        self._pending = []
        self._writing = True
        return batch

    def write_claimed(self, claimed: bytes | list[bytes]) -> None:
        """Write what :meth:`claim` (or :meth:`_take_pending`) gave this thread, then lines queued
        meanwhile, until none are left (without the lock).

        One thread at a time writes; others queue their lines and return
        (group commit), so threads never wait on each other's I/O.
        """
        out: t.Any = self.stream  # set: neither claim() nor _take_pending gives a batch without it
        lock = self._lock
        batch: bytes | list[bytes] | None = claimed
        while batch is not None:
            if isinstance(batch, bytes):  # one line claim() gave, the usual case
                data = batch
            else:
                data = batch[0] if len(batch) == 1 else b"".join(batch)
            written = len(data)
            try:
                out.write(data)
                out.flush()
            except (OSError, ValueError) as error:  # the client went away (EPIPE) or stdout closed
                self._failed(error)
                return
            with lock:
                self._bytes -= written
                if self._waiters:
                    self._drained.notify_all()
                batch = self._take_pending()

    def _failed(self, error: BaseException) -> None:
        """The stream is gone: drop every line from now on and say so (once)."""
        with self._lock:
            self._dead = True
            self._writing = False
            self._pending = []
            self._bytes = 0
            self._drained.notify_all()
        self._on_error(error)


def line_bytes(text: str, message: t.Any) -> bytes:
    """The line to write for ``text``, the JSON of ``message``: UTF-8 and a newline."""
    try:
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: JSON can still carry it escaped
        return (json.dumps(message, separators=(",", ":")) + "\n").encode("ascii")


def discard_output(stream: t.Any) -> None:
    """Point the file descriptor under ``stream`` (the process's ``sys.stdout``, whose reader went
    away) at /dev/null, so that the interpreter's final flush does not fail again (Python's
    documented SIGPIPE recipe)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


__all__ = ["LineWriter", "discard_output", "line_bytes"]
