"""Reading a Server-Sent Events body from a ``requests`` response.

The parser follows the WHATWG rules for interpreting an event stream
(https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
lines end with CR, LF or CRLF; one leading BOM is dropped; ``data`` lines are joined
with LF; ``id`` (unless it holds NUL) and ``retry`` (ASCII digits only) are kept; comments
and unknown fields are ignored; an event cut off by the end of the stream is discarded.

It is our own rather than sseclient-py's: that one grows its buffers with ``+=``
(quadratic in an event's size), dispatches a trailing
unfinished event, misses a blank line after a line ended differently (``\\n\\r\\n``)
and keeps a BOM. Each byte here is copied a fixed number of times: an unfinished
line is kept as a list of pieces and joined once, when it ends.
"""

from __future__ import annotations

import time
import typing as t

if t.TYPE_CHECKING:
    import requests

_CHUNK = 65536
_BOM = b"\xef\xbb\xbf"
#: The ``retry`` (milliseconds) a longer run of digits stands for: ``int()`` refuses
#: over 4,300 digits, and the reader caps the delay far below this anyway.
_MAX_RETRY = 10**18


class Event(t.NamedTuple):
    """One event: its ``data`` (may be empty), ``id`` and ``retry`` (milliseconds).

    ``id`` and ``retry`` are those the event's own fields set (None: not set).
    """

    data: str
    id: str | None
    retry: int | None


class DeadlineExceeded(Exception):
    """The ``deadline`` given to :func:`events` passed (however busy the stream kept)."""


class EventTooLarge(Exception):
    """One event grew past the ``max_event_bytes`` given to :func:`events` before it ended.

    :param limit: that ``max_event_bytes``.
    """

    def __init__(self, limit: int) -> None:
        super().__init__(f"an SSE event passed {limit} bytes before it ended")
        self.limit = limit


def events(
    response: requests.Response, deadline: float | None = None, max_event_bytes: int | None = None
) -> t.Iterator[Event]:
    """The events of ``response``'s body, each as soon as its closing blank line arrives.

    An event whose ``data`` is empty (a SEP-1699 priming event) is still yielded,
    for its ``id`` and ``retry``; so is one that sets only those (WHATWG does not
    dispatch it, but its ``id`` still becomes the stream's last event ID).

    :param deadline: a ``time.monotonic()`` value: past it, raise
        :class:`DeadlineExceeded` (a stream of comments alone yields no event,
        so the caller could not check it), and no read waits beyond it.
    :param max_event_bytes: raise :class:`EventTooLarge` as soon as an unfinished
        event holds more than this many bytes (its lines so far, comments
        excepted), without reading the rest of it.
    """
    return parse(_chunks(response, deadline), max_event_bytes)


def parse(chunks: t.Iterable[bytes], max_event_bytes: int | None = None) -> t.Iterator[Event]:
    """The events of an event stream given in ``chunks`` (see :func:`events`), in time linear in its size."""
    parser = _Parser(max_event_bytes)
    for chunk in chunks:
        yield from parser.feed(chunk)


def read_pieces(response: requests.Response, deadline: float | None = None) -> t.Iterator[bytes]:
    """``response``'s body, each piece as soon as it arrives (any body, not only an event stream).

    :raises DeadlineExceeded: past ``deadline``; no read waits beyond it.
    """
    return _chunks(response, deadline)


class _Parser:
    """The state of one event stream between two chunks."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        #: The pieces of the line not yet ended, and their size.
        self.partial: list[bytes] = []
        self.partial_size = 0
        #: The last chunk ended with CR: an LF opening the next one belongs to it.
        self.after_cr = False
        self.at_start = True
        #: The event being read: its data lines, id, retry, and the bytes of its lines so far.
        self.data: list[bytes] = []
        self.id: str | None = None
        self.retry: int | None = None
        self.size = 0

    def feed(self, chunk: bytes) -> t.Iterator[Event]:
        if self.after_cr:
            self.after_cr = False
            if chunk[:1] == b"\n":
                chunk = chunk[1:]
        if not chunk:
            return
        lines = chunk.splitlines(True)  # splits at CR, LF and CRLF only (bytes, not str)
        unfinished = lines.pop() if lines[-1][-1:] not in (b"\n", b"\r") else None
        self.after_cr = chunk[-1:] == b"\r"
        for line in lines:
            if self.partial:
                self.partial.append(line)
                line = b"".join(self.partial)
                self.partial.clear()
                self.partial_size = 0
            event = self.line(line)
            if event is not None:
                yield event
        if unfinished is not None:
            self.partial.append(unfinished)
            self.partial_size += len(unfinished)
            self.check()

    def line(self, line: bytes) -> Event | None:
        """Interpret one line (with its line ending); the event it ends, if any."""
        end = len(line) - (2 if line.endswith(b"\r\n") else 1)
        start = 0
        if self.at_start:
            self.at_start = False
            if line.startswith(_BOM):
                start = len(_BOM)
        if end == start:
            return self.dispatch()
        if line[start : start + 1] == b":":
            return None  # a comment
        self.size += len(line)
        self.check()
        colon = line.find(b":", start, end)
        if colon < 0:
            name, value_start = line[start:end], end
        else:
            name, value_start = line[start:colon], colon + 1
            if line[value_start : value_start + 1] == b" ":
                value_start += 1
        if name == b"data":
            self.data.append(line[value_start:end])
        elif name == b"id":
            value = line[value_start:end]
            if b"\0" not in value:
                self.id = value.decode("utf-8", "replace")
        elif name == b"retry":
            value = line[value_start:end]
            if value.isdigit():  # ASCII digits only, for bytes
                self.retry = int(value) if len(value) <= 18 else _MAX_RETRY
        return None  # "event" and unknown fields change nothing we report

    def dispatch(self) -> Event | None:
        data, self.data = self.data, []
        event_id, self.id = self.id, None
        retry, self.retry = self.retry, None
        self.size = 0
        if not data and event_id is None and retry is None:
            return None  # a blank line alone, or one after comments
        return Event(b"\n".join(data).decode("utf-8", "replace"), event_id, retry)

    def check(self) -> None:
        if self.limit is not None and self.size + self.partial_size > self.limit:
            raise EventTooLarge(self.limit)


def _chunks(response: requests.Response, deadline: float | None) -> t.Iterator[bytes]:
    # read1 returns whatever has arrived; requests' own iterator waits for a
    # full chunk_size, which would hold back a short event.
    raw = response.raw
    while True:
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise DeadlineExceeded()
            _cap_read_timeout(response, remaining)
        data = raw.read1(_CHUNK, decode_content=True)
        if not data:
            return
        yield data


def _cap_read_timeout(response: requests.Response, seconds: float) -> None:
    """Make the next socket read of ``response`` wait at most ``seconds`` (never longer than it would)."""
    try:
        connection = response.raw.connection
        sock = connection.sock if connection is not None else None
        if sock is None:
            return
        current = sock.gettimeout()
        if current is None or current > seconds:
            sock.settimeout(seconds)
    except (AttributeError, OSError):
        pass
