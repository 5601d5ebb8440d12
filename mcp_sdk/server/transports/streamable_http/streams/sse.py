"""Server-Sent Events: the wire format, and the streams that carry a session's messages.

A :class:`Stream` is a logical SSE stream (a POST's answer, or the standalone
GET stream). It outlives HTTP connections: producers (tool threads, broadcasts)
:meth:`~Stream.put` messages into it from any thread; at most one connection at a
time consumes them, through an :class:`SSEBody` (the WSGI response body) that
the WSGI server's thread iterates. Between connections, messages live only in
the session's event store, from which a reconnecting client is replayed.
https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
"""

from __future__ import annotations

import enum
import queue
import threading
import time
import typing as t

from .event_store import EventStore

#: A comment line: keeps proxies from timing the connection out and reveals dead clients.
KEEPALIVE = b": keep-alive\n\n"
#: Starts a connection that has no event to send yet: WSGI servers send the headers with
#: the first non-empty chunk (PEP 3333), and the client waits for them.
OPENING = b": open\n\n"

#: Events queued for one connection at most: a client that stops reading must not grow memory
#: without end. Beyond it, a resumable stream's connection is ended (the client resumes from the
#: event store); an unresumable one drops the live copies, never the final answer.
MAX_QUEUED = 4096
#: Bytes of event text queued for one connection at most, with the same consequences as :data:`MAX_QUEUED`.
MAX_QUEUED_BYTES = 4 * 1024 * 1024
#: Seconds between checks, on an idle SSE connection, that the client is still there (when the
#: WSGI server lets the transport see its socket): a vanished client frees its thread this soon.
PROBE_INTERVAL = 0.5

#: Headers of every SSE response (``X-Accel-Buffering`` stops nginx from buffering the stream).
SSE_HEADERS = [("Cache-Control", "no-cache"), ("X-Accel-Buffering", "no"), ("Content-Type", "text/event-stream")]


class _Signal(enum.Enum):
    CLOSE = "close"  # queue item: end this connection, the stream goes on (the client should reconnect)
    END = "end"  # queue item: end this connection, the stream is over (the session ended)
    FINAL = "final"  # how a connection ended: with the stream's last event (never queued)


#: What a connection's queue carries: an event (event id or None, JSON text or None,
#: whether it is the stream's last event), or a :class:`_Signal`.
QueueItem = t.Union[tuple[t.Optional[str], t.Optional[str], bool], _Signal]


def format_event(data: str | None, event_id: str | None = None, retry_ms: int | None = None) -> bytes:
    """One SSE event. ``data=None`` with an id is a priming event (an id and empty data)."""
    if retry_ms is None and data is not None and "\n" not in data and "\r" not in data:  # a message: the usual event
        return (f"data: {data}\n\n" if event_id is None else f"id: {event_id}\ndata: {data}\n\n").encode("utf-8")
    parts = []
    if event_id is not None:
        parts.append(f"id: {event_id}\n")
    if retry_ms is not None:
        parts.append(f"retry: {retry_ms}\n")
    if data is None:
        parts.append("data: \n")
    elif "\n" in data or "\r" in data:  # compact JSON never has raw newlines, but stay correct
        parts.extend(f"data: {line}\n" for line in data.splitlines())
    else:
        parts.append(f"data: {data}\n")
    parts.append("\n")
    return "".join(parts).encode("utf-8")


def format_retry(retry_ms: int) -> bytes:
    """An event that only sets the client's reconnection delay (sent before the server closes a connection)."""
    return f"retry: {retry_ms}\n\n".encode()


