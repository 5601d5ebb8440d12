"""Reading a Server-Sent Events body from a ``requests`` response, with sseclient-py.

https://html.spec.whatwg.org/multipage/server-sent-events.html
"""

from __future__ import annotations

import time
import typing as t

import sseclient

if t.TYPE_CHECKING:
    import requests

_CHUNK = 65536


class Event(t.NamedTuple):
    """One dispatched event: its ``data`` (may be empty), ``id`` and ``retry`` (milliseconds)."""

    data: str
    id: str | None
    retry: int | None


class DeadlineExceeded(Exception):
    """The ``deadline`` given to :func:`events` passed (however busy the stream kept)."""


class EventTooLarge(Exception):
    """One event grew past the ``max_event_bytes`` given to :func:`events` before it ended."""


def events(
    response: requests.Response, deadline: float | None = None, max_event_bytes: int | None = None
) -> t.Iterator[Event]:
    """The events of ``response``'s body, each as soon as its closing blank line arrives.

    An event whose ``data`` is empty (a SEP-1699 priming event) is still yielded,
    for its ``id`` and ``retry``.

    :param deadline: a ``time.monotonic()`` value: past it, raise
        :class:`DeadlineExceeded` (a stream of comments alone yields no event,
        so the caller could not check it), and no read waits beyond it.
    :param max_event_bytes: raise :class:`EventTooLarge` once an event passes
        this size unfinished (the parser would otherwise buffer it whole).
    """
    chunks = _chunks(response, deadline)
    if max_event_bytes is not None:
        chunks = _bounded(chunks, max_event_bytes)
    client = sseclient.SSEClient(chunks)
    for event in client.events():
        yield Event(event.data, event.id, _milliseconds(event.retry))


def read_pieces(response: requests.Response, deadline: float | None = None) -> t.Iterator[bytes]:
    """``response``'s body, each piece as soon as it arrives (any body, not only an event stream).

    :raises DeadlineExceeded: past ``deadline``; no read waits beyond it.
    """
    return _chunks(response, deadline)


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


_EVENT_ENDS = (b"\n\n", b"\r\r", b"\r\n\r\n")


def _bounded(chunks: t.Iterator[bytes], limit: int) -> t.Iterator[bytes]:
    """Pass ``chunks`` through, raising :class:`EventTooLarge` when an event runs past ``limit`` bytes."""
    unfinished = 0
    tail = b""
    for chunk in chunks:
        # The blank line that ends an event may straddle two chunks: search the previous tail too.
        window = tail + chunk
        end = max(window.rfind(marker) + len(marker) if marker in window else -1 for marker in _EVENT_ENDS)
        unfinished = len(window) - end if end >= 0 else unfinished + len(chunk)
        if unfinished > limit:
            raise EventTooLarge(f"an event passed {limit} bytes without ending")
        tail = window[-3:]
        yield chunk


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


def _milliseconds(value: t.Any) -> int | None:
    if value is None:
        return None
    try:
        retry = int(str(value).strip())
    except ValueError:
        return None
    return retry if retry >= 0 else None
