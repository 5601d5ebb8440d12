"""A bounded pool of named threads that run requests whose answers stream over SSE.

The WSGI thread that received a POST must return the response body at once so
it can write events while the request runs; the request runs here. Threads
start on demand up to ``max_workers`` and end after ``idle_timeout`` seconds
without work, so a transport built per request leaves nothing behind for long.
"""

from __future__ import annotations

import itertools
import logging
import queue
import threading
import time
import typing as t

from ....errors import TransportError

logger = logging.getLogger("mcp_sdk.server")

Job = t.Callable[[], None]

_STOP = None


class WorkerPool:
    """Runs jobs on at most ``max_workers`` threads named ``<name>-<n>``.

    Jobs beyond ``max_workers`` wait in a queue for a free thread.
    """

    def __init__(self, max_workers: int, name: str = "mcp-http-worker", idle_timeout: float = 30.0) -> None:
        if max_workers < 1:
            raise ValueError("max_workers must be at least 1")
        self.max_workers = max_workers
        self.name = name
        self.idle_timeout = idle_timeout
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._idle = threading.Semaphore(0)  # about one token per thread waiting for work
        self._lock = threading.Lock()
        self._threads: set[threading.Thread] = set()
        self._numbers = itertools.count(1)
        self._closed = False

    def submit(self, job: Job) -> None:
        """Run ``job()`` on a pool thread.

        :raises TransportError: the pool is closed.
        """
        if self._closed:
            raise TransportError("The transport is closed")
        self._jobs.put(job)
        if self._idle.acquire(blocking=False):
            return  # a waiting thread takes it
        with self._lock:
            if len(self._threads) < self.max_workers and not self._closed:
                thread = threading.Thread(target=self._work, name=f"{self.name}-{next(self._numbers)}", daemon=True)
                self._threads.add(thread)
                thread.start()

    @property
    def thread_count(self) -> int:
        """Threads alive now."""
        with self._lock:
            return len(self._threads)

    def _work(self) -> None:
        try:
            while True:
                try:
                    job = self._jobs.get(timeout=self.idle_timeout)
                except queue.Empty:
                    if self._idle.acquire(blocking=False):
                        return  # an idle thread leaves, taking one idle token with it
                    continue  # a submitter counts on an idle thread: stay
                if job is _STOP:
                    return
                try:
                    job()
                except BaseException:  # jobs report their own errors; never lose the thread silently
                    logger.exception("MCP HTTP worker job failed")
                self._idle.release()
        finally:
            with self._lock:
                self._threads.discard(threading.current_thread())

    def close(self, timeout: float = 5.0) -> None:
        """Stop the threads: each finishes its current job, then ends; waits up to ``timeout`` seconds in all."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            threads = list(self._threads)
        for _ in threads:
            self._jobs.put(_STOP)
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
            if thread.is_alive():
                logger.warning("MCP HTTP worker %s still busy after close(); left running", thread.name)


__all__ = ["WorkerPool"]
