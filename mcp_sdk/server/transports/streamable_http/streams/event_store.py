"""Where a Streamable HTTP session keeps the SSE events it sent, so a client can resume.

A client that lost an SSE connection (or whose connection the server closed on
purpose, SEP-1699 polling) sends ``GET`` with ``Last-Event-ID``; the transport
asks the session's :class:`EventStore` for what followed that event on the same
stream and sends it, then continues live.
https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery
"""

from __future__ import annotations

import collections
import functools
import math
import threading
import time
import typing as t

from ..... import json_rpc

#: ``send(event_id, message)``: one replayed event; ``message`` is None for a priming event.
ReplaySend = t.Callable[[str, t.Optional[t.Dict[str, t.Any]]], None]


class EventStore:
    """The SSE events of one session, for replay after a reconnection.

    The transport creates one store per session through its ``event_store``
    factory, called with the session id, so an implementation backed by a
    shared database can namespace its keys by it. Methods are called from many
    threads at once; implementations must be thread-safe and quick (they run
    while a tool thread sends a notification).
    """

    def store_event(self, stream_id: str, message: dict[str, t.Any] | None) -> str:
        """Keep ``message`` as the next event of ``stream_id``.

        :param stream_id: the stream within the session (``"0"`` is the standalone GET stream).
        :param message: the JSON-RPC message, or None for a priming event (an id and no data).
        :return: the event id: unique within the session, and enough for
            :meth:`replay_events_after` to tell which stream it belongs to.
        """
        raise NotImplementedError

    def store_encoded(self, stream_id: str, message: dict[str, t.Any], text: str) -> str:
        """:meth:`store_event`, given also ``text``: ``message`` as the JSON text the client is sent.

        The transport stores every event it sends through this, so a store that keeps or measures
        the JSON can take ``text`` rather than encode ``message`` a second time. The default calls
        :meth:`store_event`.

        :param stream_id: the stream within the session (``"0"`` is the standalone GET stream).
        :param message: the JSON-RPC message.
        :param text: ``message`` encoded, as it goes out in the event's ``data``.
        :return: the event id, as :meth:`store_event` returns it.
        """
        return self.store_event(stream_id, message)

    def replay_events_after(self, last_event_id: str, send: ReplaySend) -> str | None:
        """Call ``send(event_id, message)`` for each event stored after ``last_event_id`` on its stream, in order.

        :return: the id of the stream ``last_event_id`` belongs to, or None when it is
            unknown (then nothing was sent).
        :param last_event_id: the ``Last-Event-ID`` the client sent.
        :param send: ``send(event_id, message)``, called for each event to replay.
        """
        raise NotImplementedError

    def forget_stream(self, stream_id: str) -> None:
        """The stream's response was delivered: its events may be dropped. The default keeps them.

        :param stream_id: the stream whose response was delivered.
        """

    def expire(self) -> None:
        """Drop what is past the store's retention; called now and then while the session lives. The default does nothing."""

    def close(self) -> None:
        """The session ended: drop everything. The default does nothing."""


#: Bytes of events an :class:`InMemoryEventStore` keeps by default (one session).
DEFAULT_MAX_BYTES = 4 * 1024 * 1024
#: Seconds an :class:`InMemoryEventStore` keeps an event by default.
DEFAULT_MAX_AGE = 300.0


class _Event(t.NamedTuple):
    number: int
    message: dict[str, t.Any] | None
    size: int
    stored_at: float


#: ``_Event(*fields)`` without the Python-level ``__new__`` of a named tuple (one frame less per event).
_new_event = functools.partial(tuple.__new__, _Event)


