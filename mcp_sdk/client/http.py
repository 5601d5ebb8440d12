"""The Streamable HTTP client transport, on a ``requests.Session``.

https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http

Why one module: it is one class, the transport of one connection, whose methods share its
session, its listener thread and its waiters; reading a response's body and the headers it
sends already live in :mod:`.http_reading` and :mod:`.headers`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
import typing as t

import requests

from .. import error_codes, json_rpc, methods
from ..cancellation import Cancellation
from ..errors import CancelledError, MCPError, RequestTimeoutError, SessionExpiredError, TransportError
from . import http_origin
from .exceptions import ServerBusyError, ValidationError, retry_after_seconds
from .http_reading import STREAM_ERRORS, ResponseReader
from .http_streams import CurrentRead, OpenStreams, abort, is_event_stream, retry_after
from .oauth.authorization_errors import InsecureURLError
from .transport import Message, PendingRequests, Transport, Waiter

if t.TYPE_CHECKING:
    from .oauth import OAuthClient

logger = logging.getLogger("mcp_sdk.client.http")

#: Bytes at most read of an HTTP error's body.
_ERROR_BODY_BYTES = 65536
#: Shortest delay before reopening the standalone stream, in seconds.
_MIN_RETRY = 0.1
#: A standalone stream open this long (or bringing a new event id) was worth reopening.
_FRUITFUL_SECONDS = 1.0
#: The shortest ``retry`` (seconds) of a server's polling (SEP-1699) followed without end: a
#: stream closed for a poll at a faster cadence, with nothing new, counts as fruitless.
_POLL_FLOOR = 0.5


class HTTP(Transport):
    """Talks to an MCP server over Streamable HTTP.

    Requests are ``POST``\\ ed with ``Accept: application/json, text/event-stream``;
    a JSON body or an SSE stream is read, and progress, log messages and
    server-to-client requests on the stream are handled as they arrive (a
    server request is answered by ``POST``\\ ing the response). After
    ``initialize``, ``Mcp-Session-Id`` and ``MCP-Protocol-Version`` go on every
    request; after ``notifications/initialized`` a named background thread
    keeps the standalone ``GET`` stream open for server-initiated messages,
    unless the server refuses it (405). A stream that ends before its response
    is resumed with ``GET`` + ``Last-Event-ID`` after the server's ``retry``
    interval (SEP-1699).

    :param url: the MCP endpoint.
    :param headers: headers sent on every request (e.g. ``Authorization``).
    :param oauth: a :class:`mcp_sdk.client.oauth.Provider`,
        ``ClientCredentialsProvider`` or ``CrossAppAccessProvider``; requests then carry its bearer token,
        and a 401 (or an ``insufficient_scope`` 403) runs the authorization
        flow and retries the request once.
    :param timeout: seconds to connect, and to wait for each read of a response.
    :param session: a ``requests.Session`` to use (its adapters, proxies,
        certificates); by default one of its own, closed by :meth:`close`.
    :param standalone_stream: whether to open the standalone ``GET`` stream.
    :param max_reconnects: consecutive fruitless reconnections allowed per stream.
    :param max_message_bytes: the largest JSON body or SSE event accepted from the
        server; past it the call fails with :class:`Client.ValidationError` at once,
        without reading the rest, so a misbehaving server cannot exhaust memory.
    """

    #: Raised when an OAuth-protected request would go to another URL than the MCP one
    #: (Ruby's ``MCP::Client::HTTP::InsecureURLError``).
    InsecureURLError: t.TypeAlias = InsecureURLError

    def __init__(
        self,
        url: str,
        headers: t.Mapping[str, str] | None = None,
        oauth: t.Any = None,
        timeout: float = 60.0,
        session: requests.Session | None = None,
        *,
        standalone_stream: bool = True,
        max_reconnects: int = 5,
        max_message_bytes: int = 64 * 1024 * 1024,
    ) -> None:
        self.url = url
        self.headers = dict(headers or {})
        self.timeout = timeout
        self.standalone_stream = standalone_stream
        self.max_reconnects = max_reconnects
        self.max_message_bytes = max_message_bytes
        self._own_session = session is None
        self.session = session if session is not None else requests.Session()
        #: ``Mcp-Session-Id`` from the ``initialize`` response (None: stateless server).
        self.session_id: str | None = None
        #: The negotiated version, sent as ``MCP-Protocol-Version``.
        self.protocol_version: str | None = None
        self.oauth: OAuthClient | None = None
        if oauth is not None:
            from .oauth import OAuthClient  # lazily: most servers need no OAuth

            self.oauth = OAuthClient(oauth, url, self.session)
        self._pending = PendingRequests()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._streams = OpenStreams(url)
        self._reader = ResponseReader(self, self._stop, self._received)
        #: The open POST of each 2026-07-28 request, so cancelling it can close its stream.
        self._posts: dict[Waiter, requests.Response] = {}
        self._listener: threading.Thread | None = None
        self._listener_running = False
        self._listening = False

    def replica(self) -> HTTP:
        """A new transport to the same endpoint with the same settings and none of this one's session
        state (see :meth:`Transport.replica`): no ``Mcp-Session-Id``, and a ``requests.Session`` of its own
        with this one's headers, auth, proxies and TLS settings but not its cookies or mounted adapters.
        It shares this one's OAuth client: the bearer token is the same upstream identity.
        """
        session = requests.Session()
        session.headers.clear()
        session.headers.update(self.session.headers)
        session.auth, session.proxies = self.session.auth, dict(self.session.proxies)
        session.verify, session.cert, session.trust_env = self.session.verify, self.session.cert, self.session.trust_env
        session.max_redirects = self.session.max_redirects
        replica = HTTP(self.url, self.headers, None, self.timeout, standalone_stream=self.standalone_stream,
                       max_reconnects=self.max_reconnects, max_message_bytes=self.max_message_bytes)
        replica.session.close()
        replica.session, replica.oauth = session, self.oauth
        return replica

    # -- the Transport interface ---------------------------------------------

    cancels_by_closing_stream = True
    carries_headers = True

    def era_key(self) -> str:
        """The MCP endpoint URL: the client remembers the server's protocol era under it."""
        return f"http:{self.url}"

    def auth_context(self) -> str | None:
        """A digest of the credentials requests carry now (None without any): ``private`` cache entries stay per context."""
        credentials = [self.headers.get("Authorization", "")]
        if self.oauth is not None:
            credentials.append(self.oauth.auth_headers().get("Authorization", ""))
        joined = "\n".join(credentials)
        return hashlib.sha256(joined.encode("utf-8")).hexdigest() if joined.strip() else None

    def send_request(
        self,
        request: Message,
        *,
        timeout: float | None = None,
        cancellation: Cancellation | None = None,
        headers: t.Mapping[str, str] | None = None,
    ) -> Message:
        """``POST`` ``request`` and return its response (see :meth:`Transport.send_request`).

        :param timeout: seconds for each read; defaults to the transport's ``timeout``.
        :param headers: extra headers for this request (the 2026-07-28 ``MCP-Protocol-Version``,
            ``Mcp-Method``, ``Mcp-Name``, ``Mcp-Param-*``). With them, a cancelled request
            is cancelled by closing its stream.
        :raises SessionExpiredError: the server answered 404 to this session.
        :param request: a complete JSON-RPC request object (with ``id``).
        :param cancellation: when cancelled before the response arrives, stop waiting and raise
            :class:`~mcp_sdk.CancelledError`.
        :returns: the JSON-RPC response object (``result`` or ``error``).
        """
        waiter = self._pending.add(request)
        current = CurrentRead()
        try:
            if cancellation is None:
                self._exchange(request, waiter, timeout, headers=headers)
            else:
                # A blocking read cannot watch a token: post from a worker, wait here.
                worker = threading.Thread(
                    target=self._exchange_quietly,
                    args=(request, waiter, timeout, current, headers),
                    name=f"mcp-client-http-request-{str(request.get('id'))[:100]}",
                    daemon=True,
                )
                worker.start()
            # Either path settles the waiter: the exchange ends in a response or an
            # error within its read timeouts, or the cancellation fires first.
            response = waiter.wait(None, cancellation)
        except CancelledError:
            if headers is not None:
                self._abort_post(waiter)
            raise
        finally:
            self._pending.remove(waiter)
            current.abandon()  # a cancelled call's worker stops reading (and its thread ends) now
            with self._lock:
                self._posts.pop(waiter, None)
        if request.get("method") == methods.INITIALIZE:
            result = response.get("result")
            if isinstance(result, dict) and isinstance(result.get("protocolVersion"), str):
                self.protocol_version = result["protocolVersion"]
        return response

    def send_notification(self, notification: Message) -> None:
        """``POST`` ``notification`` (or a response to a server request); any 2xx will do (``202`` is usual).

        :param notification: a JSON-RPC notification, or a response to a server-to-client request.
        """
        response = self._http("POST", body=notification, stream=False, timeout=None)
        try:
            self._check_status(response, "POST", None)
        finally:
            response.close()
        if notification.get("method") == methods.NOTIFICATIONS_INITIALIZED and self.standalone_stream:
            self._start_listener()

    def close(self) -> None:
        """Stop the threads, end the session with ``DELETE``, close the connection pool. Idempotent."""
        streams = self._streams.close()
        if streams is None:
            return
        with self._lock:
            listener = self._listener
        self._stop.set()
        self._pending.fail_all(TransportError(f"HTTP transport for {self.url} is closed"))
        for response in streams:
            abort(response)
        if listener is not None:
            listener.join(5.0)
        if self.session_id is not None:
            try:
                response = self._http("DELETE", stream=False, timeout=5.0, closing=True)
                response.close()
            except MCPError as error:  # the session dies with the server anyway
                logger.debug("DELETE %s failed: %s", self.url, error)
            self.session_id = None
        if self._own_session:
            self.session.close()

    # -- one request ---------------------------------------------------------

    def _abort_post(self, waiter: Waiter) -> None:
        """Close the stream of ``waiter``'s POST: the 2026-07-28 way to cancel a request."""
        with self._lock:
            response = self._posts.pop(waiter, None)
        if response is not None:
            abort(response)

    def _exchange_quietly(
        self,
        request: Message,
        waiter: Waiter,
        timeout: float | None,
        current: CurrentRead,
        headers: t.Mapping[str, str] | None = None,
    ) -> None:
        try:
            self._exchange(request, waiter, timeout, current, headers)
        except BaseException as error:  # handed to the waiting caller
            waiter.fail(error)

    def _exchange(
        self,
        request: Message,
        waiter: Waiter,
        timeout: float | None,
        current: CurrentRead | None = None,
        headers: t.Mapping[str, str] | None = None,
    ) -> None:
        """POST ``request`` and read until ``waiter`` has its response (resuming the stream if needed)."""
        last_id: str | None = None
        retry = 1.0
        # A caller's own timeout bounds the whole exchange (a stream of keep-alives
        # or of reconnections included); the transport's default bounds each read.
        deadline = None if timeout is None else time.monotonic() + timeout
        response = self._http("POST", body=request, headers=headers, stream=True, timeout=timeout)
        if headers is not None:
            with self._lock:
                self._posts[waiter] = response
        with self._streams.tracking(response, current):
            error_response = self._check_status(response, "POST", request)
            if error_response is not None:
                waiter.resolve(error_response)
                return
            if request.get("method") == methods.INITIALIZE:
                self.session_id = response.headers.get("Mcp-Session-Id") or None
            content_type = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
            if response.status_code == 202:
                pass  # the response will come on the standalone stream
            elif content_type == "text/event-stream":
                last_id, retry, _ = self._reader.read_stream(response, waiter, last_id, retry, timeout, deadline)
            elif content_type == "application/json":
                self._reader.read_json(response, waiter, timeout, deadline)
            else:
                raise ValidationError(
                    f"POST {self.url} answered {request.get('method')} with Content-Type {content_type or 'none'!r}"
                )
        if not waiter.done():
            self._resume(request, waiter, timeout, deadline, current, last_id, retry)

    def _resume(
        self,
        request: Message,
        waiter: Waiter,
        timeout: float | None,
        deadline: float | None,
        current: CurrentRead | None,
        last_id: str | None,
        retry: float,
    ) -> None:
        """Read on after the POST's stream ended without ``waiter``'s response: resume it with ``GET``
        + ``Last-Event-ID`` after ``retry`` seconds, up to ``max_reconnects`` fruitless attempts in
        a row (without an event id, wait for the response on the standalone stream, if open)."""
        attempts = 0
        pause = retry
        while not waiter.done():
            if last_id is None:
                if self._listening:
                    waiter.wait(self._read_timeout(timeout) if deadline is None else _remaining(deadline))
                    return
                raise TransportError(
                    f"POST {self.url}: the server ended the response to {request.get('method')} without answering"
                )
            if attempts >= self.max_reconnects:
                raise TransportError(f"GET {self.url}: gave up resuming the stream after {attempts} attempts")
            attempts += 1
            self._pause_before_resuming(request, pause, timeout, deadline)
            pause = retry
            resumed = self._resumed_stream(last_id, timeout, deadline)
            if resumed is None:  # the connection failed: try again after `retry`, as one attempt
                continue
            with self._streams.tracking(resumed, current):
                refused = retry_after(resumed)
                if refused is not None:  # not now (409, 429, 503): as asked, as one attempt
                    pause = max(retry, refused)
                    continue
                self._check_status(resumed, "GET", None)
                if not is_event_stream(resumed):
                    raise TransportError(f"GET {self.url} (resuming after event {last_id}) did not return an event stream")
                seen = last_id
                last_id, retry, polled = self._reader.read_stream(resumed, waiter, last_id, retry, timeout, deadline)
                if last_id != seen or (polled and retry >= _POLL_FLOOR):  # progress, or the server's polling (SEP-1699)
                    attempts = 0

    def _pause_before_resuming(self, request: Message, pause: float, timeout: float | None, deadline: float | None) -> None:
        """Wait ``pause`` seconds (no longer than a read's timeout, or than the call has left).

        :raises TransportError: the transport closed meanwhile.
        :raises RequestTimeoutError: the call's own timeout passed.
        """
        if self._stop.wait(min(pause, self._read_timeout(timeout)) if deadline is None else min(pause, _remaining(deadline))):
            raise TransportError(f"HTTP transport for {self.url} is closed")
        if deadline is not None and _remaining(deadline) <= 0:
            raise RequestTimeoutError(f"{request.get('method')} got no response within {timeout:g} seconds")

    def _resumed_stream(self, last_id: str, timeout: float | None, deadline: float | None) -> requests.Response | None:
        """``GET`` the stream again from after event ``last_id``; None when the connection failed
        (a server process that died with it kept alive, say: the events are in the server's store)."""
        try:
            return self._http(
                "GET",
                headers={"Accept": "text/event-stream", "Last-Event-ID": last_id},
                stream=True,
                timeout=timeout if deadline is None else max(_remaining(deadline), 0.01),
            )
        except RequestTimeoutError:
            raise
        except TransportError as error:
            if self._streams.closed:
                raise
            logger.debug("resuming after event %s from %s failed: %s", last_id, self.url, error)
            return None

    def _received(self, message: t.Any) -> None:
        self.route_incoming(message, self._pending, self.send_notification, self.url)

    # -- the standalone GET stream -------------------------------------------

    def _start_listener(self) -> None:
        with self._lock:
            if self._streams.closed or self._listener_running:
                return
            self._listener_running = True
            ready = threading.Event()
            listener = self._listener = threading.Thread(
                target=self._listen, args=(ready,), name=f"mcp-client-http-listener-{self.url}", daemon=True
            )
        listener.start()
        # Wait for the stream's headers: a server may hand the stream whatever
        # is pending when it opens, so it must be in place before the next request.
        ready.wait(self.timeout)

    def _listen(self, ready: threading.Event) -> None:
        try:
            self._listen_loop(ready)
        except MCPError as error:  # closed meanwhile, or the stream cannot be had
            logger.debug("standalone stream from %s ended: %s", self.url, error)
        finally:
            self._listening = False
            with self._lock:
                self._listener_running = False
            ready.set()

    def _listen_loop(self, ready: threading.Event) -> None:
        last_id: str | None = None
        retry = 1.0
        failures = 0
        while not self._stop.is_set():
            headers = {"Accept": "text/event-stream"}
            if last_id is not None:
                headers["Last-Event-ID"] = last_id
            try:
                response = self._http("GET", headers=headers, stream=True, timeout=None, listen=True)
            except MCPError as error:
                ready.set()
                failures += 1
                if self._retry_listening(failures, max(retry, _MIN_RETRY), error):
                    continue
                return
            with self._streams.tracking(response):
                refused = retry_after(response)
                if refused is not None:
                    # Not now (409: the stream is still held by a connection the server has not seen
                    # close, as when the process holding it died; 429, 503: busy): as asked, as a failure.
                    ready.set()
                    failures += 1
                    if self._retry_listening(failures, max(retry, refused, _MIN_RETRY), f"HTTP {response.status_code}"):
                        continue
                    return
                if response.status_code != 200 or not is_event_stream(response):
                    # 405: the server offers no stream; anything else: it cannot, here.
                    log = logger.debug if response.status_code == 405 else logger.info
                    log("no standalone stream from %s (HTTP %s)", self.url, response.status_code)
                    return
                self._listening = True
                ready.set()
                seen, opened, polled = last_id, time.monotonic(), False
                try:
                    last_id, retry, polled = self._reader.read_stream(response, None, last_id, retry, None)
                except MCPError as error:
                    logger.debug("standalone stream from %s broke: %s", self.url, error)
            self._listening = False
            # A stream that ends at once with nothing new is fruitless: never reconnect in a tight loop.
            # One the server ended for the client to poll (SEP-1699) is not: it comes back after `retry`.
            if last_id != seen or (polled and retry >= _POLL_FLOOR) or time.monotonic() - opened >= _FRUITFUL_SECONDS:
                failures = 0
            else:
                failures += 1
            if not self._retry_listening(failures, max(retry, _MIN_RETRY), "it keeps ending at once"):
                return

    def _retry_listening(self, failures: int, delay: float, why: t.Any) -> bool:
        """Whether to open the standalone stream again, after ``failures`` fruitless tries in a row
        (none: it was worth it): after ``delay`` seconds times those tries, unless they passed
        ``max_reconnects`` (logged with ``why``) or the transport closed meanwhile."""
        if failures > self.max_reconnects:
            logger.warning("standalone stream from %s given up: %s", self.url, why)
            return False
        return not self._stop.wait(delay * max(failures, 1))

    # -- HTTP plumbing -------------------------------------------------------

    def _http(
        self,
        method: str,
        *,
        body: Message | None = None,
        headers: t.Mapping[str, str] | None = None,
        stream: bool,
        timeout: float | None,
        listen: bool = False,
        closing: bool = False,
    ) -> requests.Response:
        """Send one HTTP request with the session headers, auth, one OAuth retry and one DPoP nonce retry."""
        if self._streams.closed and not closing:
            raise TransportError(f"HTTP transport for {self.url} is closed")
        all_headers = self._request_headers(body is not None, headers)
        data = json_rpc.encode(body).encode("utf-8") if body is not None else None
        # An idle standalone stream is normal; reconnect after a long silence instead of failing.
        read_timeout = 300.0 if listen else self._read_timeout(timeout)
        oauth = self.oauth
        flow_retried = nonce_retried = False
        while True:
            if oauth is not None:
                all_headers.pop("DPoP", None)
                all_headers.update(oauth.auth_headers(method, self.url))
            try:
                response = http_origin.send(
                    self.session, method, self.url, data, all_headers, stream, (self.timeout, read_timeout), oauth
                )
            except requests.RequestException as error:
                self._send_failed(method, error, closing)
            if oauth is not None:
                # A DPoP nonce challenge (RFC 9449 section 9) is retried once, apart from the one OAuth flow retry.
                if oauth.wants_nonce_retry(response) and not nonce_retried:
                    nonce_retried = True
                    response.close()
                    continue
                try:
                    retry = oauth.handle_response(response, wait=read_timeout)
                except BaseException:
                    response.close()
                    raise
                if retry and not flow_retried:
                    flow_retried = True
                    response.close()
                    continue
            return response

    def _request_headers(self, has_body: bool, headers: t.Mapping[str, str] | None) -> dict[str, str]:
        """The headers of a request: the transport's own, the session's, then ``headers``."""
        all_headers = dict(self.headers)
        if has_body:
            all_headers["Content-Type"] = "application/json"
            all_headers["Accept"] = "application/json, text/event-stream"
        if self.session_id is not None:
            all_headers["Mcp-Session-Id"] = self.session_id
        if self.protocol_version is not None:
            all_headers["MCP-Protocol-Version"] = self.protocol_version
        if headers:
            all_headers.update(headers)
        return all_headers

    def _send_failed(self, method: str, error: requests.RequestException, closing: bool) -> t.NoReturn:
        """Raise what a request that ``requests`` could not send means (called handling ``error``).

        :raises TransportError: the transport closed meanwhile, or the connection failed.
        :raises RequestTimeoutError: the server did not answer in time.
        """
        if self._streams.closed and not closing:
            raise TransportError(f"HTTP transport for {self.url} is closed") from None
        if isinstance(error, requests.Timeout):
            raise RequestTimeoutError(f"{method} {self.url} timed out: {error}") from error
        raise TransportError(f"{method} {self.url} failed: {error}") from error

    def _check_status(self, response: requests.Response, method: str, request: Message | None) -> Message | None:
        """Raise for an HTTP error; return a JSON-RPC error response the body carries for ``request``."""
        status = response.status_code
        if status < 400:
            return None
        if status == 404 and self.session_id is not None:
            expired, self.session_id = self.session_id, None
            self.protocol_version = None
            raise SessionExpiredError(
                f"{method} {self.url}: session {expired} has expired or is unknown to the server (HTTP 404); call connect()"
                " to start a new one. If it happens again at once, the server most likely runs several processes"
                " without a shared session store (gunicorn -w N): it should run one process with threads, route each"
                " session to its process, or use stateless=True"
            )
        body: t.Any = None
        text = ""
        try:
            # An error body only explains the error: a little of it is enough.
            raw = self._reader.body(response, _ERROR_BODY_BYTES)
            text = raw.decode("utf-8", "replace")
            body = json.loads(raw)
        except (*STREAM_ERRORS, RecursionError):
            pass
        if status in _BUSY and request is not None:  # a refused request, to be tried later (not resent at once)
            raise _busy_error(response, body, f"{method} {self.url}")
        if request is not None and type(body) is dict and isinstance(body.get("error"), dict):
            body_id = body.get("id")
            if body_id is None or (json_rpc.is_valid_id(body_id) and body_id == request.get("id")):
                return {**body, "id": request.get("id")}
        snippet = text[:300].strip() if body is None else json.dumps(body)[:300]
        raise TransportError(f"{method} {self.url} failed: HTTP {status} {response.reason}" + (f": {snippet}" if snippet else ""))

    def _read_timeout(self, timeout: float | None) -> float:
        return self.timeout if timeout is None else timeout

    def __repr__(self) -> str:
        return f"<HTTP {self.url!r} session={self.session_id!r}>"


#: HTTP statuses of a server refusing for now (:class:`ServerBusyError`).
_BUSY = frozenset({429, 503})


def _busy_error(response: requests.Response, body: t.Any, what: str) -> ServerBusyError:
    """The error for a request the server refused for now (429, 503): the JSON-RPC error its
    body carries, if any, and when to try again; ``what`` is ``"METHOD URL"``."""
    error = body.get("error") if type(body) is dict else None
    error = error if isinstance(error, dict) else {}
    message = error.get("message")
    code = error.get("code")
    return ServerBusyError(
        message if isinstance(message, str) else f"{what}: HTTP {response.status_code} {response.reason}",
        code if isinstance(code, int) and not isinstance(code, bool) else error_codes.INVALID_REQUEST,
        error.get("data"),
        status=response.status_code,
        retry_after=retry_after_seconds(response.headers.get("Retry-After")),
    )


def _remaining(deadline: float) -> float:
    return max(deadline - time.monotonic(), 0.0)


__all__ = ["HTTP"]
