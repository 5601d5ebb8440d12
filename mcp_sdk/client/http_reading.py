"""Reading what an MCP server answers over Streamable HTTP: a JSON body or an SSE stream.

Each JSON-RPC message read goes to the transport's ``received``; a body or an event
over ``max_message_bytes`` fails the call, so a misbehaving server cannot exhaust memory.
"""

from __future__ import annotations

import json
import logging
import threading
import typing as t

import requests
import urllib3.exceptions

from ..errors import MCPError, RequestTimeoutError, TransportError
from . import sse_parser
from .exceptions import ValidationError
from .http_streams import shorten_reads
from .transport import Waiter

logger = logging.getLogger("mcp_sdk.client.http")

#: What reading a response may raise when the connection breaks (or is aborted).
STREAM_ERRORS = (requests.RequestException, urllib3.exceptions.HTTPError, OSError, ValueError)
#: What decoding untrusted JSON may raise (RecursionError: nested too deep).
_JSON_ERRORS = (ValueError, RecursionError)
#: Longest reconnection delay a server's ``retry`` field may ask for, in seconds.
_MAX_RETRY = 60.0
#: Longest SSE event id kept to send back as ``Last-Event-ID``; a longer one is ignored.
_MAX_EVENT_ID_CHARS = 1024


class Endpoint(t.Protocol):
    """What a :class:`ResponseReader` reads of its transport (:class:`~mcp_sdk.client.http.HTTP`)."""

    #: The MCP endpoint, for error messages.
    url: str
    #: The largest JSON body or SSE event accepted.
    max_message_bytes: int
    #: Seconds to wait for each read when a call gives no timeout of its own.
    timeout: float


class StreamEnd(t.NamedTuple):
    """How an event stream ended: what the client needs to resume it."""

    #: The last event id seen (None: none yet).
    last_id: str | None
    #: Seconds to wait before reconnecting (the server's ``retry``).
    retry: float
    #: The server closed the stream after a bare ``retry`` field: it expects the client to poll.
    polled: bool