class Stream:
    """One logical SSE stream of a session.

    :param stream_id: unique within the session; the event store files events under it.
    :param store: the session's event store; None when the stream cannot be resumed (stateless).
    :param request_ids: the JSON-RPC ids whose answers the stream carries (empty for the GET stream).
    :param consumer: the queue of a connection that reads the stream from its start, as if
        :meth:`attach` had given it (None: no connection yet).
    """

    __slots__ = ("stream_id", "store", "request_ids", "primed", "done", "listen", "_lock", "_queue", "_queued_bytes")

    def __init__(
        self,
        stream_id: str,
        store: EventStore | None,
        request_ids: t.Sequence[t.Any] = (),
        consumer: queue.SimpleQueue[QueueItem] | None = None,
    ) -> None:
        self.stream_id = stream_id
        self.store = store
        self.request_ids = tuple(request_ids)
        #: Whether a priming event was sent, so the client knows it can resume.
        self.primed = False
        #: Whether the final answer was put (the stream's last event).
        self.done = False
        #: Whether it answers a ``subscriptions/listen`` request (ended with a result on close).
        self.listen = False
        self._lock = threading.Lock()
        self._queue = consumer
        self._queued_bytes = 0  # text queued for the current connection and not yet taken

    @property
    def attached(self) -> bool:
        """Whether a connection is consuming the stream now."""
        return self._queue is not None

    def prime(self, retry_ms: int | None) -> bytes:
        """The priming event that starts a connection: an event id to resume from, and no data."""
        event_id = self.store.store_event(self.stream_id, None) if self.store is not None else None
        self.primed = True
        return format_event(None, event_id, retry_ms)

    def put(self, message: dict[str, t.Any], text: str) -> None:
        """Send ``message`` (already encoded as ``text``): store it, and queue it for the connection if any.

        A connection that ends between the two misses it live; it is in the store for replay.
        """
        event_id = self.store.store_encoded(self.stream_id, message, text) if self.store is not None else None
        with self._lock:
            consumer = self._queue
            if consumer is None:
                return
            backlog = consumer.qsize() >= MAX_QUEUED or self._queued_bytes + len(text) > MAX_QUEUED_BYTES
            if not backlog:
                self._queued_bytes += len(text)
                consumer.put((event_id, text, False))  # never blocks
        if backlog and self.store is not None:  # the client is not reading: it resumes from the store
            self.close_connection()

    def taken(self, consumer: queue.SimpleQueue[QueueItem], size: int) -> None:
        """The connection owning ``consumer`` took ``size`` bytes of event text off its queue."""
        with self._lock:
            if self._queue is consumer:
                self._queued_bytes -= size

    def finish(self, message: t.Any, text: str | None) -> bool:
        """Put the final answer (``message`` None: there is none, the stream just ends).

        :return: whether a connection was reading the stream (it gets the answer queued).
        """
        event_id = None
        if message is not None and self.store is not None:
            event_id = (
                self.store.store_event(self.stream_id, message)
                if text is None
                else self.store.store_encoded(self.stream_id, message, text)
            )
        with self._lock:  # pairs with attach(): a reconnection sees either `done` or the final item
            self.done = True
            consumer = self._queue
        if consumer is None:
            return False
        consumer.put((event_id, text, True))
        return True

    def attach(self) -> tuple[queue.SimpleQueue[QueueItem], bool]:
        """Make a new connection the consumer; the previous one, if any, ends.

        :return: the connection's queue, and whether the stream was already done
            (then everything is in the store and nothing more will be queued).
        """
        attached = self._attach(exclusive=False)
        assert attached is not None
        return attached

    def attach_if_free(self) -> queue.SimpleQueue[QueueItem] | None:
        """Make a new connection the consumer unless one is already (checked and set atomically)."""
        attached = self._attach(exclusive=True)
        return None if attached is None else attached[0]

    def _attach(self, exclusive: bool) -> tuple[queue.SimpleQueue[QueueItem], bool] | None:
        consumer: queue.SimpleQueue[QueueItem] = queue.SimpleQueue()
        with self._lock:
            if exclusive and self._queue is not None:
                return None
            previous, self._queue = self._queue, consumer
            self._queued_bytes = 0
            done = self.done
        if previous is not None:
            previous.put(_Signal.CLOSE)
        return consumer, done

    def detach(self, consumer: queue.SimpleQueue[QueueItem]) -> None:
        """The connection that owned ``consumer`` ended."""
        with self._lock:
            if self._queue is consumer:
                self._queue = None

    def close_connection(self, resumable: bool = True) -> bool:
        """End the current connection; returns whether there was one.

        :param resumable: the stream goes on and the client should reconnect (a
            ``retry`` event is sent); False when the session is over.
        """
        with self._lock:
            consumer, self._queue = self._queue, None
        if consumer is None:
            return False
        consumer.put(_Signal.CLOSE if resumable else _Signal.END)
        return True

    def __repr__(self) -> str:
        return f"<Stream {self.stream_id} requests={list(self.request_ids)!r} attached={self.attached} done={self.done}>"


