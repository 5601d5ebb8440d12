"""The streaming responses an HTTP client transport has open, and the ways to stop reading one.

A thread blocked reading a response wakes only when its socket is shut down from
another thread: :class:`OpenStreams` keeps every open one so :meth:`HTTP.close`
can do that, and :class:`CurrentRead` the one a call's worker is reading, so a
cancelled caller can.
"""

from __future__ import annotations

import threading
import typing as t

import requests

from ..errors import TransportError

#: Seconds to keep reading a POST's event stream after its response, so the
#: connection can go back to the pool when the server ends the stream.
DRAIN_SECONDS = 0.25


class OpenStreams:
    """The open streaming responses of one transport, until it closes. Thread-safe.

    :param url: the transport's MCP endpoint, for error messages.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self._lock = threading.Lock()
        self._responses: set[requests.Response] = set()
        self._closed = False

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has been called."""
        return self._closed

    def add(self, response: requests.Response) -> bool:
        """Keep ``response`` until :meth:`discard`; False (and not kept) once closed."""
        with self._lock:
            if self._closed:
                return False
            self._responses.add(response)
            return True

    def discard(self, response: requests.Response) -> None:
        with self._lock:
            self._responses.discard(response)

    def close(self) -> list[requests.Response] | None:
        """Take no more responses; return the open ones, for the caller to abort (None: closed already)."""
        with self._lock:
            if self._closed:
                return None
            self._closed = True
            return list(self._responses)

    def tracking(self, response: requests.Response, current: CurrentRead | None = None) -> Tracked:
        """A context manager that keeps ``response`` here (and in ``current``) while it is read, and closes it after."""
        return Tracked(self, response, current)


class CurrentRead:
    """The response one call's worker is reading, so the caller can abort it when it leaves (cancelled)."""

    __slots__ = ("_lock", "response", "abandoned")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.response: requests.Response | None = None
        self.abandoned = False

    def set(self, response: requests.Response | None) -> bool:
        """Track ``response`` (None: no longer); False when the caller has already left."""
        with self._lock:
            self.response = response
            return not self.abandoned

    def abandon(self) -> None:
        with self._lock:
            self.abandoned = True
            response = self.response
        if response is not None:
            abort(response)


class Tracked:
    """Registers a streaming response so :meth:`HTTP.close` (or a leaving caller) can abort it; closes it on exit."""

    __slots__ = ("streams", "response", "current")

    def __init__(self, streams: OpenStreams, response: requests.Response, current: CurrentRead | None = None) -> None:
        self.streams = streams
        self.response = response
        self.current = current

    def __enter__(self) -> requests.Response:
        if not self.streams.add(self.response):
            self.response.close()
            raise TransportError(f"HTTP transport for {self.streams.url} is closed")
        if self.current is not None and not self.current.set(self.response):
            self.__exit__()
            raise TransportError(f"{self.streams.url}: the caller left (cancelled)")
        return self.response

    def __exit__(self, *exc_info: t.Any) -> None:
        if self.current is not None:
            self.current.set(None)
        self.streams.discard(self.response)
        self.response.close()


def is_event_stream(response: requests.Response) -> bool:
    """Whether ``response`` is ``text/event-stream``."""
    return response.headers.get("Content-Type", "").split(";")[0].strip().lower() == "text/event-stream"


#: Statuses a server answers a resumption with to say "not now": the stream is still held by a
#: connection it has not seen close (409), or it is busy (429, 503).
_COME_BACK = (409, 429, 503)
#: The longest ``Retry-After`` honoured, in seconds.
MAX_RETRY_AFTER = 60.0


def retry_after(response: requests.Response) -> float | None:
    """Seconds a 409, 429 or 503 with a numeric ``Retry-After`` asks the client to wait before
    trying again (at most :data:`MAX_RETRY_AFTER`); None for any other response."""
    if response.status_code not in _COME_BACK:
        return None
    try:
        seconds = float(response.headers.get("Retry-After", ""))
    except ValueError:
        return None
    return min(max(seconds, 0.0), MAX_RETRY_AFTER) if seconds == seconds else None


def abort(response: requests.Response) -> None:
    """Wake a thread blocked reading ``response`` (closing a socket from another thread does not)."""
    try:
        response.raw.shutdown()
    except (AttributeError, ValueError, RuntimeError, OSError):
        pass


def shorten_reads(response: requests.Response) -> bool:
    """Give the rest of ``response`` a short read timeout; False when the socket is out of reach."""
    try:
        connection = response.raw.connection
        if connection is None or connection.sock is None:
            return False
        connection.sock.settimeout(DRAIN_SECONDS)
    except (AttributeError, OSError):
        return False
    return True


__all__ = ["MAX_RETRY_AFTER", "CurrentRead", "OpenStreams", "Tracked", "abort", "is_event_stream", "retry_after", "shorten_reads"]
