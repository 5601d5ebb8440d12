"""Serve MCP over standard input and output: one JSON-RPC message per line.

https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio

Threads (leader/followers). A bounded pool of worker threads serves the
connection; at any moment one of them, the *reader*, holds stdin. The reader
answers quick, order-sensitive messages itself (``initialize``, ``ping``,
``logging/setLevel``, cancellations, responses to server-to-client requests)
and also starts running each other request on its own thread, which saves a
thread hand-off per request. Should that request still be running a couple of
milliseconds later, a watchdog thread hands stdin to an idle worker, which
becomes the reader. So a slow tool never holds up ``ping`` for more than a
few milliseconds, a ``notifications/cancelled`` reaches the tool it cancels,
and a tool waiting on ``sampling/createMessage`` gets its answer; responses can
leave out of order, which JSON-RPC allows. The thread that called
:meth:`StdioTransport.open` only waits, so Ctrl-C reaches it and a tool that
ignores cancellation cannot keep ``open()`` from returning.

Input (:mod:`.line_reader`): bounded chunks cut into lines, a wake-up pipe so
that :meth:`StdioTransport.close` interrupts the reader's wait.

Output (:mod:`.line_writer`). Whole lines only, one writer at a time: a
thread with a line to write while another writes queues it for that writer
(group commit), so no thread waits on another's I/O. The reader holds back its
own answers while more requests are already buffered and writes them together
before it next blocks.

Why one module: it is one class, the leader/followers loop above, whose threads share its
reader token, its pool and its writer; reading and writing lines already live in their own
modules, as does keeping stray ``print()`` calls off stdout (:mod:`.stray_output`).
"""

from __future__ import annotations

import collections
import io
import logging
import queue
import sys
import threading
import time
import typing as t

from .... import error_codes, json_rpc, methods
from ....cancellation import Cancellation
from ...channel import safe_repr
from ...request import Incoming
from .line_reader import LineReader
from .line_writer import LineWriter, discard_output, line_bytes
from .stray_output import StrayOutputToStderr

if t.TYPE_CHECKING:
    from ...session import ServerSession
    from ... import Server

logger = logging.getLogger("mcp_sdk.server.transports.stdio")

#: Seconds between checks of the stop flag while waiting for input or work.
_WAIT_SLICE = 1.0
#: Seconds a request may keep the reader's thread before another thread takes over stdin.
_HANDOFF_AFTER = 0.002
#: Looks in a row (one per hand-off interval) without a new request after which the watchdog
#: parks until the next one: fewer would make every call wake it once calls come a few ms apart.
_WATCHDOG_PARK_AFTER = 5
#: Tells a worker to exit.
_STOP: t.Any = object()
_ID_TYPES = (str, int)


