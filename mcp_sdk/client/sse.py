"""Reading a Server-Sent Events body from a ``requests`` response, with sseclient-py.

https://html.spec.whatwg.org/multipage/server-sent-events.html
"""

from __future__ import annotations

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


def events(response: requests.Response) -> t.Iterator[Event]:
    """The events of ``response``'s body, each as soon as its closing blank line arrives.

    An event whose ``data`` is empty (a SEP-1699 priming event) is still yielded,
    for its ``id`` and ``retry``.
    """
    client = sseclient.SSEClient(_chunks(response))
    for event in client.events():
        yield Event(event.data, event.id, _milliseconds(event.retry))


def _chunks(response: requests.Response) -> t.Iterator[bytes]:
    # read1 returns whatever has arrived; requests' own iterator waits for a
    # full chunk_size, which would hold back a short event.
    raw = response.raw
    while True:
        data = raw.read1(_CHUNK, decode_content=True)
        if not data:
            return
        yield data


def _milliseconds(value: t.Any) -> int | None:
    if value is None:
        return None
    try:
        retry = int(str(value).strip())
    except ValueError:
        return None
    return retry if retry >= 0 else None
