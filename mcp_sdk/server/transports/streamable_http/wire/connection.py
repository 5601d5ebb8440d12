"""The client's TCP connection, as far as a WSGI application can see it.

WSGI hides the socket, but the common servers put it in the environ (gunicorn's
``gunicorn.socket``, werkzeug's ``werkzeug.socket``, waitress's channel behind
``waitress.client_disconnected``). With it the transport can:

- notice within a second that a client holding an SSE stream went away
  (:func:`disconnect_probe`), instead of at the next keep-alive write;
- stop a client that sends its request body too slowly (:class:`BodyDeadlines`):
  past the deadline the socket's reading side is shut, the blocked read returns,
  and the thread is free again.
"""

from __future__ import annotations

import select
import socket
import threading
import time
import typing as t

from .http_io import HTTPRequestError, content_length, read_body

WSGIEnvironment = t.Dict[str, t.Any]

_PEEK_FLAGS = socket.MSG_PEEK | getattr(socket, "MSG_DONTWAIT", 0)


def client_socket(environ: WSGIEnvironment) -> socket.socket | None:
    """The socket of the client's connection, when the WSGI server exposes it."""
    sock = environ.get("gunicorn.socket") or environ.get("werkzeug.socket")
    if sock is None:
        check = environ.get("waitress.client_disconnected")
        sock = getattr(getattr(check, "__self__", None), "socket", None)
    return sock if isinstance(sock, socket.socket) else None


def peer_closed(sock: socket.socket) -> bool:
    """Whether the peer closed (or reset) the connection; False when unknown.

    Peeks without consuming or blocking: EOF means the client is gone. A TLS
    socket cannot be peeked at and reports False. The peek comes only once the socket is
    readable: gevent's sockets (``gunicorn -k gevent``) wait for data on a read that would
    block, ``MSG_DONTWAIT`` or not.
    """
    try:
        if not _readable(sock):
            return False  # nothing to read: alive
        return sock.recv(1, _PEEK_FLAGS) == b""
    except (BlockingIOError, InterruptedError, ValueError, NotImplementedError):
        return False  # nothing to read (alive), or a socket that cannot peek
    except OSError:
        return True  # reset, or closed under us


def _readable(sock: socket.socket) -> bool:
    """Whether a read would not block now (data, EOF or an error waiting), asked with ``poll``,
    which has no limit on descriptor numbers and which gevent patches."""
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    return bool(poller.poll(0))


def disconnect_probe(environ: WSGIEnvironment) -> t.Callable[[], bool] | None:
    """A callable telling whether the client went away, or None when the server gives no way to know."""
    server_knows = environ.get("waitress.client_disconnected")
    sock = client_socket(environ)
    if sock is None:
        return server_knows if callable(server_knows) else None

    def gone() -> bool:
        if callable(server_knows) and server_knows():
            return True
        return peer_closed(sock)

    return gone


#: One body read under a deadline: the socket it reads from (None: nothing to cut) and its deadline.
BodyWatch = t.Tuple[t.Optional[socket.socket], float]


#: Seconds the deadline thread waits for more reads once none is left, before it ends.
_LINGER = 5.0


class BodyDeadlines:
    """Cuts request-body reads that outlast ``timeout`` seconds, from one ``mcp-http-body-deadline`` thread.

    The thread starts with the first watched read and ends :data:`_LINGER` seconds
    after the last one started (or at :meth:`close`). It sleeps until the earliest deadline
    of the reads in progress and is woken only for a read whose deadline comes sooner than
    that: with one timeout for all, never while reads keep coming, so a read costs no thread
    switch, and only a dict entry (the reads in progress are as many as the WSGI server's
    threads: the thread looks through them when it wakes).

    A read is keyed by its socket: a connection reads one request's body at a time.
    """

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._lock = threading.Lock()  # taken directly per read: `with` on a Condition runs two Python calls
        self._cond = threading.Condition(self._lock)
        self._reading: dict[socket.socket, float] = {}  # the reads in progress: socket -> deadline
        self._cut: set[socket.socket] = set()  # reads the thread cut, until their done()
        self._thread: threading.Thread | None = None
        self._wake_at = 0.0  # when the thread looks next: a sooner deadline must wake it
        self._last_start = 0.0
        self._closed = False

    def watch(self, environ: WSGIEnvironment) -> BodyWatch:
        """Start the deadline of one read; call :meth:`done` after it."""
        sock = environ.get("gunicorn.socket") or environ.get("werkzeug.socket")  # waitress buffers bodies itself
        started = time.monotonic()
        deadline = started + self.timeout
        if not isinstance(sock, socket.socket):
            return None, deadline
        with self._lock:
            if not self._closed:
                self._reading[sock] = deadline
                self._last_start = started
                if self._thread is None:
                    self._thread = threading.Thread(target=self._run, name="mcp-http-body-deadline", daemon=True)
                    self._wake_at = 0.0
                    self._thread.start()
                elif deadline < self._wake_at:
                    self._cond.notify()
        return sock, deadline

    def done(self, watch: BodyWatch) -> bool:
        """The read ended; returns whether it ran past the deadline."""
        sock, deadline = watch
        cut = False
        if sock is not None:
            with self._lock:
                if self._reading.pop(sock, None) is None and sock in self._cut:
                    self._cut.remove(sock)
                    cut = True
        return cut or time.monotonic() > deadline

    def _run(self) -> None:
        while True:
            with self._cond:
                now = time.monotonic()
                if self._closed or (not self._reading and now - self._last_start >= _LINGER):
                    self._thread = None
                    return
                expired = [sock for sock, deadline in self._reading.items() if deadline <= now]
                if not expired:
                    earliest = min(self._reading.values(), default=self._last_start + _LINGER)
                    self._wake_at = earliest
                    self._cond.wait(earliest - now)
                    continue
                for sock in expired:
                    del self._reading[sock]
                    self._cut.add(sock)
            for sock in expired:
                try:
                    sock.shutdown(socket.SHUT_RD)  # the blocked read returns; the answer can still be written
                except OSError:
                    pass

    def close(self) -> None:
        """Stop the thread (reads still running keep their sockets)."""
        with self._cond:
            self._closed = True
            self._reading.clear()
            self._cut.clear()
            thread = self._thread
            self._cond.notify()
        if thread is not None and thread is not threading.current_thread():
            thread.join(5.0)


def read_wsgi_body(environ: WSGIEnvironment, limit: int, deadlines: BodyDeadlines | None) -> bytes:
    """The request body from ``wsgi.input`` (at most ``limit`` bytes), within the deadline if any.

    :raises HTTPRequestError: 408 past the deadline, 413 past ``limit``, 400 for a short body.
    """
    until_eof = bool(environ.get("wsgi.input_terminated"))
    length = content_length(environ)
    if deadlines is None:
        return read_body(environ["wsgi.input"], length, limit, until_eof)
    watch = deadlines.watch(environ)
    try:
        body = read_body(environ["wsgi.input"], length, limit, until_eof)
    except Exception:
        if deadlines.done(watch):
            raise _too_slow(deadlines.timeout) from None
        raise
    if deadlines.done(watch) or (length is not None and len(body) < length):
        raise _too_slow(deadlines.timeout)
    return body


def _too_slow(timeout: float) -> HTTPRequestError:
    return HTTPRequestError(408, f"Request Timeout: the body must arrive within {timeout:g} seconds")


__all__ = ["BodyDeadlines", "BodyWatch", "client_socket", "disconnect_probe", "peer_closed", "read_wsgi_body"]