class StdioTransport:
    """Serve a :class:`~mcp_sdk.Server` on stdin/stdout until end of input.

    :param server: the server to serve.
    :param stdin: binary stream to read (default ``sys.stdin.buffer``).
    :param stdout: binary stream to write (default ``sys.stdout.buffer``);
        nothing but JSON-RPC lines is written to it (logs go to the
        ``mcp_sdk.server.transports.stdio`` logger).
    :param max_workers: requests (other than the quick ones) that may run at once.
    :param max_queue: requests that may wait for a free worker; past that a
        request is answered with ``-32603 Server busy``.
    :param max_line_bytes: longest line accepted; a longer one is skipped
        (read in bounded chunks, never held whole) and answered with ``-32600``.
    :param drain_timeout: seconds requests still running at end of input get to
        finish (their responses are written) before they are cancelled, so
        ``printf '...' | python server.py`` answers every line.
    :param shutdown_timeout: seconds :meth:`open` then waits for cancelled
        requests to return; a tool that ignores cancellation is left behind
        on its daemon thread.
    :raises ValueError: for a non-positive size or count.
    """

    def __init__(
        self,
        server: Server,
        *,
        stdin: t.BinaryIO | None = None,
        stdout: t.BinaryIO | None = None,
        max_workers: int = 8,
        max_queue: int = 64,
        max_line_bytes: int = 4 * 1024 * 1024,
        drain_timeout: float = 0.5,
        shutdown_timeout: float = 2.0,
    ) -> None:
        _check_limits(max_workers, max_queue, max_line_bytes, drain_timeout, shutdown_timeout)
        self.server = server
        self.max_workers = max_workers
        self.max_queue = max_queue
        self.drain_timeout = drain_timeout
        self.shutdown_timeout = shutdown_timeout
        self._stdin = stdin
        self._stdout = stdout
        # sys.stdout while open() serves on it (its writes are sent to stderr meanwhile).
        self._process_stdout: t.Any = None
        #: The session of the running :meth:`open` (None before it starts).
        self.session: ServerSession | None = None

        # Guards the thread bookkeeping below; never held across I/O or user code.
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._tasks: queue.SimpleQueue[t.Any] = queue.SimpleQueue()  # reader tokens or _STOP, for idle threads
        self._idle = 0  # idle threads no task has been queued for yet
        self._jobs_running = 0
        self._backlog: collections.deque[Incoming] = collections.deque()
        # Requests queued or running, by id, with the token the session gave when
        # each was read (ServerSession.accept): a cancel that arrives before the
        # request starts still reaches it.
        self._active: dict[t.Any, Cancellation | None] = {}
        # subscriptions/listen requests queued or running, until their answer is written:
        # close() waits for them so that they end with their result.
        self._listening: set[t.Any] = set()
        self._listening_done = threading.Condition(self._lock)
        self._lead_token = 0  # which reader is current; bumped on every hand-over
        self._busy_since: float | None = None  # when the reader started running a request
        self._started = 0  # requests the reader has started running, for the watchdog
        self._watchdog: threading.Thread | None = None
        self._watchdog_parked = False  # waiting for the next request rather than a deadline
        self._watchdog_wake = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._stopping = False  # mirrors _stop for the hot path
        self._finished = threading.Event()  # input over, close() or stdout gone
        self._input_ended = False
        self._closed = False
        self._running = False

        # Output: whole lines, batched, one writing thread at a time.
        self._writer = LineWriter(on_error=self._output_failed, lock=self._lock)  # see _start's claim
        # Input: used only by the thread holding the reader role (wake() and close() excepted).
        self._reader = LineReader(
            max_line_bytes=max_line_bytes,
            stop=self._stop,
            on_too_long=self._too_long,
            before_block=self._writer.flush_deferred,  # answers held back go out before the reader blocks
        )

    @property
    def max_line_bytes(self) -> int:
        """The longest line accepted; a longer one is skipped and answered with ``-32600``."""
        return self._reader.max_line_bytes

    @max_line_bytes.setter
    def max_line_bytes(self, value: int) -> None:
        self._reader.max_line_bytes = value

    # -- public --------------------------------------------------------------

    def open(self) -> None:
        """Serve until end of input or :meth:`close`; then cancel in-flight requests and return.

        A transport serves one connection: once :meth:`close` was called or
        a first ``open()`` returned, ``open()`` returns at once.

        :raises RuntimeError: if this transport is already open.
        :raises LifespanError: the server's lifespan (``Server(lifespan=...)``) failed to start.
        """
        with self._lock:
            if self._running:
                raise RuntimeError("StdioTransport is already open")
            if self._closed:
                return
            self._running = True
        try:
            self.server.lifespan.enter(self)  # the server's startup, before the first message is read
        except BaseException:
            with self._lock:
                self._running = False
            raise
        stdin = _binary(self._stdin if self._stdin is not None else sys.stdin)
        self._process_stdout = sys.stdout if self._stdout is None else None
        self._writer.stream = _binary(self._stdout if self._stdout is not None else sys.stdout)
        # The protocol owns the real stdout now: a print() in a tool goes to stderr.
        guard = StrayOutputToStderr() if self._process_stdout is not None else None
        self.session = self.server.create_session(send=self._send)
        try:
            self._reader.start(stdin)
            with self._lock:
                self._lead_token += 1
                first = self._new_thread(self._lead_token)
            first.start()
            # This thread only waits, so Ctrl-C lands here and a tool that
            # ignores cancellation never keeps open() from returning.
            while not self._finished.wait(_WAIT_SLICE):
                pass
            if self._input_ended and not self._stop.is_set():
                self._drain()
        finally:
            self._shutdown()
            if guard is not None:
                guard.restore()

    def close(self) -> None:
        """Stop :meth:`open` from another thread (or before it starts); safe to call twice.

        Open ``subscriptions/listen`` requests are first ended with their result.
        """
        if not self._closed:
            self.server.close_subscriptions()
            with self._lock:
                self._listening_done.wait_for(lambda: not self._listening, self.shutdown_timeout)
        with self._lock:
            self._closed = True
            self._stopping = True
            self._stop.set()
        self._reader.wake()
        self._finished.set()

    # -- threads ---------------------------------------------------------------

    def _new_thread(self, task: t.Any) -> threading.Thread:
        # Called with self._lock held.
        thread = threading.Thread(
            target=self._serve, args=(task,), name=f"mcp-stdio-worker-{len(self._threads) + 1}", daemon=True
        )
        self._threads.append(thread)
        return thread

    def _serve(self, task: t.Any) -> None:
        """A worker: read stdin while it holds the reader role, otherwise wait for it."""
        tasks = self._tasks
        stop = self._stop
        while task is not _STOP:
            try:
                self._lead(task)
            except BaseException as error:  # without a reader the connection would stall: end it
                logger.exception("stdio reader failed")
                self._end_input()
                if isinstance(error, Exception):
                    return
                raise
            with self._lock:
                self._idle += 1
            while True:
                try:
                    task = tasks.get(timeout=_WAIT_SLICE)
                    break
                except queue.Empty:
                    if stop.is_set():
                        return

    def _watch(self) -> None:
        """Watchdog: give stdin to another thread when the reader runs a request too long.

        It sleeps until the running request's deadline; with none running it looks again one
        hand-off interval later, and after ``_WATCHDOG_PARK_AFTER`` looks in a row without a new
        request it parks until :meth:`_start` wakes it, so an idle server costs no CPU. (A plain
        sleep, one system call, is cheaper than a timed wait on a condition for the short naps.)
        """
        stop = self._stop
        lock = self._lock
        seen = -1
        quiet = 0  # looks in a row without a new request
        while not stop.is_set():
            thread = None
            nap = _HANDOFF_AFTER
            with lock:
                since = self._busy_since
                if since is not None:
                    nap = since + _HANDOFF_AFTER - time.monotonic()
                    if nap <= 0:
                        thread = self._hand_off()
                        nap = 0.0
                elif self._started == seen:
                    quiet += 1
                    if quiet >= _WATCHDOG_PARK_AFTER:  # requests stopped: park until the next
                        self._watchdog_parked = True
                        self._watchdog_wake.wait(_WAIT_SLICE)
                        self._watchdog_parked = False
                        continue  # seen stays: the request that woke it counts as new at the next look
                else:
                    quiet = 0
                seen = self._started
            if thread is not None:
                thread.start()
            if nap > 0:
                time.sleep(nap)

    def _hand_off(self) -> threading.Thread | None:
        """Give the reader role to an idle thread, or return a new one to start (called with self._lock held)."""
        self._busy_since = None
        self._lead_token += 1
        if self._idle:
            self._idle -= 1
            self._tasks.put(self._lead_token)
            return None
        return self._new_thread(self._lead_token)

    # -- reading (see :mod:`.line_reader`) ---------------------------------

    def _lead(self, token: int) -> None:
        """Read and dispatch lines until input ends or the reader role passes to another thread."""
        session = t.cast("ServerSession", self.session)
        needs_worker = session.needs_worker
        receive = self.server.receive
        decode = json_rpc.decode
        next_line = self._reader.next_line
        while True:
            line = next_line()
            if line is None or self._stopping:
                self._end_input()
                return
            try:
                message = decode(line)
            except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
                self._unparsable(line, error)
                continue
            # Read once, here at the edge: its kind, id and era, which the server then takes as read.
            incoming = Incoming(message)
            if self._active and self._refused_as_in_flight(incoming):
                continue
            if needs_worker(message):
                if not self._start(incoming, token, session):
                    return
                continue
            try:
                response = receive(incoming, session)
            except Exception as error:  # a bug must not end the connection
                response = self._internal_error(message, error)
            if response is not None:
                self._write_response(response, defer=self._reader.buffered())

    def _unparsable(self, line: bytes, error: ValueError | RecursionError) -> None:
        """Answer a line that holds no JSON with ``-32700`` (a blank line is allowed, and ignored)."""
        if isinstance(error, UnicodeDecodeError):
            detail = f"invalid UTF-8 at byte {error.start}"
        elif not line.strip():
            return
        else:
            detail = str(error) if isinstance(error, ValueError) else "JSON nested too deeply"
        self._write_message(json_rpc.parse_error(detail), defer=True)

    def _refused_as_in_flight(self, incoming: Incoming) -> bool:
        """Whether ``incoming`` is a request whose id a request still queued or running holds; it
        is then answered with ``-32600``: answering the duplicate must not drop or cancel the first.
        (Only the reader adds to ``_active``, so a hit means that request is still in flight.)"""
        message = incoming.message
        if type(message) is not dict or "method" not in message:
            return False
        request_id = incoming.id
        if type(request_id) not in _ID_TYPES or request_id not in self._active:
            return False
        self._write_message(
            json_rpc.error(
                request_id,
                error_codes.INVALID_REQUEST,
                "Invalid Request: this id is already in use by a request in flight",
            ),
            defer=True,
        )
        return True

    def _end_input(self) -> None:
        self._writer.flush_deferred()
        with self._lock:
            if not self._stop.is_set():
                self._input_ended = True
        self._finished.set()

    def _too_long(self) -> None:
        self._write_message(
            json_rpc.error(
                None,
                error_codes.INVALID_REQUEST,
                f"Invalid Request: message longer than {self.max_line_bytes} bytes",
            ),
            defer=True,
        )

    # -- running requests ------------------------------------------------------

    def _start(self, incoming: Incoming, token: int, session: ServerSession) -> bool:
        """Run (or queue, or refuse) a request read by the reader, then queued requests while any
        wait; return whether this thread still reads. (Running a request stays inline: admitting
        and finishing it are the only frames this costs per request besides the handler's.)"""
        if not self._admit(incoming, session):
            return True
        receive = self.server.receive
        queued = False  # the first request was accepted just now: only a queued one may be cancelled already
        while True:
            request_id = incoming.id
            cancellation = incoming.cancellation
            response: t.Any = None
            if not self._stopping and not (queued and cancellation is not None and cancellation.cancelled()):
                # (A cancel that reached the first one meanwhile: the dispatcher finds it when it begins
                # the request, and any other answer is dropped below.)
                try:
                    response = receive(incoming, session)
                except Exception as error:  # a bug must not take the thread down
                    response = self._internal_error(incoming.message, error)
                if cancellation is not None and (type(response) is not dict or "result" not in response):
                    # Answered without a result: perhaps before the session began it (an unknown method,
                    # a malformed request), so the note accept() made may still be there; left, it
                    # would refuse every later request with this id as in flight.
                    session.forget(request_id)
                    if cancellation.cancelled():
                        response = None  # the specification: no response to a cancelled request
                # (A result: the dispatcher ran the request and looked at its token after the session
                # stopped tracking it, past which no notifications/cancelled or close() reaches it.)
            elif cancellation is not None:
                session.forget(request_id)  # never handled: the session's note of it goes too
            next_incoming, leading = self._finish(response, request_id, token, session)
            if next_incoming is None:
                return leading
            incoming = next_incoming
            queued = True

    def _admit(self, incoming: Incoming, session: ServerSession) -> bool:
        """Take a request the reader read: to run on this thread now (True), or else queued for the
        next free thread or refused as busy (False). A request with a usable id gets the token that
        cancels it (``incoming.cancellation``) whether it runs now or waits. Starts the watchdog, or
        wakes it, for a request that runs."""
        request_id = incoming.id
        tracked = type(request_id) in _ID_TYPES  # only these are hashable ids ([1] is no id)
        watchdog: threading.Thread | None = None
        with self._lock:
            run: bool | None = self._jobs_running < self.max_workers  # False: queued; None: refused
            if run:
                self._jobs_running += 1
                self._busy_since = time.monotonic()
                self._started += 1
                if self._watchdog is None:
                    watchdog = self._watchdog = threading.Thread(
                        target=self._watch, name="mcp-stdio-watchdog", daemon=True
                    )
                elif self._watchdog_parked:
                    self._watchdog_parked = False
                    self._watchdog_wake.notify()
            elif len(self._backlog) < self.max_queue:
                self._backlog.append(incoming)
            else:
                run = None
            if tracked and run is not None:
                incoming.cancellation = self._active[request_id] = session.accept(request_id)
                if incoming.method == methods.SUBSCRIPTIONS_LISTEN:
                    self._listening.add(request_id)
        if run is None:
            self._busy(incoming.message)
        if watchdog is not None:
            watchdog.start()
        return run is True

    def _finish(
        self, response: t.Any, request_id: t.Any, token: int, session: ServerSession
    ) -> tuple[Incoming | None, bool]:
        """Send ``response`` (None: nothing to send), stop tracking the request it answers, and take
        the next queued request for this thread (None when none waits; its token is the one
        :meth:`_admit` took for it); and whether this thread still holds the reader role."""
        tracked = type(request_id) in _ID_TYPES
        data = None if response is None else self._answer_line(response, session)
        claimed: t.Any = None
        queued: Incoming | None = None
        with self._lock:  # the writer's lock too: the answer is queued in this same section
            if tracked:
                self._active.pop(request_id, None)
            leading = token == self._lead_token
            if self._backlog and not self._stopping:
                queued = self._backlog.popleft()
                if leading:
                    self._busy_since = time.monotonic()
            else:
                self._jobs_running -= 1
                if leading:
                    self._busy_since = None
            if data is not None:  # last: past the high-water mark claim() waits, releasing the lock
                # The reader holds its answer back while more input is buffered (written with the
                # next ones before it blocks); otherwise it writes it now.
                claimed = self._writer.claim(data, leading and self._reader.buffered())
        if claimed is not None:
            self._writer.write_claimed(claimed)
        if tracked and request_id in self._listening:  # only this thread removes its own request's id
            with self._lock:
                self._listening.discard(request_id)
                self._listening_done.notify_all()
        return queued, leading

    def _busy(self, message: t.Any) -> None:
        """Refuse a request no worker can take: queueing it without bound would exhaust memory."""
        if type(message) is dict:
            request_id = message.get("id")
            response: t.Any = (
                json_rpc.error(request_id, error_codes.INTERNAL_ERROR, "Server busy")
                if "method" in message and type(request_id) in _ID_TYPES
                else None
            )
        else:
            response = [
                json_rpc.error(item["id"], error_codes.INTERNAL_ERROR, "Server busy")
                for item in message
                if type(item) is dict and "method" in item and type(item.get("id")) in _ID_TYPES
            ] or None
        if response is None:
            method = message.get("method") if type(message) is dict else "batch of notifications"
            logger.warning("server busy: dropped notification %.100r", method)
            return
        self._write_message(response, defer=True)

    def _internal_error(self, message: t.Any, error: Exception) -> t.Any:
        self.server.report_exception(error, {"request": message})
        if type(message) is dict and "method" in message and type(message.get("id")) in _ID_TYPES:
            return json_rpc.error(message["id"], error_codes.INTERNAL_ERROR)
        return None

    # -- writing -------------------------------------------------------------

    def _send(self, message: dict[str, t.Any], related_request_id: t.Any = None) -> None:
        """The session's ``send``: a notification or request for the client.

        :raises TypeError: ``message`` holds a value JSON cannot represent.
        """
        self._writer.write_line(json_rpc.encode(message), message)

    def _write_response(self, response: t.Any, defer: bool = False) -> None:
        session = self.session
        data = None if session is None else self._answer_line(response, session)
        if data is not None:
            self._writer.write_data(data, defer)

    def _answer_line(self, response: t.Any, session: ServerSession) -> bytes | None:
        """The line that sends ``response``, or None: nothing to send (the session closed: a tool
        that outlived the connection)."""
        if session.closed:
            return None
        try:
            text: str | None = json_rpc.encode(response)
        except Exception:  # a result JSON cannot carry: the session reports it and answers -32603
            text = self._encode_failed(response, session)
        return None if text is None else line_bytes(text, response)

    def _encode_failed(self, response: t.Any, session: ServerSession) -> str | None:
        try:
            return session.encode(response)
        except Exception as error:  # e.g. RecursionError for a result nested too deeply
            self.server.report_exception(error, {"response": safe_repr(response)})
            request_id = response.get("id") if type(response) is dict else None
            return json_rpc.encode(json_rpc.error(request_id, error_codes.INTERNAL_ERROR))

    def _write_message(self, message: t.Any, defer: bool = False) -> None:
        self._writer.write_line(json_rpc.encode(message), message, defer)

    def _output_failed(self, error: BaseException) -> None:
        with self._lock:
            if self._stop.is_set():
                return
            self._stopping = True
            self._stop.set()
        self._reader.wake()
        self._finished.set()
        logger.info("stdout is closed (%s); stopping", error)
        process_stdout = self._process_stdout
        if process_stdout is not None and self._writer.stream is getattr(process_stdout, "buffer", None):
            discard_output(process_stdout)

    # -- shutdown ------------------------------------------------------------

    def _drain(self) -> None:
        """At end of input, give running requests ``drain_timeout`` seconds to answer."""
        deadline = time.monotonic() + self.drain_timeout
        while not self._stop.is_set():
            with self._lock:
                busy = self._jobs_running or self._backlog
            if not busy or time.monotonic() >= deadline:
                return
            time.sleep(0.005)

    def _shutdown(self) -> None:
        with self._lock:
            self._stopping = True
            self._stop.set()
            threads = list(self._threads)
            watchdog = self._watchdog
            self._watchdog_wake.notify()
        self._reader.wake()
        self._writer.flush_deferred()
        session = self.session
        if session is not None:
            session.close("Connection closed")
        for _ in threads:
            self._tasks.put(_STOP)
        deadline = time.monotonic() + self.shutdown_timeout
        for thread in threads + ([watchdog] if watchdog is not None else []):
            if thread.ident is not None:
                thread.join(max(0.0, deadline - time.monotonic()))
        stuck = [thread.name for thread in threads if thread.is_alive()]
        if stuck:
            logger.warning("%d thread(s) still busy at shutdown: %s", len(stuck), ", ".join(stuck))
        self._reader.close()
        with self._lock:
            self._backlog.clear()
            self._running = False
            self._closed = True
        self.server.lifespan.leave(self)

    def __repr__(self) -> str:
        state = "open" if self._running else "closed" if self._closed else "idle"
        return f"<StdioTransport {state} server={self.server.name!r}>"


def _check_limits(max_workers: int, max_queue: int, max_line_bytes: int, drain_timeout: float, shutdown_timeout: float) -> None:
    """Refuse a size, count or timeout :class:`StdioTransport` cannot work with.

    :raises ValueError: naming the argument and its value.
    """
    for name, value in (("max_workers", max_workers), ("max_line_bytes", max_line_bytes)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer, not {value!r}")
    if isinstance(max_queue, bool) or not isinstance(max_queue, int) or max_queue < 0:
        raise ValueError(f"max_queue must be a non-negative integer, not {max_queue!r}")
    for name, seconds in (("drain_timeout", drain_timeout), ("shutdown_timeout", shutdown_timeout)):
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds < 0:
            raise ValueError(f"{name} must be a non-negative number of seconds, not {seconds!r}")


def _binary(stream: t.Any) -> t.Any:
    """The binary buffer under a text stream (``sys.stdin`` -> ``sys.stdin.buffer``)."""
    if isinstance(stream, io.TextIOBase) and hasattr(stream, "buffer"):
        return stream.buffer
    return stream


__all__ = ["StdioTransport"]