class ResponseReader:
    """Reads the responses of one HTTP transport.

    :param endpoint: the transport (its ``url``, ``max_message_bytes`` and ``timeout``).
    :param stop: set when the transport closes: a read broken after that says so.
    :param received: takes each message (or batch) read.
    """

    def __init__(self, endpoint: Endpoint, stop: threading.Event, received: t.Callable[[t.Any], None]) -> None:
        self.endpoint = endpoint
        self.stop = stop
        self.received = received

    def read_json(self, response: requests.Response, waiter: Waiter, timeout: float | None, deadline: float | None) -> None:
        try:
            raw = self.body(response, self.endpoint.max_message_bytes, deadline, setting="max_message_bytes")
        except MCPError:  # over max_message_bytes
            raise
        except sse_parser.DeadlineExceeded:
            raise RequestTimeoutError(f"{self.endpoint.url}: the JSON response did not arrive within {timeout:g} seconds") from None
        except (urllib3.exceptions.ReadTimeoutError, requests.Timeout) as error:
            if deadline is not None:  # the call's own timeout: reads are cut to what is left of it
                raise RequestTimeoutError(f"{self.endpoint.url}: the JSON response did not arrive within {timeout:g} seconds") from None
            raise RequestTimeoutError(
                f"{self.endpoint.url}: no data on the JSON response within {self._read_timeout(timeout):g} seconds"
            ) from error
        except STREAM_ERRORS as error:
            if self.stop.is_set():
                raise TransportError(f"HTTP transport for {self.endpoint.url} is closed") from None
            raise TransportError(f"{self.endpoint.url}: reading the JSON response failed: {error}") from error
        try:
            body = json.loads(raw)
        except (*STREAM_ERRORS, RecursionError) as error:
            raise ValidationError(f"POST {self.endpoint.url} returned a body that is not JSON: {error}") from None
        self.received(body)
        if not waiter.done():
            raise ValidationError(f"POST {self.endpoint.url}: the JSON body holds no response to request {waiter.request_id!r}")

    def body(self, response: requests.Response, limit: int, deadline: float | None = None, setting: str | None = None) -> bytes:
        """The response body, read in pieces and joined once; :class:`Client.ValidationError`
        past ``limit`` bytes, as soon as the declared length or the bytes read so far pass it.

        :param setting: the transport's option that sets ``limit``, named in the error.
        :raises sse_parser.DeadlineExceeded: past ``deadline`` (a ``time.monotonic()`` value), however
            steadily the body trickles in.
        """
        hint = f"; HTTP({setting}=...) sets the limit" if setting else ""
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > limit:
            response.close()
            raise ValidationError(f"{self.endpoint.url} sent a body of {declared} bytes, over the limit of {limit}{hint}")
        pieces: list[bytes] = []
        size = 0
        for piece in sse_parser.read_pieces(response, deadline):
            size += len(piece)
            if size > limit:
                response.close()
                raise ValidationError(f"{self.endpoint.url} sent a body over the limit of {limit} bytes{hint}")
            pieces.append(piece)
        return b"".join(pieces)

    def read_stream(
        self,
        response: requests.Response,
        waiter: Waiter | None,
        last_id: str | None,
        retry: float,
        timeout: float | None,
        deadline: float | None = None,
    ) -> StreamEnd:
        """Handle the events of ``response`` until it ends or ``waiter`` is settled.

        :return: the last event id seen, the reconnection delay in seconds, and whether the
            server ended the stream on purpose for the client to poll (SEP-1699).
        """
        draining = False
        polled = False
        try:
            for event in sse_parser.events(response, deadline, self.endpoint.max_message_bytes):
                # A bare ``retry`` field as the last event: the server closes the connection and
                # the client comes back with Last-Event-ID after that delay (a poll, not a failure).
                polled = event.retry is not None and event.id is None and not event.data
                if event.id is not None:
                    if len(event.id) <= _MAX_EVENT_ID_CHARS:
                        last_id = event.id
                    else:  # never echoed back as a header
                        logger.warning("%s sent an event id of %d characters; ignored", self.endpoint.url, len(event.id))
                if event.retry is not None:
                    retry = min(event.retry / 1000, _MAX_RETRY)
                if event.data.strip():
                    try:
                        message = json.loads(event.data)
                    except _JSON_ERRORS:
                        logger.warning("%s: an event's data is not JSON: %.200r", self.endpoint.url, event.data)
                        continue
                    self.received(message)
                if not draining and waiter is not None and waiter.done():
                    # Read on briefly: the server ends the stream after the
                    # response, and a stream read to its end frees the
                    # connection for the next request.
                    draining = shorten_reads(response)
                    if not draining:
                        break
            else:
                response.raw.release_conn()
        except (sse_parser.EventTooLarge, sse_parser.DeadlineExceeded, urllib3.exceptions.ReadTimeoutError, requests.Timeout, *STREAM_ERRORS) as error:
            self._stream_failed(error, response, draining, timeout)
            polled = False  # the stream ended early: no poll, whatever its last event said
        return StreamEnd(last_id, retry, polled)

    def _stream_failed(self, error: Exception, response: requests.Response, draining: bool, timeout: float | None) -> None:
        """Raise what ``error``, met reading an event stream, means for the call; return when it
        only ends the stream early: a timeout while draining it after the response, or a broken
        connection (the caller may resume after the last event id)."""
        if isinstance(error, sse_parser.EventTooLarge):
            response.close()  # the rest of the event is never read
            raise ValidationError(
                f"{self.endpoint.url}: an SSE event passed the limit of {error.limit} bytes before it ended"
                " (refused without reading the rest; HTTP(max_message_bytes=...) sets the limit)"
            ) from None
        if isinstance(error, sse_parser.DeadlineExceeded):
            if draining:
                return
            raise RequestTimeoutError(
                f"{self.endpoint.url}: no response on the event stream within {timeout:g} seconds"
            ) from None
        if isinstance(error, (urllib3.exceptions.ReadTimeoutError, requests.Timeout)):
            if draining:
                return
            if self.stop.is_set():
                raise TransportError(f"HTTP transport for {self.endpoint.url} is closed") from None
            raise RequestTimeoutError(
                f"{self.endpoint.url}: no data on the event stream within {self._read_timeout(timeout):g} seconds"
            ) from error
        if self.stop.is_set() and not draining:
            raise TransportError(f"HTTP transport for {self.endpoint.url} is closed") from None
        logger.debug("event stream from %s broke: %s", self.endpoint.url, error)

    def _read_timeout(self, timeout: float | None) -> float:
        return self.endpoint.timeout if timeout is None else timeout


__all__ = ["STREAM_ERRORS", "Endpoint", "ResponseReader", "StreamEnd"]
