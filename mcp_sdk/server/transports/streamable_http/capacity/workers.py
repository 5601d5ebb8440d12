"""A bounded pool of named threads that run requests whose answers stream over SSE.

The WSGI thread that received a POST must return the response body at once so
it can write events while the request runs; the request runs here. Threads
start on demand up to ``max_workers`` and end after ``idle_timeout`` seconds
without work, so a transport built per request leaves nothing behind for long.

**Waking a worker.** Where threads are the operating system's (not gevent's greenlets) and Linux
has ``eventfd``, an idle worker sleeps in ``poll`` on an eventfd of its own, and is woken by a
write to it, a call that lets go of the GIL before it makes the system call. Woken by a lock's
release instead, a worker wakes while the submitting thread still holds the GIL, fails to take it
and sleeps again, and on a busy CPU the two threads then pass the CPU back and forth several
times for one hand-over.
"""

from __future__ import annotations

import collections
import itertools
import logging
import os
import select
import sys
import threading
import time
import typing as t
import weakref

from ....._gevent import green_threads
from .....errors import TransportError

logger = logging.getLogger("mcp_sdk.server")

Job = t.Callable[[], None]


class _Idle:
    """An idle worker: what it sleeps on until a job is handed over, and the job handed over.

    It sleeps on a lock held until :meth:`wake` releases it, or (``eventfd``) in ``poll`` on an
    eventfd that :meth:`wake` writes to, letting go of the GIL first (see the module's docstring).
    """

    __slots__ = ("latch", "job", "_fd", "_poller")

    def __init__(self, eventfd: bool) -> None:
        self.job: Job | None = None
        self.latch: threading.Lock | None = None
        self._fd: int | None = None
        self._poller: t.Any = None
        if eventfd:
            try:
                self._fd = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
            except OSError:  # out of descriptors: a lock does it too
                pass
        if self._fd is not None:
            self._poller = select.poll()
            self._poller.register(self._fd, select.POLLIN)
        else:
            self.latch = threading.Lock()
            self.latch.acquire()

    def wake(self) -> None:
        """Wake the worker (once per :meth:`sleep` that returned or will return True)."""
        if self._fd is not None:
            os.eventfd_write(self._fd, 1)
        else:
            assert self.latch is not None
            self.latch.release()

    def sleep(self, timeout: float | None) -> bool:
        """Wait up to ``timeout`` seconds (None: until woken, which must be on its way) for :meth:`wake`."""
        if self._fd is None:
            assert self.latch is not None
            return self.latch.acquire(timeout=-1 if timeout is None else timeout)
        while True:
            if not self._poller.poll(None if timeout is None else timeout * 1000):
                return False
            try:
                os.eventfd_read(self._fd)
                return True
            except BlockingIOError:  # not ours to take after all (never expected): wait on
                continue

    def close(self) -> None:
        """Release the eventfd (the worker ends)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _eventfd_wakes() -> bool:
    """Whether idle workers can sleep on an eventfd: Linux, and threads of the operating system.

    gevent's greenlets sleep on its patched locks (an eventfd read would block every greenlet of
    the thread); eventlet, which the SDK does not otherwise know, takes the lock too, to be safe.
    """
    return hasattr(os, "eventfd") and hasattr(select, "poll") and "eventlet" not in sys.modules and not green_threads()


class WorkerPool:
    """Runs jobs on at most ``max_workers`` threads named ``<name>-<n>``.

    A job submitted while a thread is idle is handed to it directly (the one idle most
    recently): one thread wake-up, on the lock that thread sleeps on, made after the
    pool's lock is let go. Jobs beyond ``max_workers`` wait for a free thread, queued
    per owner (a session): free threads take the owners' jobs in turn, so one session
    with a long queue does not make every other session wait behind it.
    """

    def __init__(self, max_workers: int, name: str = "mcp-http-worker", idle_timeout: float = 30.0) -> None:
        if max_workers < 1:
            raise ValueError("max_workers must be at least 1")
        self.max_workers = max_workers
        self.name = name
        self.idle_timeout = idle_timeout
        self._lock = threading.Lock()
        self._pending: dict[t.Hashable, collections.deque[Job]] = {}  # owners in turn order; empty while one is idle
        self._idle: list[_Idle] = []  # the most recently idle last
        self._threads: set[threading.Thread] = set()
        self._wakers: set[_Idle] = set()  # every live worker's, idle or busy: a forked child closes them all
        self._numbers = itertools.count(1)
        self._closed = False
        self._eventfd = _eventfd_wakes()
        _POOLS.add(self)

    def submit(self, job: Job, owner: t.Hashable = None) -> None:
        """Run ``job()`` on a pool thread, in turn with other owners' jobs.

        :raises TransportError: the pool is closed.
        """
        with self._lock:
            if self._closed:
                raise TransportError("The transport is closed")
            if self._idle:
                idle = self._idle.pop()
                idle.job = job
            else:
                idle = None
                self._pending.setdefault(owner, collections.deque()).append(job)
                if len(self._threads) < self.max_workers:
                    thread = threading.Thread(target=self._work, name=f"{self.name}-{next(self._numbers)}", daemon=True)
                    self._threads.add(thread)
                    thread.start()
        if idle is not None:
            idle.wake()

    def grow(self, max_workers: int) -> None:
        """Allow up to ``max_workers`` threads from now on (a smaller number changes nothing)."""
        with self._lock:
            self.max_workers = max(self.max_workers, max_workers)

    @property
    def thread_count(self) -> int:
        """Threads alive now."""
        with self._lock:
            return len(self._threads)

    def _queued_job(self) -> Job | None:
        """The next queued job in turn, if any (under the lock)."""
        if not self._pending:
            return None
        owner = next(iter(self._pending))
        jobs = self._pending.pop(owner)
        job = jobs.popleft()
        if jobs:
            self._pending[owner] = jobs  # back in line, behind the other owners
        return job

    def _next_job(self, idle: _Idle) -> Job | None:
        """The next job: a queued one, else one handed over within ``idle_timeout``; None to end the thread."""
        with self._lock:
            if self._pending:
                return self._queued_job()
            if self._closed:
                return None
            self._idle.append(idle)
        if not idle.sleep(self.idle_timeout):
            with self._lock:
                if idle in self._idle:  # nothing was handed over: end
                    self._idle.remove(idle)
                    return None
            idle.sleep(None)  # handed over just now: woken at once
        job, idle.job = idle.job, None
        return job  # None: the pool closed

    def _work(self) -> None:
        idle = _Idle(self._eventfd)
        with self._lock:
            self._wakers.add(idle)
        try:
            while True:
                job = self._next_job(idle)
                if job is None:
                    return
                try:
                    job()
                except BaseException:  # jobs report their own errors; never lose the thread silently
                    logger.exception("MCP HTTP worker job failed")
                del job
        finally:
            with self._lock:
                self._threads.discard(threading.current_thread())
                self._wakers.discard(idle)
            idle.close()  # no wake() can come now: it is in no list of idle workers

    def forget_threads(self) -> None:
        """In a child process just forked: the parent's threads do not exist here, and the jobs queued
        and the workers' eventfds are the parent's (a wake written here would wake a parent's
        worker). Start afresh: the next job starts a thread of this process."""
        self._lock = threading.Lock()
        wakers, self._wakers = self._wakers, set()
        for worker in wakers:  # idle or busy at the fork: no thread of this process will use it
            worker.close()  # this process's copy of the descriptor; the parent's worker sleeps on
        self._idle = []
        self._threads = set()
        self._pending = {}

    def close(self, timeout: float = 5.0) -> None:
        """Stop the threads: each finishes the queued jobs, then ends; waits up to ``timeout`` seconds in all."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            threads = list(self._threads)
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.wake()  # no job: the thread ends
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
            if thread.is_alive():
                logger.warning("MCP HTTP worker %s still busy after close(); left running", thread.name)


#: Every pool of this process, for the child of a fork (see :meth:`WorkerPool.forget_threads`).
_POOLS: weakref.WeakSet[WorkerPool] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for pool in list(_POOLS):
        pool.forget_threads()


if hasattr(os, "register_at_fork"):  # Windows does not fork
    os.register_at_fork(after_in_child=_after_fork_in_child)


__all__ = ["WorkerPool"]
