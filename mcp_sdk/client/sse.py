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


def events(response: requests.Response, deadline: float | None = None) -> t.Iterator[Event]:
    """The events of ``response``'s body, each as soon as its closing blank line arrives.

    An event whose ``data`` is empty (a SEP-1699 priming event) is still yielded,
    for its ``id`` and ``retry``.

    :param deadline: a ``time.monotonic()`` value: past it, raise
        :class:`DeadlineExceeded` (a stream of comments alone yields no event,
        so the caller could not check it), and no read waits beyond it.
    """
    client = sseclient.SSEClient(_chunks(response, deadline))
    for event in client.events():
        yield Event(event.data, event.id, _milliseconds(event.retry))


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


def _milliseconds(value: t.Any) -> int | None:
    if value is None:
        return None
    try:
        retry = int(str(value).strip())
    except ValueError:
        return None
    return retry if retry >= 0 else None
