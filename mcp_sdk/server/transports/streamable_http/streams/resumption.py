"""``GET`` with ``Last-Event-ID``: what a client missed on a stream, replayed, then the stream live (SEP-1699).

https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery
"""

from __future__ import annotations

import queue
import typing as t

from ..... import json_rpc
from ..... import protocol_version as versions
from ..wire.http_io import Answer, HTTPRequestError
from ..sessions.http_session import STANDALONE, HTTPSession
from .sse import SSE_HEADERS, QueueItem, SSEBody, Stream, format_event

#: The longest ``Last-Event-ID`` looked up (event ids are short; a longer one is refused with 400).
MAX_EVENT_ID_LENGTH = 256
#: The first protocol version whose clients expect priming events and resume streams the server closed.
RESUMABLE_VERSION = "2025-11-25"

_RESUMABLE_VERSIONS = frozenset(versions.SUPPORTED_VERSIONS[versions.SUPPORTED_VERSIONS.index(RESUMABLE_VERSION) :])


def resumable(version: str | None) -> bool:
    """Whether clients of protocol ``version`` expect priming events and resume closed streams."""
    return version in _RESUMABLE_VERSIONS


def sse_answer(body: SSEBody, hold: float | None) -> Answer:
    """The ``200`` carrying ``body``: with a ``Content-Length`` when all of it is known now (a poll
    answered at once, ``hold`` 0, or a replay of a finished stream), else streamed."""
    length = body.prefetch(0.0) if body.complete or (hold is not None and hold <= 0) else None
    if length is None:
        return Answer(200, list(SSE_HEADERS), body)
    return Answer(200, [*SSE_HEADERS, ("Content-Length", str(length))], body)


def resume(
    session: HTTPSession, last_event_id: str, *, keepalive_interval: float, retry_ms: int | None, hold: float | None = None
) -> Answer:
    """Replay what followed ``last_event_id`` on its stream, then continue that stream live
    (for ``hold`` seconds at most, see :class:`~.sse.SSEBody`)."""
    replayed: list[tuple[str, dict[str, t.Any] | None]] = []

    def collect(event_id: str, message: dict[str, t.Any] | None) -> None:
        replayed.append((event_id, message))

    if len(last_event_id) > MAX_EVENT_ID_LENGTH:
        raise HTTPRequestError(400, "Bad Request: Last-Event-ID is too long")
    store = session.store
    stream_id = store.replay_events_after(last_event_id, collect)
    if stream_id is None:
        raise HTTPRequestError(400, f"Bad Request: unknown Last-Event-ID {last_event_id!r}")
    stream = session.find_stream(stream_id)
    if stream_id == STANDALONE and stream is None:
        stream = session.standalone_stream()
    consumer: queue.SimpleQueue[QueueItem]
    if stream is None:
        stream = Stream(stream_id, None)
        consumer, _ = stream.attach()
        finished = not session.running_elsewhere(stream_id)
        if finished:  # gone (a dead process's requests now have their error): what the store has is all
            store.replay_events_after(replayed[-1][0] if replayed else last_event_id, collect)
        else:  # live in another process: the client comes back for the rest (SEP-1699 polling)
            stream.close_connection()
    else:
        attached = stream.attach_if_free()  # a live connection keeps its stream
        if attached is not None and stream.stream_id == STANDALONE and not session.claim_standalone():
            stream.detach(attached)
            attached = None
        if attached is None:
            raise HTTPRequestError(
                409, "Conflict: this stream is still being read on another connection", headers={"Retry-After": "1"}
            )
        consumer, finished = attached, stream.done
        # Events stored between the first replay and attach() were not queued: fetch them too.
        store.replay_events_after(replayed[-1][0] if replayed else last_event_id, collect)
    preamble = [format_event(json_rpc.encode(message), event_id) for event_id, message in replayed if message is not None]
    body = SSEBody(
        stream,
        consumer,
        preamble,
        keepalive=keepalive_interval,
        retry_ms=retry_ms,
        finished=finished,
        skip={event_id for event_id, _ in replayed},
        on_end=session.stream_ended,
        hold=hold,
    )
    return sse_answer(body, hold)


__all__ = ["MAX_EVENT_ID_LENGTH", "RESUMABLE_VERSION", "resumable", "resume", "sse_answer"]
