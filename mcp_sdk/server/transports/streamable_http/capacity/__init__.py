"""What the Streamable HTTP transport may hold at once: WSGI threads, SSE connections, workers.

- :mod:`.thread_capacity`: how many WSGI threads there are, how many are busy, how long a stream
  may keep one.
- :mod:`.greenlet_capacity`: the same under gevent, where a stream costs a greenlet;
  :mod:`.stream_capacity` picks one of the two.
- :mod:`.limits`: caps on open SSE connections, in total and per session.
- :mod:`.listen_bound`: how many 2026-07-28 ``subscriptions/listen`` streams may be open, whose,
  and for how long.
- :mod:`.workers`: the pool of threads running requests answered with SSE.
"""
