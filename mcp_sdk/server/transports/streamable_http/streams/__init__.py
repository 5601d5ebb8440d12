"""The SSE streams of the Streamable HTTP transport, and resuming them.

- :mod:`.sse`: the SSE wire format, and the streams that carry a session's messages.
- :mod:`.sse_answers`: requests answered over SSE: the connection place each holds, the pool
  thread it runs on, the stream it writes.
- :mod:`.event_store`: where a session keeps the events it sent (:class:`EventStore`,
  :class:`InMemoryEventStore`).
- :mod:`.resumption`: ``GET`` with ``Last-Event-ID``: what a client missed, replayed (SEP-1699).
"""