class InMemoryEventStore(EventStore):
    """An :class:`EventStore` in this process's memory, bounded per stream, per session, in bytes and in time.

    Event ids are ``"<stream id>-<n>"`` with ``n`` counting up across the session,
    so an id stays unique and names its stream even after older events were dropped.

    :param session_id: the session the store belongs to (unused here).
    :param max_events_per_stream: events kept per stream; older ones are dropped first.
    :param max_streams: streams kept; the least recently written one is dropped first.
    :param max_bytes: bytes of JSON kept in all; the oldest events of the least recently
        written streams are dropped first.
    :param max_age: seconds an event is kept.
    """

    def __init__(
        self,
        session_id: str | None = None,
        *,
        max_events_per_stream: int = 100,
        max_streams: int = 32,
        max_bytes: int = DEFAULT_MAX_BYTES,
        max_age: float = DEFAULT_MAX_AGE,
    ) -> None:
        if max_events_per_stream < 1 or max_streams < 1 or max_bytes < 1 or max_age <= 0:
            raise ValueError("max_events_per_stream, max_streams, max_bytes and max_age must be positive")
        self.max_events_per_stream = max_events_per_stream
        self.max_streams = max_streams
        self.max_bytes = max_bytes
        self.max_age = max_age
        self._lock = threading.Lock()
        self._streams: dict[str, collections.deque[_Event]] = {}
        self._bytes = 0
        self._next = 0
        self._oldest = math.inf  # no event held was stored before this (a lower bound): what age trimming skips
        #: Whether store_encoded may count ``text`` itself (a subclass's own store_event must see every event).
        self._counts_text = type(self).store_event is InMemoryEventStore.store_event

    @property
    def size(self) -> int:
        """Bytes of JSON held now."""
        with self._lock:
            return self._bytes

    def store_event(self, stream_id: str, message: dict[str, t.Any] | None) -> str:
        return self._store(stream_id, message, 0 if message is None else len(json_rpc.encode(message)))

    def store_encoded(self, stream_id: str, message: dict[str, t.Any], text: str) -> str:
        if not self._counts_text:  # a subclass's store_event still sees every event
            return self.store_event(stream_id, message)
        return self._store(stream_id, message, len(text))

    def _store(self, stream_id: str, message: dict[str, t.Any] | None, size: int) -> str:
        now = time.monotonic()
        streams = self._streams
        with self._lock:
            events = streams.pop(stream_id, None)  # re-inserted below: dict order is recency
            if events is None:
                events = collections.deque()
                while len(streams) >= self.max_streams:
                    self._drop_stream(next(iter(streams)))
            elif len(events) >= self.max_events_per_stream:
                self._bytes -= events.popleft().size
            streams[stream_id] = events
            number = self._next
            self._next = number + 1
            events.append(_new_event((number, message, size, now)))
            self._bytes += size
            if now < self._oldest:
                self._oldest = now
            self._trim(now)
        return f"{stream_id}-{number}"

    def _drop_stream(self, stream_id: str) -> None:
        for event in self._streams.pop(stream_id, ()):
            self._bytes -= event.size

    def _trim(self, now: float) -> None:
        """Drop events past ``max_age``, then the oldest until within ``max_bytes`` (under the lock)."""
        oldest = now - self.max_age
        if self._oldest < oldest:  # some event may be past its age: look at every stream
            earliest = math.inf
            for stream_id in list(self._streams):
                events = self._streams[stream_id]
                while events and events[0].stored_at < oldest:
                    self._bytes -= events.popleft().size
                if not events:
                    del self._streams[stream_id]
                elif events[0].stored_at < earliest:
                    earliest = events[0].stored_at
            self._oldest = earliest
        if self._bytes <= self.max_bytes:
            return
        for stream_id in list(self._streams):
            events = self._streams[stream_id]
            while events and self._bytes > self.max_bytes and (len(events) > 1 or stream_id != next(reversed(self._streams))):
                self._bytes -= events.popleft().size
            if not events:
                del self._streams[stream_id]
            if self._bytes <= self.max_bytes:
                break

    def replay_events_after(self, last_event_id: str, send: ReplaySend) -> str | None:
        stream_id, separator, number_text = last_event_id.rpartition("-")
        if not separator or len(number_text) > 20 or not (number_text.isascii() and number_text.isdigit()):
            return None  # (longer than any count we issue; int() refuses over 4300 digits anyway)
        after = int(number_text)
        with self._lock:
            self._trim(time.monotonic())
            events = self._streams.get(stream_id)
            if events is None:
                return None
            missed = [(event.number, event.message) for event in events if event.number > after]
        for number, message in missed:  # outside the lock: send writes to a connection's queue
            send(f"{stream_id}-{number}", message)
        return stream_id

    def forget_stream(self, stream_id: str) -> None:
        with self._lock:
            self._drop_stream(stream_id)

    def expire(self) -> None:
        with self._lock:
            self._trim(time.monotonic())

    def close(self) -> None:
        with self._lock:
            self._streams.clear()
            self._bytes = 0
            self._oldest = math.inf

    def __repr__(self) -> str:
        return f"<InMemoryEventStore streams={len(self._streams)} bytes={self._bytes}>"


__all__ = ["DEFAULT_MAX_AGE", "DEFAULT_MAX_BYTES", "EventStore", "InMemoryEventStore", "ReplaySend"]
