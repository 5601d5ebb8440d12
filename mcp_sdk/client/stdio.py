"""The stdio client transport: the server is a subprocess speaking newline-delimited JSON-RPC.

https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
"""

from __future__ import annotations

import collections
import json
import logging
import os
import shlex
import signal
import subprocess
import sys
import threading
import typing as t

from .. import json_rpc
from ..cancellation import Cancellation
from ..errors import TransportError
from ._pipe_writer import PipeWriter, QueueFull
from .stdio_environment import server_environment
from .transport import Message, PendingRequests, Transport

logger = logging.getLogger("mcp_sdk.client.stdio")

#: Seconds a thread waits for another one that is starting the process.
_SPAWN_TIMEOUT = 30.0
#: Longest stderr line kept (and logged); the rest of a longer line is dropped.
_STDERR_LINE_BYTES = 64 * 1024


class Stdio(Transport):
    """Runs an MCP server as a subprocess and talks to it over its stdin and stdout.

    The process starts on the first message (or on :meth:`start`), without a
    shell. Three named daemon threads serve it: a reader that routes
    responses to waiting callers by id and dispatches the server's requests
    and notifications; one that drains stderr into :attr:`stderr_lines` and
    the ``mcp_sdk.client.stdio`` logger, so the server never blocks on a full
    pipe; and a writer that takes over writes to stdin when the pipe is busy
    (a caller that finds it idle writes its line itself, see ``_pipe_writer``).

    :param command: the program to run (looked up on ``PATH``).
    :param args: its arguments.
    :param env: variables the server gets (overriding inherited ones). It inherits only a few of
        this process's variables (``HOME``, ``PATH``, ``USER``... see
        :mod:`~mcp_sdk.client.stdio_environment`), so that no credential in the environment
        reaches a server that was not given it.
    :param read_timeout: default seconds to wait for each response; ``None``
        waits as long as the server process lives.
    :param cwd: the server's working directory.
    :param stderr_lines: how many of the server's last stderr lines to keep.
    :param close_timeout: seconds :meth:`close` waits at each step (stdin
        closed, ``SIGTERM``, ``SIGKILL``).
    :param max_line_bytes: longest stdout line accepted; longer ones are dropped.
    :param inherit_env: pass every variable of this process on to the server (then ``env`` is
        added to them), for a server trusted with all of them.
    """

    def __init__(
        self,
        command: str,
        args: t.Sequence[str] = (),
        env: t.Mapping[str, str] | None = None,
        read_timeout: float | None = None,
        cwd: str | os.PathLike[str] | None = None,
        *,
        stderr_lines: int = 1000,
        close_timeout: float = 2.0,
        max_line_bytes: int = 64 * 1024 * 1024,
        inherit_env: bool = False,
    ) -> None:
        self.command = command
        self.args = list(args)
        self.env = dict(env) if env is not None else None
        self.inherit_env = inherit_env
        self.read_timeout = read_timeout
        self.cwd = cwd
        self.close_timeout = close_timeout
        self.max_line_bytes = max_line_bytes
        #: The server's most recent stderr lines (decoded, without line ends).
        self.stderr_lines: collections.deque[str] = collections.deque(maxlen=stderr_lines)
        self.process: subprocess.Popen[bytes] | None = None
        self._pending = PendingRequests()
        self._writer: PipeWriter | None = None
        self._starting: threading.Event | None = None
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._closed = False

    @property
    def description(self) -> str:
        """The command line, for messages."""
        return shlex.join([self.command, *self.args])

    def era_key(self) -> str:
        """The server configuration (command line and directory): the client remembers its protocol era under it."""
        return f"stdio:{self.cwd or ''}:{self.description}"

    def replica(self) -> Stdio:
        """A new transport running another process of the same server, with the same settings (see :meth:`Transport.replica`)."""
        return Stdio(self.command, self.args, self.env, self.read_timeout, self.cwd, stderr_lines=self.stderr_lines.maxlen or 0,
                     close_timeout=self.close_timeout, max_line_bytes=self.max_line_bytes)

    # -- lifecycle -----------------------------------------------------------

    def start(self) -> None:
        """Start the server process and its threads (done for you on the first message).

        :raises TransportError: the command cannot be started, or the transport is closed.
        """
        with self._lock:
            if self._closed:
                raise TransportError(f"stdio transport for {self.description} is closed")
            if self.process is not None:
                return
            starting = self._starting
            spawner = starting is None
            if starting is None:
                starting = self._starting = threading.Event()
        if not spawner:
            # Another thread is spawning it (outside the lock: Popen is I/O).
            starting.wait(_SPAWN_TIMEOUT)
            if self.process is None:
                raise TransportError(f"MCP server {self.description} did not start")
            return
        try:
            process = self._spawn()
        except BaseException:
            with self._lock:
                self._starting = None
            starting.set()
            raise
        name = os.path.basename(self.command)
        writer = PipeWriter(t.cast(t.BinaryIO, process.stdin), f"mcp-client-stdio-writer-{name}", self._write_failed)
        threads = [
            threading.Thread(target=self._read_loop, args=(process,), name=f"mcp-client-stdio-reader-{name}", daemon=True),
            threading.Thread(target=self._stderr_loop, args=(process,), name=f"mcp-client-stdio-stderr-{name}", daemon=True),
        ]
        for thread in threads:
            thread.start()
        with self._lock:
            self.process, self._writer, self._threads = process, writer, threads
            closed = self._closed
        starting.set()
        if closed:  # close() ran while the process was starting: it found nothing to stop
            self._shutdown(process, writer, threads)
            raise TransportError(f"stdio transport for {self.description} is closed")

    def _spawn(self) -> subprocess.Popen[bytes]:
        env = server_environment(self.env, inherit_env=self.inherit_env)
        try:
            # A session of its own, so close() can signal the whole group:
            # wrappers such as npx leave the real server as a grandchild.
            return subprocess.Popen(
                [self.command, *self.args],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                cwd=self.cwd,
                start_new_session=sys.platform != "win32",
            )
        except OSError as error:
            raise TransportError(f"Failed to start MCP server {self.description}: {error}") from error

    def close(self) -> None:
        """End the server gracefully: close its stdin, wait, then ``SIGTERM``, then ``SIGKILL``.

        Always reaps the process and stops the threads; idempotent.
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
            process = self.process
            writer = self._writer
            threads = self._threads
        self._pending.fail_all(TransportError(f"stdio transport for {self.description} is closed"))
        if process is not None and writer is not None:
            self._shutdown(process, writer, threads)

    def _shutdown(self, process: subprocess.Popen[bytes], writer: PipeWriter, threads: list[threading.Thread]) -> None:
        writer.close()  # what is queued goes out, then stdin closes: the server's cue to exit
        writer.thread.join(self.close_timeout)
        if not _wait(process, self.close_timeout):
            logger.info("MCP server %s did not exit after stdin closed; terminating", self.description)
            self._signal(process, signal.SIGTERM)
            if not _wait(process, self.close_timeout):
                logger.warning("MCP server %s ignored SIGTERM; killing", self.description)
                self._signal(process, getattr(signal, "SIGKILL", signal.SIGTERM))
                if not _wait(process, max(self.close_timeout, 5.0)):
                    logger.error("MCP server %s (pid %s) could not be reaped", self.description, process.pid)
        # A server that never read its stdin can leave the writer waiting; it is dead now.
        writer.abort()
        writer.thread.join(self.close_timeout)
        for thread in threads:
            thread.join(self.close_timeout)
        for stream, thread in ((process.stdout, threads[0]), (process.stderr, threads[1])):
            if not thread.is_alive():  # closing a pipe another thread is reading would block
                _close_quietly(stream)

    def _signal(self, process: subprocess.Popen[bytes], signum: int) -> None:
        if process.poll() is not None:
            return
        try:
            if sys.platform != "win32":
                os.killpg(process.pid, signum)
            else:
                process.send_signal(signum)
        except (ProcessLookupError, PermissionError):
            pass

    @property
    def returncode(self) -> int | None:
        """The server's exit code, or None while it runs (or before it started)."""
        return None if self.process is None else self.process.poll()

    # -- sending -------------------------------------------------------------

    def send_request(
        self,
        request: Message,
        *,
        timeout: float | None = None,
        cancellation: Cancellation | None = None,
    ) -> Message:
        """Write ``request`` and wait for the response with the same id (see :meth:`Transport.send_request`).

        :param timeout: seconds; defaults to ``read_timeout``.
        :param request: a complete JSON-RPC request object (with ``id``).
        :param cancellation: when cancelled before the response arrives, stop waiting and raise
            :class:`~mcp_sdk.CancelledError`.
        :returns: the JSON-RPC response object (``result`` or ``error``).
        """
        if self.process is None:
            self.start()
        waiter = self._pending.add(request)
        try:
            self._enqueue(request)
            return waiter.wait(self.read_timeout if timeout is None else timeout, cancellation)
        finally:
            self._pending.remove(waiter)

    def send_notification(self, notification: Message) -> None:
        """Queue ``notification`` for writing (see :meth:`Transport.send_notification`).

        :param notification: a JSON-RPC notification, or a response to a server-to-client request.
        """
        if self.process is None:
            self.start()
        self._enqueue(notification)

    def _enqueue(self, message: Message) -> None:
        data = json_rpc.encode(message).encode("utf-8") + b"\n"
        process, writer = self.process, self._writer
        if self._closed or process is None or writer is None:
            raise TransportError(f"stdio transport for {self.description} is closed")
        # No poll() here (a syscall per message): a dead server fails the
        # write (EPIPE) or, for waiting callers, the reader's end of file.
        try:
            writer.write(data)
        except QueueFull:  # the server lives but does not read: that, not its exit, is the news
            raise
        except TransportError as error:
            raise TransportError(f"{self._exit_message(process)} ({error})") from None

    def _write_failed(self, error: OSError) -> None:
        # EPIPE: the server is gone; its exit code says more, once the reader sees EOF.
        logger.debug("writing to MCP server %s failed: %s", self.description, error)
        if self.process is not None:
            self._pending.fail_all(TransportError(f"{self._exit_message(self.process)} (write failed: {error})"))

    # -- threads -------------------------------------------------------------

    def _read_loop(self, process: subprocess.Popen[bytes]) -> None:
        stdout = t.cast(t.BinaryIO, process.stdout)
        limit = self.max_line_bytes
        try:
            while True:
                line = stdout.readline(limit + 1)
                if not line:
                    break
                if len(line) > limit and not line.endswith(b"\n"):
                    logger.error("MCP server %s sent a line over %d bytes; dropped", self.description, limit)
                    while line and not line.endswith(b"\n"):
                        line = stdout.readline(limit + 1)
                    continue
                try:
                    self._received(line)
                except Exception:  # one bad message must not end the reader: callers would hang
                    logger.exception("MCP server %s: could not handle a message", self.description)
        except (OSError, ValueError) as error:
            logger.debug("reading from MCP server %s failed: %s", self.description, error)
        if _wait(process, self.close_timeout) and len(self._threads) > 1:
            # Its last words on stderr make the error message.
            self._threads[1].join(min(self.close_timeout, 1.0))
        self._pending.fail_all(TransportError(self._exit_message(process)))

    def _received(self, line: bytes) -> None:
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):  # RecursionError: nested too deep
            if line.strip():
                logger.warning("MCP server %s wrote a line that is not JSON: %r", self.description, line[:200])
            return
        self.route_incoming(message, self._pending, self._reply, f"MCP server {self.description}")

    def _reply(self, message: Message) -> None:
        self._enqueue(message)

    def _stderr_loop(self, process: subprocess.Popen[bytes]) -> None:
        stderr = t.cast(t.BinaryIO, process.stderr)
        in_long_line = False  # reading past the first _STDERR_LINE_BYTES of a line: dropped
        try:
            for raw in iter(lambda: stderr.readline(_STDERR_LINE_BYTES), b""):
                complete = raw.endswith(b"\n")
                if in_long_line:
                    in_long_line = not complete
                    continue
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                if not complete and len(raw) >= _STDERR_LINE_BYTES:
                    in_long_line = True
                    line += f" [line cut at {_STDERR_LINE_BYTES} bytes]"
                self.stderr_lines.append(line)
                logger.info("[%s] %s", os.path.basename(self.command), line)
        except (OSError, ValueError):
            pass

    def _exit_message(self, process: subprocess.Popen[bytes]) -> str:
        code = process.poll()
        if self._closed:
            state = "was closed"
        elif code is None:
            state = "closed its stdout"
        else:
            state = f"exited with code {code}"
        message = f"MCP server {self.description} {state}"
        tail = list(self.stderr_lines)[-5:]
        if tail and not self._closed:
            message += "; its last stderr lines: " + " | ".join(tail)
        return message

    def __repr__(self) -> str:
        pid = self.process.pid if self.process is not None else None
        return f"<Stdio {self.description!r} pid={pid}>"


def _wait(process: subprocess.Popen[bytes], timeout: float) -> bool:
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        return False
    return True


def _close_quietly(stream: t.IO[bytes] | None) -> None:
    if stream is None:
        return
    try:
        stream.close()
    except (OSError, ValueError):
        pass
