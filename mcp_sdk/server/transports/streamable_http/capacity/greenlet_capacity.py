"""What an open stream costs under gevent: a greenlet, not a thread.

Under gevent's monkey-patching (``gunicorn -k gevent``, or a program that calls
``gevent.monkey.patch_all()``) every request, SSE connections included, runs on a greenlet of its
own, and a held stream costs some memory and a socket. What the server runs out of first is no
longer threads but the connections it accepts at once (gunicorn's ``--worker-connections``, 1000 by
default: past it gunicorn stops accepting until one ends). So, under gevent:

- a resumable stream is held for as long as it lasts, however many are open: ``stream_hold`` bounds
  how long a stream keeps a thread, and here it keeps none (closing it early would only make the
  client poll: 10,000 clients polling every 10 s are about 900 requests a second);
- the cap on open streams comes from the connection count, leaving a tenth of the connections (at
  least two) to everything else: pings, JSON calls, answers to server-to-client requests;
- an idle stream checks that its client is still there every 15 seconds, not twice a second: a
  vanished client holds a greenlet a little longer, and 10,000 idle streams cost no CPU to speak of;
- ``subscriptions/listen`` streams share the connections beyond the same tenth, one principal or
  anonymous client address at most half of them, by the rules threads follow
  (:class:`~.listen_bound.ThreadListens`); ``listen_hold`` does not apply (a listen keeps no
  thread), so a listen ends only to make room for a client holding fewer;
- one session holds at most its GET stream and one stream per request it may run, each once
  resumed (``2 * (max_requests_per_session + 1)``), so one client, however hostile, costs only itself:
  past it a 2025-11-25 client polls, an older one gets 429.
"""

from __future__ import annotations

import typing as t

from .thread_capacity import ThreadCapacity

if t.TYPE_CHECKING:
    from ..options import Limits

#: Connections assumed under gevent when the WSGI server does not tell (gunicorn's default ``--worker-connections``).
DEFAULT_CONNECTIONS = 1000
#: Seconds between disconnect probes of an idle stream under gevent (the default keep-alive interval).
GREEN_PROBE_INTERVAL = 15.0


def streams_for_connections(connections: int) -> int:
    """The default cap on open SSE connections for a server accepting ``connections`` at once under gevent.

    Leaves a tenth of them, and at least two, for every other request: 1000 -> 900, 12000 -> 10800.
    """
    return max(1, connections - max(2, connections // 10))


def greenlet_stream_caps(limits: Limits, connections: int) -> tuple[int, int]:
    """The caps ``(total, per_session)`` under gevent for a server accepting ``connections`` at once:
    ``max_streams`` and ``max_streams_per_session`` when set, else the defaults above."""
    total = limits.max_streams if limits.max_streams is not None else streams_for_connections(connections)
    if limits.max_streams_per_session is not None:
        return total, limits.max_streams_per_session
    return total, max(2, min(total, 2 * (limits.max_requests_per_session + 1)))


class GreenletCapacity(ThreadCapacity):
    """:class:`ThreadCapacity` under gevent: ``threads`` counts the connections the server accepts at
    once (gunicorn ``--worker-connections``), and a resumable stream is held as long as it lasts.

    :param connections: the connection count to assume until (or unless) the server tells its own.
    :param detect: read the server's count from the first request's environ.
    """

    #: Seconds between checks that an idle stream's client is still there. A vanished client costs a
    #: greenlet until then, not a thread; probing 10,000 idle streams twice a second took a core.
    probe_interval = GREEN_PROBE_INTERVAL

    def __init__(self, connections: int, *, detect: bool) -> None:
        super().__init__(connections, detect=detect, max_hold=None, listen_hold=None)

    @property
    def reserve(self) -> int:
        """Connections kept for every request but listens: a tenth, at least two, as for streams
        (:func:`streams_for_connections`); a request holds one only while it is answered."""
        return max(2, self.threads // 10)

    def hold(self) -> float | None:
        """None: an open stream costs a greenlet, so it is never cut short to give a thread back."""
        return None


__all__ = ["DEFAULT_CONNECTIONS", "GREEN_PROBE_INTERVAL", "GreenletCapacity", "greenlet_stream_caps", "streams_for_connections"]
