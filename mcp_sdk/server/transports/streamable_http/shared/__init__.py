"""The Streamable HTTP transport shared by several processes, on Redis (``redis_url=``).

redis-py is imported only when one of these is built.

- :mod:`.redis_setup`: assembles the parts below for ``StreamableHTTPTransport(server, redis_url=...)``.
- :mod:`.redis_backplane`: the Redis connection the processes share.
- :mod:`.redis_sessions`: sessions any process serves (:class:`~.redis_sessions.RedisSessionRegistry`).
- :mod:`.redis_event_store`: events any process replays (:class:`~.redis_event_store.RedisEventStore`).
- :mod:`.redis_bus`: ``subscriptions/listen`` across processes, on pub/sub.
- :mod:`.redis_request_state`: the ``requestState`` keys every process shares.
"""