class SSEBody:
    """The WSGI response body of one SSE connection to a :class:`Stream`.

    Yields the ``preamble`` (priming event, replayed events), then queued events,
    with a keep-alive comment after ``keepalive`` idle seconds, until the stream's
    final event, a server-side close, or the client going away (the WSGI server
    then calls :meth:`close`). Events already queued are written together.
    ``on_end(stream, delivered)`` runs once, ``delivered`` telling whether the
    final event was written (or handed over whole, see :meth:`hand_over`).

    :param skip: event ids already sent in the preamble (a queued copy is not sent again).
    :param finished: the preamble is the whole stream (a replay of a finished one).
    :param hold: seconds the connection stays open at most; then it ends as a server-side close
        (a ``retry`` field), the stream going on for the client to resume (SEP-1699 polling).
        0: what is pending now, then the close. None: as long as the stream lasts.
    """

    # What a connection starts with, kept on the class: an instance stores only what differs.
    _outcome: _Signal | None = None
    _skip: t.Collection[str] = ()
    _delivered = False
    _ended = False
    _gone: t.Callable[[], bool] | None = None
    _probe_interval = PROBE_INTERVAL
    _release: t.Callable[[], None] | None = None
    _leave: t.Callable[[], None] | None = None

    def __init__(
        self,
        stream: Stream,
        consumer: queue.SimpleQueue[QueueItem],
        preamble: t.Sequence[bytes],
        *,
        keepalive: float,
        retry_ms: int | None,
        finished: bool = False,
        skip: t.Collection[str] = (),
        on_end: t.Callable[[Stream, bool], None] | None = None,
        hold: float | None = None,
    ) -> None:
        self.stream = stream
        self._hold = hold
        self._consumer = consumer
        self._pending = list(preamble)
        self._keepalive = keepalive
        self._retry_ms = retry_ms
        if finished:
            self._outcome = _Signal.FINAL
        if skip:
            self._skip = skip
        self._on_end = on_end
        self._events: t.Generator[bytes, None, None] = self._generate()

    def watch(
        self,
        gone: t.Callable[[], bool] | None,
        release: t.Callable[[], None] | None,
        leave: t.Callable[[], None] | None,
        probe_interval: float = PROBE_INTERVAL,
    ) -> None:
        """Before iteration: end the connection within ``probe_interval`` seconds once ``gone()``
        says the client left (None: only a failed write tells), and call ``release()`` (the
        connection's place), then ``leave()`` (its count in flight), when it ends (None: nothing)."""
        self._gone = gone
        self._probe_interval = probe_interval
        self._release, self._leave = release, leave
        if self._ended:
            self._give_back()

    def __iter__(self) -> t.Iterator[bytes]:
        return self._events

    @property
    def complete(self) -> bool:
        """Whether the whole stream is known before anything was written (see :meth:`prefetch`)."""
        return self._outcome is not None

    def hand_over(self, release: t.Callable[[], None] | None, leave: t.Callable[[], None] | None) -> list[bytes]:
        """The whole body, known before anything was written (:attr:`complete`), as a list for the WSGI
        server to write; the connection ends now, as it would once the body is written: ``on_end``
        runs, then ``release()`` and ``leave()`` (as :meth:`watch` takes them; None: nothing).

        Its final event counts as delivered once handed over: a client that loses it on the way
        resumes from its priming event, and the event store replays the stream whole either way.
        """
        self._release, self._leave = release, leave
        whole, self._pending = self._pending, []
        self._delivered = self._outcome is _Signal.FINAL
        self._events.close()  # never started: nothing of it runs
        self._end()
        return whole

    def prefetch(self, timeout: float) -> int | None:
        """Wait up to ``timeout`` seconds for the stream to end, before anything is written.

        A quick request then leaves as one fixed-length body instead of a chunked stream.

        :return: the length of the whole body when it is known now, else None.
        """
        if self._outcome is None:
            try:
                item = self._consumer.get(timeout=timeout)
            except queue.Empty:
                item = None
            if item is not None:
                self._outcome = self._drain(item, self._pending)
            if self._outcome is None and self._hold is not None and self._hold <= 0:
                self._outcome = self._poll_close(self._pending)  # a poll: all it says is known now
            if self._outcome is None:
                return None
        self._pending = [b"".join(self._pending)]
        return len(self._pending[0])

    def _generate(self) -> t.Generator[bytes, None, None]:
        try:
            pending, self._pending = self._pending, []
            if self._outcome is not None:  # the whole stream is known
                yield b"".join(pending)
                self._delivered = self._outcome is _Signal.FINAL
                return
            yield b"".join(pending) if pending else OPENING  # something must go out to send the headers
            pending = []
            get = self._consumer.get
            gone = self._gone
            keepalive_at = time.monotonic() + self._keepalive
            close_at = None if self._hold is None else time.monotonic() + self._hold
            while True:
                wait = self._keepalive if gone is None else min(self._probe_interval, max(0.0, keepalive_at - time.monotonic()))
                if close_at is not None:
                    wait = min(wait, max(0.0, close_at - time.monotonic()))
                try:
                    item = get(timeout=wait)
                except queue.Empty:
                    if close_at is not None and time.monotonic() >= close_at:
                        closed = self._poll_close(pending)
                        yield b"".join(pending)
                        self._delivered = closed is _Signal.FINAL
                        return
                    if gone is not None and gone():
                        return
                    if time.monotonic() >= keepalive_at:
                        yield KEEPALIVE
                        keepalive_at = time.monotonic() + self._keepalive
                    continue
                outcome = self._drain(item, pending)
                if pending:
                    yield b"".join(pending)
                    pending = []
                    keepalive_at = time.monotonic() + self._keepalive
                if outcome is not None:
                    self._delivered = outcome is _Signal.FINAL
                    return
        finally:
            self._end()

    def _drain(self, item: QueueItem | None, pending: list[bytes]) -> _Signal | None:
        """Add ``item`` (None: none taken) and whatever else is queued now to ``pending``; returns how
        the connection ends, or None."""
        outcome = None if item is None else self._take(item, pending)
        while outcome is None:
            try:
                item = self._consumer.get(block=False)
            except queue.Empty:
                break
            outcome = self._take(item, pending)
        return outcome

    def _poll_close(self, pending: list[bytes]) -> _Signal:
        """End the connection now, the stream going on: add what is queued and a ``retry`` to ``pending``.

        Events stored after this are not written here; the client resumes after the last id it
        got, so the event store replays them (each once, in order).
        """
        outcome = self._drain(None, pending)
        if outcome is not None:
            return outcome
        if self._retry_ms is not None:
            pending.append(format_retry(self._retry_ms))
        return _Signal.CLOSE

    def _take(self, item: QueueItem, pending: list[bytes]) -> _Signal | None:
        if isinstance(item, _Signal):  # CLOSE or END
            if item is _Signal.CLOSE and self._retry_ms is not None:
                pending.append(format_retry(self._retry_ms))
            return item
        event_id, text, final = item
        if text is not None and not final:
            self.stream.taken(self._consumer, len(text))
        if text is not None and (event_id is None or event_id not in self._skip):
            pending.append(format_event(text, event_id))
        return _Signal.FINAL if final else None

    def close(self) -> None:
        """Called by the WSGI server when the response ends, normally or not."""
        self._events.close()
        self._end()

    def _end(self) -> None:
        if self._ended:
            return
        self._ended = True
        delivered = self._delivered
        # A connection that wrote the final event leaves the stream attached: nothing comes after that
        # event, and on_end drops the stream (a resumption replays it from the store).
        if not delivered:
            self.stream.detach(self._consumer)
        try:
            if self._on_end is not None:
                self._on_end(self.stream, delivered)
        finally:
            self._give_back()

    def _give_back(self) -> None:
        """Call what :meth:`watch` was given (once: they are forgotten as they are called)."""
        release, self._release = self._release, None
        leave, self._leave = self._leave, None
        give_back(release, leave)


def give_back(release: t.Callable[[], None] | None, leave: t.Callable[[], None] | None) -> None:
    """End a connection's hold: ``release()`` its stream place, then ``leave()`` its count in flight
    (None: nothing to call), the second even when the first raises."""
    try:
        if release is not None:
            release()
    finally:
        if leave is not None:
            leave()


__all__ = ["KEEPALIVE", "MAX_QUEUED", "MAX_QUEUED_BYTES", "OPENING", "PROBE_INTERVAL", "SSE_HEADERS", "QueueItem", "SSEBody", "Stream", "format_event", "format_retry", "give_back"]
