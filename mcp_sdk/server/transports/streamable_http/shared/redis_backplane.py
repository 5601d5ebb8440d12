"""The Redis connection shared by the processes serving one MCP endpoint.

Each process (a gunicorn worker, a host) is a *worker* with a random id. It
keeps a heartbeat key alive while it runs (so others can tell when it died),
and a thread listening on two pub/sub channels: its own (messages only it can
act on: a client's response its tool thread waits for, a notification for the
GET stream it holds) and the broadcast one (cancellations, session ends,
subscription events). Handlers registered per message kind run on that thread
and must be quick.

redis-py is the ``mcp_sdk[redis]`` extra, imported only when used.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import threading
import typing as t

from ....._redis import import_redis, is_full, outage_errors

logger = logging.getLogger("mcp_sdk.server")

#: Seconds between heartbeats (and housekeeping ticks) of a worker.
HEARTBEAT_INTERVAL = 2.0
#: Seconds a worker's heartbeat key outlives its last beat: a dead worker is noticed this soon.
HEARTBEAT_TTL = 8
#: Seconds between attempts to reach Redis again after it failed.
RECONNECT_DELAY = 0.5
#: Writes waiting for the writer thread at most; past it new ones are dropped (Redis is too slow).
MAX_PENDING_WRITES = 100_000

#: The form of a worker id (``secrets.token_hex(6)``): what a client's routing key must name.
WORKER_ID = re.compile(r"[0-9a-f]{12}")

#: A message between workers: a JSON object whose ``"k"`` names its kind.
Handler = t.Callable[[t.Dict[str, t.Any]], None]


def is_worker_id(value: t.Any) -> bool:
    """Whether ``value`` has the form of a worker id (checked before it names a channel or key)."""
    return type(value) is str and WORKER_ID.fullmatch(value) is not None


def text(value: t.Any) -> str:
    """A Redis reply as text (clients may or may not decode responses)."""
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


class RedisBackplane:
    """One process's link to the others through Redis.

    :param client: a ``redis.Redis`` client.
    :param prefix: prepended to every key and channel (several endpoints may share one Redis).
    :param owns_client: whether :meth:`close` disconnects ``client`` (True for one made from ``redis_url``).
    """

    def __init__(self, client: t.Any, prefix: str = "mcp:", *, owns_client: bool = False) -> None:
        import_redis()
        self.redis = client
        #: Whether :meth:`close` disconnects the client (one made from ``redis_url``, not the user's).
        self.owns_client = owns_client
        self.prefix = prefix
        #: What a Redis outage raises (unreachable, slow, or full): requests needing Redis then get 503.
        self.errors: tuple[type[BaseException], ...] = outage_errors()
        self._lock = threading.Lock()
        self._handlers: dict[str, list[Handler]] = {}
        self._ticks: list[t.Callable[[], None]] = []
        self._pid: int | None = None
        self._worker_id = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._writer: threading.Thread | None = None
        self._writes: list[tuple[t.Callable[[t.Any], None], threading.Event | None]] = []
        self._wake = threading.Event()
        self._full = False  # Redis refused the last heartbeat for lack of memory (the listener thread's alone)

    # -- identity ---------------------------------------------------------------

    @property
    def worker_id(self) -> str:
        """This process's id, new after a fork (gunicorn ``--preload`` builds the app before forking)."""
        self.start()
        return self._worker_id

    def start(self) -> None:
        """Start the listener thread in this process, once (again in a forked child)."""
        pid = os.getpid()
        if self._pid == pid:
            return
        with self._lock:
            if self._pid == pid or self._stop.is_set():
                return
            self._worker_id = secrets.token_hex(6)
            self._thread = threading.Thread(
                target=self._listen_loop, args=(self._worker_id,), name="mcp-redis-listener", daemon=True
            )
            self._thread.start()
            self._writes = []
            self._writer = threading.Thread(target=self._write_loop, args=(self._worker_id,), name="mcp-redis-writer", daemon=True)
            self._writer.start()
            # Last: a thread that sees this pid (unlocked, above) returns at once and reads the worker
            # id, which must already be this process's (it read "" when the pid came first).
            self._pid = pid

    def key(self, *parts: str) -> str:
        """The Redis key of ``parts`` under this backplane's prefix: ``prefix`` + the parts joined with ``:``.

        :param parts: the key's components, such as ``("s", session_id)``.
        :returns: the key.
        """
        return self.prefix + ":".join(parts)

    def worker_channel(self, worker_id: str) -> str:
        """The pub/sub channel on which the worker ``worker_id`` receives messages routed to it.

        :param worker_id: a worker's id (12 hexadecimal digits).
        :returns: the channel's name.
        """
        return self.key("w", worker_id)

    @property
    def broadcast_channel(self) -> str:
        """The pub/sub channel every worker listens on (changes announced to all)."""
        return self.key("all")

    def alive(self, worker_id: str) -> bool:
        """Whether the worker's heartbeat key is still there (never, for an id of another form).

        :param worker_id: a worker's id.
        """
        return is_worker_id(worker_id) and bool(self.redis.exists(self.key("alive", worker_id)))

    # -- messages -----------------------------------------------------------------

    def on(self, kind: str, handler: Handler) -> None:
        """Call ``handler(message)`` on the listener thread for each message of ``kind``.

        :param kind: the messages' kind (their ``"k"`` key).
        :param handler: called with each message of that kind.
        """
        with self._lock:
            self._handlers.setdefault(kind, []).append(handler)

    def every_beat(self, tick: t.Callable[[], None]) -> None:
        """Call ``tick()`` on the listener thread at each heartbeat (housekeeping: refresh expiries).

        :param tick: called at each heartbeat.
        """
        with self._lock:
            self._ticks.append(tick)

    def send(self, worker_id: str, message: dict[str, t.Any]) -> bool:
        """Publish ``message`` to one worker; False when nobody received it (an id of another form, or
        a worker whose connection to Redis is gone: a killed worker's closes with it).

        :param worker_id: the receiving worker's id.
        :param message: a JSON-serializable dict.
        """
        if not is_worker_id(worker_id):
            return False
        return bool(self.redis.publish(self.worker_channel(worker_id), json.dumps(message, separators=(",", ":"))))

    def broadcast(self, message: dict[str, t.Any]) -> None:
        """Publish ``message`` to every worker, this one included (tagged with its origin as ``"o"``).

        :param message: a JSON-serializable dict.
        """
        message = {**message, "o": self.worker_id}
        self.redis.publish(self.broadcast_channel, json.dumps(message, separators=(",", ":")))

    def write_behind(self, commands: t.Callable[[t.Any], None], wait: float | None = None) -> None:
        """Have the writer thread call ``commands(pipeline)`` and send it with others, in order.

        The caller does not block on Redis (a write lost to an outage is logged), unless
        ``wait`` is given: then it waits that many seconds at most for the write to be sent.

        :param commands: called with a Redis pipeline to queue the writes on.
        :param wait: seconds to wait for the write to be sent (None: do not wait).
        """
        self.start()
        done = threading.Event() if wait is not None else None
        with self._lock:
            if len(self._writes) >= MAX_PENDING_WRITES:
                logger.warning("MCP Redis backplane: %d writes pending, one dropped", len(self._writes))
                return
            self._writes.append((commands, done))
        self._wake.set()
        if done is not None:
            done.wait(wait)

    def _write_loop(self, worker_id: str) -> None:
        while self._worker_id == worker_id:
            self._wake.wait(1.0)
            self._wake.clear()
            with self._lock:
                batch, self._writes = self._writes, []
            if batch:
                self._flush(batch)
            elif self._stop.is_set():
                return

    def _flush(self, batch: list[tuple[t.Callable[[t.Any], None], threading.Event | None]]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        try:
            for commands, _ in batch:
                commands(pipe)
            pipe.execute(raise_on_error=False)
        except self.errors as error:
            logger.warning("MCP Redis backplane: %d writes lost, Redis unreachable (%s)", len(batch), type(error).__name__)
        except Exception:
            logger.exception("MCP Redis backplane: writes failed")
        finally:
            for _, done in batch:
                if done is not None:
                    done.set()

    def _dispatch(self, data: t.Any) -> None:
        try:
            message = json.loads(text(data))
        except ValueError:
            logger.warning("MCP Redis backplane: a message that is not JSON was dropped")
            return
        if type(message) is not dict:
            return
        with self._lock:
            handlers = list(self._handlers.get(str(message.get("k")), ()))
        for handler in handlers:
            try:
                handler(message)
            except self.errors:
                raise
            except Exception:  # one bad message must not stop the listener
                logger.exception("MCP Redis backplane handler failed")

    def _beat(self, worker_id: str) -> None:
        alive = self.key("alive", worker_id)
        try:
            self.redis.set(alive, "1", ex=HEARTBEAT_TTL)
            self._full = False
        except self.errors as error:
            if not is_full(error):
                raise
            self.redis.expire(alive, HEARTBEAT_TTL)  # a full Redis still renews expiries: stay alive
            if not self._full:
                logger.warning("MCP Redis backplane: Redis is full (maxmemory); requests needing it get 503")
            self._full = True
        with self._lock:
            ticks = list(self._ticks)
        for tick in ticks:
            try:
                tick()
            except self.errors as error:
                if not is_full(error):
                    raise
            except Exception:
                logger.exception("MCP Redis backplane housekeeping failed")

    def _listen_loop(self, worker_id: str) -> None:
        import time

        while not self._stop.is_set() and self._worker_id == worker_id:
            pubsub = None
            try:
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(self.worker_channel(worker_id), self.broadcast_channel)
                self._beat(worker_id)
                next_beat = time.monotonic() + HEARTBEAT_INTERVAL
                while not self._stop.is_set():
                    message = pubsub.get_message(timeout=min(1.0, max(0.0, next_beat - time.monotonic())))
                    if message is not None and message.get("type") == "message":
                        self._dispatch(message["data"])
                    if time.monotonic() >= next_beat:
                        self._beat(worker_id)
                        next_beat = time.monotonic() + HEARTBEAT_INTERVAL
            except self.errors as error:
                logger.warning("MCP Redis backplane: Redis is unreachable (%s); retrying", type(error).__name__)
                self._stop.wait(RECONNECT_DELAY)
            except Exception:
                logger.exception("MCP Redis backplane listener failed; restarting it")
                self._stop.wait(RECONNECT_DELAY)
            finally:
                if pubsub is not None:
                    try:
                        pubsub.close()
                    except Exception:
                        pass

    def close(self, timeout: float = 3.0) -> None:
        """Stop the listener and drop the heartbeat (others see this worker gone at once).

        :param timeout: seconds to wait for each of the backplane's threads to end.
        """
        self._stop.set()
        self._wake.set()
        with self._lock:  # start() makes and starts its threads under it: here none is made but not started
            threads = (self._thread, self._writer)
        for thread in threads:
            if thread is not None and thread is not threading.current_thread():
                thread.join(timeout)
        if self._worker_id and self._pid == os.getpid():
            try:
                self.redis.delete(self.key("alive", self._worker_id))
            except self.errors:
                pass
        if self.owns_client:
            self.redis.connection_pool.disconnect()


__all__ = ["HEARTBEAT_INTERVAL", "HEARTBEAT_TTL", "RedisBackplane", "WORKER_ID", "is_worker_id", "text"]
