"""The parts of :class:`~mcp_sdk.server.transports.StreamableHTTPTransport`.

- :mod:`.options`: the transport's option groups, :class:`Limits`, :class:`Security` and :class:`Storage`.
- :mod:`.modern_post`: the 2026-07-28 POSTs; :mod:`.sse_answers`: requests answered over SSE
  (both eras); :mod:`.resumption`: ``GET`` with ``Last-Event-ID``.
- :mod:`.event_store`: :class:`EventStore` (the interface for resumability) and
  :class:`InMemoryEventStore` (the default).
- :mod:`.sse`: the SSE wire format and the streams that carry a session's messages.
- :mod:`.sessions`: per-session routing and the idle-session reaper.
- :mod:`.security`: ``Host`` / ``Origin`` checks against DNS rebinding.
- :mod:`.carrying_request`: the HTTP request a message arrived in, as handlers get it
  (``server_context.request``; :data:`FRAMEWORK_REQUEST_KEY` for a framework's own request).
- :mod:`.http_io`: header checks, bounded body reads, JSON-RPC shaped HTTP errors.
- :mod:`.workers`: the pool of threads running requests answered with SSE, shared in turn by sessions.
- :mod:`.limits`: caps on open SSE connections, in total and per session.
- :mod:`.connection`: what the WSGI server shows of the client's socket: disconnect probes, body deadlines.
- :mod:`.redis_setup`, :mod:`.redis_backplane`, :mod:`.redis_sessions`, :mod:`.redis_event_store`,
  :mod:`.redis_bus`: sessions, routing, events and ``subscriptions/listen`` shared across processes
  on Redis (``redis_url=``; redis-py is imported only then).
"""

from __future__ import annotations

from .carrying_request import FRAMEWORK_REQUEST_KEY as FRAMEWORK_REQUEST_KEY
from .carrying_request import CarryingRequest as CarryingRequest
from .event_store import EventStore as EventStore
from .event_store import InMemoryEventStore as InMemoryEventStore
from .http_io import HTTPRequestError as HTTPRequestError
from .options import Limits as Limits
from .options import Security as Security
from .options import Storage as Storage
from .redis_backplane import RedisBackplane as RedisBackplane
from .redis_bus import RedisSubscriptionBus as RedisSubscriptionBus
from .redis_event_store import RedisEventStore as RedisEventStore
from .redis_sessions import RedisSessionRegistry as RedisSessionRegistry
from .redis_sessions import SharedHTTPSession as SharedHTTPSession
from .security import RebindingGuard as RebindingGuard

__all__ = [
    "FRAMEWORK_REQUEST_KEY",
    "CarryingRequest",
    "EventStore",
    "HTTPRequestError",
    "InMemoryEventStore",
    "Limits",
    "RebindingGuard",
    "RedisBackplane",
    "RedisEventStore",
    "RedisSessionRegistry",
    "RedisSubscriptionBus",
    "Security",
    "SharedHTTPSession",
    "Storage",
]
