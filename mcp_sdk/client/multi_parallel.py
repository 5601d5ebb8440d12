"""One job per server, in parallel, under one deadline: how a :class:`~mcp_sdk.client.multi.MultiServerClient`
connects and lists, so a slow server costs the others nothing and a silent one at most the deadline.

Each job runs in a named daemon thread (a greenlet under gevent's monkey-patching) and gets a
:class:`~mcp_sdk.Cancellation`; a job still running at the deadline is cancelled, which ends a
request waiting for its answer, so its thread ends too.
"""

from __future__ import annotations

import threading
import time
import typing as t

from ..cancellation import Cancellation

_T = t.TypeVar("_T")


class Gathered(t.Generic[_T]):
    """What :func:`gather` found: each job's value, or its error, or that it was late.

    A job counts once: a late job's value or error, if it comes, is dropped.
    """

    def __init__(self) -> None:
        #: Server -> the value its job returned in time.
        self.values: dict[str, _T] = {}
        #: Server -> the exception its job raised in time.
        self.errors: dict[str, Exception] = {}
        #: The servers whose jobs had not ended at the deadline (and were cancelled).
        self.late: list[str] = []


def gather(jobs: t.Mapping[str, t.Callable[[Cancellation], _T]], timeout: float, name: str) -> Gathered[_T]:
    """Run each server's job in its own thread; wait for them all, at most ``timeout`` seconds in all.

    :param jobs: server -> its job, called with a cancellation cancelled at the deadline.
    :param timeout: seconds to wait for all the jobs together.
    :param name: what the jobs do, in their threads' names (``mcp-multi-<name>-<server>``).
    :return: the jobs' values, errors, and the servers that were late.
    """
    gathered: Gathered[_T] = Gathered()
    lock = threading.Lock()  # guards gathered: the threads and the caller's count of the late
    cancellations = {server: Cancellation() for server in jobs}

    def run(server: str, job: t.Callable[[Cancellation], _T]) -> None:
        try:
            value = job(cancellations[server])
        except Exception as error:  # noqa: BLE001 - isolation: a failure is this server's outcome only
            with lock:
                if server not in gathered.late:
                    gathered.errors[server] = error
            return
        with lock:
            if server not in gathered.late:
                gathered.values[server] = value

    threads = [
        threading.Thread(target=run, args=(server, job), name=f"mcp-multi-{name}-{server}", daemon=True)
        for server, job in jobs.items()
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + timeout
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    with lock:
        gathered.late = [server for server in jobs if server not in gathered.values and server not in gathered.errors]
    for server in gathered.late:
        cancellations[server].cancel(f"no answer within {timeout} s")
    return gathered
