"""A server's lifespan: startup and shutdown code around serving, once per process.

``Server(lifespan=fn)`` takes ``fn(server)`` returning a context manager (a generator function
is wrapped with :func:`contextlib.contextmanager`). It is entered when the first transport of the
process starts serving and exited when the last one stops, or at interpreter exit; what it
yields is ``server_context.lifespan`` in every handler. This is the official Python SDK's and
FastMCP's ``lifespan``, synchronous.

Transports hold it: :class:`~mcp_sdk.server.transports.StdioTransport` from ``open()`` to the
end of its loop; :class:`~mcp_sdk.server.transports.StreamableHTTPTransport` from its first
request to ``close()``. Entering on the first request, not at construction, is what makes it
once per *worker* under gunicorn (and any pre-forking server): an app built in the master
(``--preload``) is forked before it serves, and a process that forked starts with no lifespan
of its own (the parent's value is not carried over, nor exited twice). Anything may hold it
too: ``server.lifespan.enter(holder)`` in gunicorn's ``post_worker_init`` starts it before the
first request, or keeps it across transports built per request.
"""

from __future__ import annotations

import atexit
import contextlib
import inspect
import os
import threading
import typing as t
import weakref

from ..errors import MCPError

#: How long a request waits for another thread that is entering the lifespan (seconds).
STARTUP_TIMEOUT = 60.0

LifespanFactory = t.Callable[[t.Any], t.ContextManager[t.Any]]


class LifespanError(MCPError, RuntimeError):
    """The lifespan could not be entered (its startup raised, or another thread's startup did
    not finish within :data:`STARTUP_TIMEOUT`)."""


class Lifespan:
    """The lifespan of one server in this process (the server's :attr:`~mcp_sdk.Server.lifespan`).

    :param factory: ``fn(server)`` returning a context manager, a generator function taking
        the server, or None (then entering does nothing and :attr:`value` stays None).
    :param server: given to ``factory``; its ``report_exception`` gets shutdown errors.
    :raises TypeError: ``factory`` is neither callable nor None.
    """

    def __init__(self, factory: LifespanFactory | None, server: t.Any) -> None:
        if factory is not None and not callable(factory):
            raise TypeError(f"lifespan takes fn(server) returning a context manager, not {factory!r}")
        if factory is not None and inspect.isgeneratorfunction(factory):
            factory = contextlib.contextmanager(factory)
        self.factory = factory
        self.server = server
        self._lock = threading.Lock()
        self._holders: set[int] = set()
        self._manager: t.ContextManager[t.Any] | None = None  # set while running
        self._value: t.Any = None
        self._attempt: threading.Event | None = None  # set while a thread runs the startup
        self._at_exit_registered = False
        #: Counts the times the lifespan let go of every holder at once (it exited, or a forked child
        #: forgot its parent's): a holder that entered it in an earlier generation holds it no more.
        #: A transport reads it to enter once, not on every request.
        self.generation = 0
        if factory is not None and hasattr(os, "register_at_fork"):  # Windows does not fork
            reset = weakref.WeakMethod(self.reset_after_fork)
            os.register_at_fork(after_in_child=lambda: _call(reset))

    @property
    def value(self) -> t.Any:
        """What the context manager's ``__enter__`` returned, while it runs in this process; else None."""
        return self._value

    def running(self) -> bool:
        """Whether the lifespan is entered in this process."""
        return self._manager is not None

    def enter(self, holder: object) -> t.Any:
        """Hold the lifespan for ``holder``, entering it if no one in this process does; returns
        :attr:`value`. Cheap when ``holder`` holds it already (transports call it per request).

        :raises LifespanError: entering failed (the error is its cause), or another thread's
            startup did not end within :data:`STARTUP_TIMEOUT`; ``holder`` holds nothing then.
        """
        key = id(holder)
        if key in self._holders:
            return self._value
        if self.factory is None:
            return None
        with self._lock:
            self._holders.add(key)
            if self._manager is not None:
                return self._value
            attempt = self._attempt
            first = attempt is None
            if attempt is None:
                attempt = self._attempt = threading.Event()
        if not first:
            return self._wait(attempt, key)
        try:
            manager = self.factory(self.server)
            value = manager.__enter__()  # the user's startup: run without the lock
        except BaseException as error:
            with self._lock:
                self._attempt = None
                self._holders.discard(key)
            attempt.set()
            raise LifespanError(f"the server's lifespan failed to start: {error!r}") from error
        with self._lock:
            self._manager, self._value, self._attempt = manager, value, None
            register = not self._at_exit_registered
            self._at_exit_registered = True
        attempt.set()
        if register:
            atexit.register(self.exit)
        return value

    def leave(self, holder: object) -> None:
        """Stop holding it for ``holder``; the last holder to leave exits it. Safe to call twice."""
        with self._lock:
            if id(holder) not in self._holders:
                return
            self._holders.discard(id(holder))
            last = not self._holders
        if last:
            self.exit()

    def exit(self) -> None:
        """Exit the lifespan now, whoever holds it (at interpreter exit, or to stop it yourself).

        An error from the shutdown code goes to the server's ``report_exception``.
        """
        with self._lock:
            manager = self._manager
            self._manager, self._value = None, None
            self._holders.clear()
            self.generation += 1
        if manager is None:
            return
        try:
            manager.__exit__(None, None, None)
        except Exception as error:
            self.server.report_exception(error, {"lifespan": "exit"})

    def _wait(self, attempt: threading.Event, key: int) -> t.Any:
        """Wait for the thread that runs the startup; its value, or raise when it failed."""
        attempt.wait(STARTUP_TIMEOUT)
        with self._lock:
            if self._manager is not None:
                return self._value
            self._holders.discard(key)
        raise LifespanError("the server's lifespan did not start (its startup failed, or is still running)")

    def reset_after_fork(self) -> None:
        """In a child process just forked: forget the parent's lifespan (it is the parent's to
        exit), so the child enters its own. Registered with :func:`os.register_at_fork`."""
        self._lock = threading.Lock()  # the parent may have held it at the fork
        self._holders = set()
        self._manager, self._value, self._attempt = None, None, None
        self.generation += 1


def _call(method: weakref.WeakMethod[t.Callable[[], None]]) -> None:
    bound = method()
    if bound is not None:
        bound()


__all__ = ["STARTUP_TIMEOUT", "Lifespan", "LifespanError", "LifespanFactory"]
