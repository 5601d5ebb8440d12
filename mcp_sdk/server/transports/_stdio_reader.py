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
        self._chunk = b""
        self._position = 0
        self._partial = b""  # the start of a line whose end has not arrived
        self._skipping = False  # inside an over-long line, discarding up to its newline
        self._eof = False

    def start(self, stdin: t.BinaryIO) -> None:
        """Read ``stdin`` from its start (called before any thread reads)."""
        self._read = getattr(stdin, "read1", None) or stdin.read
        self._chunk, self._position, self._partial, self._skipping, self._eof = b"", 0, b"", False, False
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
        fd = self._fd
        stop = self._stop
        while not stop.is_set():
            if poller is not None:
                events = poller.poll(_WAIT_SLICE * 1000)
                if len(events) != 1 or events[0][0] != fd:  # woken (or timed out): look at stop
                    continue
            try:
                chunk = self._read(_CHUNK_SIZE)
            except (OSError, ValueError) as error:  # stdin closed under us
                logger.debug("stdin read failed: %s", error)
                return b""
            if chunk is None:  # a non-blocking stream with nothing yet
                time.sleep(0.01)
                continue
            return chunk
        return None

    def buffered(self) -> bool:
        """Whether input past the last line returned is already read: the reader holds its
        answers back only then (with nothing buffered it would flush them before blocking anyway)."""
        return self._position < len(self._chunk)

    def next_line(self) -> bytes | None:
        """The next complete line (without its newline), or None when input is over or stopping."""
        chunk, position, partial, skipping = self._chunk, self._position, self._partial, self._skipping
        limit = self.max_line_bytes
        try:
            while True:
                end = chunk.find(b"\n", position)
                if end >= 0:
                    line = chunk[position:end]
                    position = end + 1
                    if skipping:
                        skipping = False
                        continue
                    if partial:
                        line, partial = partial + line, b""
                    if len(line) > limit:
                        self._on_too_long()
                        continue
                    return line
                rest = chunk[position:]
                if rest and not skipping:
                    if len(partial) + len(rest) > limit:
                        self._on_too_long()
                        partial, skipping = b"", True
                    else:
                        partial = partial + rest if partial else rest
                chunk, position = b"", 0
                if self._eof:
                    return None
                self._before_block()  # e.g. answers held back go out now
                more = self._read_chunk()
                if more is None:
                    return None
                if not more:
                    self._eof = True
                    if partial and not skipping:
                        line, partial = partial, b""
                        return line  # a last line without its newline
                    return None
                chunk = more
        finally:
            self._chunk, self._position, self._partial, self._skipping = chunk, position, partial, skipping


__all__ = ["LineReader"]
