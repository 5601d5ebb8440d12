"""The input side of :class:`~mcp_sdk.server.transports.StdioTransport`.

stdin is read in bounded chunks and cut into lines; a line longer than the
limit is skipped up to its newline, never held whole. Only the thread holding
the transport's reader role calls :meth:`LineReader.next_line`. Where stdin can
be polled, a wake-up pipe lets another thread (``close()``, a failed write)
interrupt the wait at once; elsewhere the stop flag is checked every second.
"""

from __future__ import annotations

import logging
import os
import select
import threading
import time
import typing as t

logger = logging.getLogger("mcp_sdk.server.transports.stdio")

#: Bytes asked of stdin per read.
_CHUNK_SIZE = 64 * 1024
#: Seconds between checks of the stop flag while waiting for input.
_WAIT_SLICE = 1.0
_WAIT_SLICE_MS = int(_WAIT_SLICE * 1000)  # poll() takes milliseconds


class LineReader:
    """Lines of a binary stream, for one reading thread at a time.

    :param max_line_bytes: longest line returned; a longer one is skipped.
    :param stop: set when reading should end; :meth:`wake` interrupts a wait for it.
    :param on_too_long: called (on the reading thread) for each line skipped as too long.
    :param before_block: called (on the reading thread) before each wait for more input.
    """

    def __init__(
        self,
        *,
        max_line_bytes: int,
        stop: threading.Event,
        on_too_long: t.Callable[[], None],
        before_block: t.Callable[[], None],
    ) -> None:
        self.max_line_bytes = max_line_bytes
        self._stop = stop
        self._on_too_long = on_too_long
        self._before_block = before_block
        # Guards the wake-up pipe, so that it cannot be closed while written.
        self._lock = threading.Lock()
        self._wake_fds: tuple[int, int] | None = None

        # Touched only by the thread holding the reader role.
        self._read: t.Callable[[int], bytes | None] = lambda size: b""
        self._poller: t.Any = None
        self._fd = -1  # stdin's file descriptor, where it is polled
        # The last chunk read, cut at its newlines in one call: its complete lines (the first
        # already joined to the partial line before it), the next to return, and what follows
        # its last newline (the start of a line still to come).
        self._lines: list[bytes] = []
        self._next = 0
        self._count = 0
        self._rest = b""
        self._partial = b""  # the start of a line whose end has not arrived
        self._skipping = False  # inside an over-long line, discarding up to its newline
        self._eof = False

    def start(self, stdin: t.BinaryIO) -> None:
        """Read ``stdin`` from its start (called before any thread reads)."""
        self._read = getattr(stdin, "read1", None) or stdin.read
        self._lines, self._next, self._count, self._rest = [], 0, 0, b""
        self._partial, self._skipping, self._eof = b"", False, False
        self._poller = self._make_poller(stdin)

    def _make_poller(self, stdin: t.BinaryIO) -> t.Any:
        """A poll object over stdin and a wake-up pipe, or None where stdin cannot be polled.

        Without one, a stop still ends the transport, but the reading thread
        stays blocked in its read until input arrives.
        """
        if not hasattr(select, "poll"):
            return None
        try:
            fd = stdin.fileno()
        except (OSError, ValueError, AttributeError):  # io.BytesIO and friends
            return None
        wake_r, wake_w = os.pipe()
        os.set_blocking(wake_w, False)
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        self._fd = fd
        poller.register(wake_r, select.POLLIN)
        with self._lock:
            self._wake_fds = (wake_r, wake_w)
            if self._stop.is_set():  # stopped before the pipe existed: nobody else will wake it
                self._write_wake()
        return poller

    def wake(self) -> None:
        """Interrupt the reading thread's wait for input (after setting ``stop``)."""
        with self._lock:
            self._write_wake()

    def _write_wake(self) -> None:
        # Called with self._lock held, so the pipe cannot be closed meanwhile.
        if self._wake_fds is not None:
            try:
                os.write(self._wake_fds[1], b"x")
            except OSError:  # already full: the reader is being woken anyway
                pass

    def close(self) -> None:
        """Close the wake-up pipe (once no thread reads any more)."""
        with self._lock:
            if self._wake_fds is not None:
                for fd in self._wake_fds:
                    os.close(fd)
                self._wake_fds = None

    def _read_chunk(self) -> bytes | None:
        """The next bytes of stdin; b"" at its end, None when stopping."""
        poller = self._poller
        while True:
            if poller is not None:
                # The stop flag is looked at only when the poll gives anything but stdin alone
                # (the wake-up pipe, a timeout, an error): stop() writes to that pipe after setting
                # it, and the transport looks at its own flag after every line anyway.
                events = poller.poll(_WAIT_SLICE_MS)
                if len(events) != 1 or events[0][0] != self._fd:
                    if self._stop.is_set():
                        return None
                    continue
            elif self._stop.is_set():
                return None
            try:
                chunk = self._read(_CHUNK_SIZE)
            except (OSError, ValueError) as error:  # stdin closed under us
                logger.debug("stdin read failed: %s", error)
                return b""
            if chunk is not None:
                return chunk
            time.sleep(0.01)  # a non-blocking stream with nothing yet

    def buffered(self) -> bool:
        """Whether input past the last line returned is already read: the reader holds its
        answers back only then (with nothing buffered it would flush them before blocking anyway)."""
        return self._next < self._count or self._rest != b""

    def next_line(self) -> bytes | None:
        """The next complete line (without its newline), or None when input is over or stopping.

        Over-long lines are skipped, the start of a line whose end has not arrived is kept, and
        more is read when the lines already cut run out."""
        while True:
            index = self._next
            if index < self._count:  # the common case: a line of the chunk read last
                self._next = index + 1
                line = self._lines[index]
                if len(line) > self.max_line_bytes:
                    self._on_too_long()
                    continue
                return line
            rest = self._rest
            if rest:
                self._rest = b""
                if not self._skipping:
                    partial = self._partial
                    if len(partial) + len(rest) > self.max_line_bytes:
                        self._on_too_long()
                        self._partial, self._skipping = b"", True
                    else:
                        self._partial = partial + rest if partial else rest
            if self._eof:
                return None
            self._before_block()  # e.g. answers held back go out now
            more = self._read_chunk()
            if more is None:
                return None
            if not more:
                self._eof = True
                if self._partial and not self._skipping:
                    line, self._partial = self._partial, b""
                    return line  # a last line without its newline
                return None
            lines = more.split(b"\n")
            self._rest = lines.pop()
            index = 0
            if lines:
                if self._skipping:  # the end of an over-long line: dropped
                    self._skipping = False
                    index = 1
                elif self._partial:
                    lines[0] = self._partial + lines[0]
                    self._partial = b""
            self._lines, self._next, self._count = lines, index, len(lines)


__all__ = ["LineReader"]
