"""A bounded pool of named threads that run requests whose answers stream over SSE.

The WSGI thread that received a POST must return the response body at once so
it can write events while the request runs; the request runs here. Threads
start on demand up to ``max_workers`` and end after ``idle_timeout`` seconds
without work, so a transport built per request leaves nothing behind for long.
"""

from __future__ import annotations

import collections
import itertools
import logging
import threading
import time
import typing as t

from ....errors import TransportError

logger = logging.getLogger("mcp_sdk.server")

Job = t.Callable[[], None]


class WorkerPool:
    """Runs jobs on at most ``max_workers`` threads named ``<name>-<n>``.

    Jobs beyond ``max_workers`` wait for a free thread, queued per owner (a
    session): free threads take the owners' jobs in turn, so one session with a
    long queue does not make every other session wait behind it.
    """

    def __init__(self, max_workers: int, name: str = "mcp-http-worker", idle_timeout: float = 30.0) -> None:
        if max_workers < 1:
            raise ValueError("max_workers must be at least 1")
        self.max_workers = max_workers
        self.name = name
        self.idle_timeout = idle_timeout
        self._cond = threading.Condition()
        self._pending: dict[t.Hashable, collections.deque[Job]] = {}  # owners in turn order
        self._queued = 0
        self._idle = 0  # threads waiting for work
        self._threads: set[threading.Thread] = set()
        self._numbers = itertools.count(1)
        self._closed = False

    def submit(self, job: Job, owner: t.Hashable = None) -> None:
        """Run ``job()`` on a pool thread, in turn with other owners' jobs.

        :raises TransportError: the pool is closed.
        """
        with self._cond:
            if self._closed:
                raise TransportError("The transport is closed")
            self._pending.setdefault(owner, collections.deque()).append(job)
            self._queued += 1
            if self._idle:
                self._cond.notify()
            if self._queued > self._idle and len(self._threads) < self.max_workers:
                thread = threading.Thread(target=self._work, name=f"{self.name}-{next(self._numbers)}", daemon=True)
                self._threads.add(thread)
                thread.start()

    def grow(self, max_workers: int) -> None:
        """Allow up to ``max_workers`` threads from now on (a smaller number changes nothing)."""
        with self._cond:
            self.max_workers = max(self.max_workers, max_workers)

    @property
    def thread_count(self) -> int:
        """Threads alive now."""
        with self._cond:
            return len(self._threads)

    def _next_job(self) -> Job | None:
        """The next job in turn, or None after ``idle_timeout`` without work or once closed (under the lock)."""
        deadline = time.monotonic() + self.idle_timeout
        while not self._pending:
            remaining = deadline - time.monotonic()
            if self._closed or remaining <= 0:
                return None
            self._idle += 1
            try:
                self._cond.wait(remaining)
            finally:
                self._idle -= 1
        owner = next(iter(self._pending))
        jobs = self._pending.pop(owner)
        job = jobs.popleft()
        if jobs:
            self._pending[owner] = jobs  # back in line, behind the other owners
        self._queued -= 1
        return job

    def _work(self) -> None:
        try:
            while True:
                with self._cond:
                    job = self._next_job()
                    if job is None:
                        return
                try:
                    job()
                except BaseException:  # jobs report their own errors; never lose the thread silently
                    logger.exception("MCP HTTP worker job failed")
        finally:
            with self._cond:
                self._threads.discard(threading.current_thread())

    def close(self, timeout: float = 5.0) -> None:
        """Stop the threads: each finishes the queued jobs, then ends; waits up to ``timeout`` seconds in all."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            threads = list(self._threads)
            self._cond.notify_all()
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
            if thread.is_alive():
                logger.warning("MCP HTTP worker %s still busy after close(); left running", thread.name)


__all__ = ["WorkerPool"]
