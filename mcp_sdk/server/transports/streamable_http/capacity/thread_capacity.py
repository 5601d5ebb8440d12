"""How many WSGI threads the transport has, how many are busy, and how long a stream may keep one.

An SSE connection holds a thread of the WSGI server for as long as it is open. Rather than
asking the user to repeat the server's thread count in a setting, the transport reads it where
the server shows it (:func:`wsgi_threads_of`) and counts its own requests in flight
(:class:`ThreadCapacity`). A 2025-11-25 client's stream is held only while threads are plentiful,
and for at most ``stream_hold`` seconds: then it is closed after a ``retry`` field and the client
polls with ``GET`` + ``Last-Event-ID`` (SEP-1699). When a stream would take one of the last free
threads it is answered at once with what is pending and a ``retry``, never refused.
https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery
"""

from __future__ import annotations

import functools
import importlib
import sys
import threading
import typing as t

from ..streams.sse import PROBE_INTERVAL
from .listen_bound import ListenBound, ThreadListens

WSGIEnvironment = t.Dict[str, t.Any]

#: Frames looked at, from the transport up, for the gunicorn worker that called it (looked for once,
#: on the first request). A bare app finds it 5 frames up, Flask 9, a Django project with four
#: middleware 19: each middleware adds two, and sites run a dozen.
_CALLER_FRAMES = 64


def wsgi_threads_of(environ: WSGIEnvironment) -> int | None:
    """The WSGI server's thread count, where the server tells it; None when it does not.

    - waitress: its channel (behind ``waitress.client_disconnected``) knows the server's ``adj.threads``;
    - gunicorn: the worker that calls the application has ``cfg.threads`` (``gthread``) or
      ``cfg.worker_connections`` (``gevent``, ``eventlet``); it is found among the calling frames,
      since gunicorn puts nothing of it in the environ. Its default ``sync`` worker serves one
      request at a time: 1 (it has a ``worker_connections`` too, which it does not use);
    - uWSGI (``uwsgi.version`` in the environ): its ``uwsgi`` module, importable only inside a uWSGI
      process, has ``cores``: the async cores under ``--gevent N`` (or ``--async N``), the threads under
      ``--threads N``, else 1;
    - anything else (werkzeug, mod_wsgi): None, and ``Limits.wsgi_threads`` applies.
    """
    check = environ.get("waitress.client_disconnected")
    server = getattr(getattr(check, "__self__", None), "server", None)
    threads = getattr(getattr(server, "adj", None), "threads", None)
    if _count(threads):
        return t.cast(int, threads)
    if str(environ.get("SERVER_SOFTWARE", "")).startswith("gunicorn"):
        return _gunicorn_threads()
    if "uwsgi.version" in environ:
        return _uwsgi_cores()
    return None


def _uwsgi_cores() -> int | None:
    try:  # uWSGI builds this module into the process it serves from; it is never on the path otherwise
        cores = getattr(importlib.import_module("uwsgi"), "cores", None)
    except ImportError:
        return None
    return t.cast(int, cores) if _count(cores) else None


def _gunicorn_threads() -> int | None:
    frame = sys._getframe(1)
    for _ in range(_CALLER_FRAMES):
        if frame is None:
            return None
        worker = frame.f_locals.get("self")
        module = type(worker).__module__
        if module.startswith("gunicorn.workers."):
            if module == "gunicorn.workers.sync":
                return 1  # one request at a time, whatever worker_connections says
            cfg = getattr(worker, "cfg", None)
            name = "threads" if module.endswith("gthread") else "worker_connections"
            count = getattr(cfg, name, None)
            return t.cast(int, count) if _count(count) else None
        frame = frame.f_back  # type: ignore[assignment]
    return None


def _count(value: t.Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


class ThreadCapacity:
    """Counts the transport's requests in flight against the WSGI server's threads.

    One lock guards the count; nothing is called under it.

    It also drives the bound on 2026-07-28 listen streams (:attr:`listens`): listens may take
    the threads beyond the :attr:`reserve`, and a request that leaves no thread free while they
    fill that share ends one of them gracefully (:class:`~.listen_bound.ThreadListens`).

    :param threads: the thread count to assume until (or unless) the server tells its own.
    :param detect: read the server's thread count from the first request's environ.
    :param max_hold: seconds a resumable stream is held at most (None: as long as it lasts).
    :param listen_hold: seconds a ``subscriptions/listen`` stream is held at most (None: as long
        as the client keeps it).
    """

    #: Seconds between checks that an idle stream's client is still there: a vanished client frees its thread this soon.
    probe_interval: float = PROBE_INTERVAL

    def __init__(self, threads: int, *, detect: bool, max_hold: float | None, listen_hold: float | None = None) -> None:
        self.threads = threads
        self.max_hold = max_hold
        #: Called with the thread count the server tells on its first request, when it differs
        #: from :attr:`threads` (the transport resizes its stream caps and pool).
        self.resized: t.Callable[[int], None] | None = None
        self._detect = detect
        self._lock = threading.Lock()
        self._busy = 0
        #: Bounds the open ``subscriptions/listen`` streams (see the class docstring).
        self.listens: ListenBound = ThreadListens(lambda: self.threads - self.reserve, listen_hold)

    @property
    def busy(self) -> int:
        """Requests of this transport in flight now (each holds a WSGI thread)."""
        with self._lock:
            return self._busy

    def enter(self, environ: WSGIEnvironment) -> t.Callable[[], None]:
        """Count one request in flight; the returned callable ends it (once; later calls do nothing).

        :return: what to call when the request's thread is free again.
        """
        if self._detect:
            self._detect = False
            found = wsgi_threads_of(environ)
            if found is not None and found != self.threads:
                self.threads = found
                if self.resized is not None:
                    self.resized(found)
        with self._lock:
            busy = self._busy = self._busy + 1
        if self.threads - busy <= 0:  # the next request would find no thread: a listen gives its own back
            self.listens.reclaim()
        return functools.partial(self._leave, [None])  # C: no Python object to make, nor frame to call

    def _leave(self, once: list[None]) -> None:
        try:
            once.pop()  # atomic: only the first call finds the item
        except IndexError:  # ended already
            return
        with self._lock:
            self._busy -= 1

    @property
    def reserve(self) -> int:
        """Threads kept free for JSON requests and answers to server-to-client requests: a quarter, at least one."""
        return max(1, self.threads // 4)

    def hold(self) -> float | None:
        """Seconds a resumable stream opening now (already counted in :attr:`busy`) may keep its thread.

        The full ``max_hold`` while at least half of the threads beyond the reserve are free,
        shrinking to 0 (the pending events and a ``retry`` at once) when the stream would take one
        of the reserved threads.
        """
        if self.max_hold is None:
            return None
        threads = self.threads
        reserve = self.reserve
        spare = threads - self._busy - reserve  # left free with this stream's thread taken (one int read: no lock)
        if spare < 0:
            return 0.0
        room = max(1.0, (threads - reserve) / 2)
        return self.max_hold * min(1.0, (spare + 1) / room)


__all__ = ["ThreadCapacity", "wsgi_threads_of"]
