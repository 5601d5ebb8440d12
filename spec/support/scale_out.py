"""examples/scale_out under real ``gunicorn -k gthread -w N`` on a real Redis, and connections aimed at its workers.

gunicorn gives each new connection to whichever worker accepts it; a keep-alive
connection then stays with that worker. :class:`Lanes` opens connections until
it holds some to several workers, so a test can send each request to the worker
it chooses.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import time
import typing as t

import requests

from spec.support.http_client import Client
from spec.support.http_server import PYTHON, ServerProcess

#: Connections opened at most while looking for a new connection to one worker.
MAX_CONNECTIONS = 400
#: Seconds :class:`Lanes` keeps looking for the workers it wants.
LOOK_SECONDS = 30.0


@contextlib.contextmanager
def gunicorn_cluster(redis_url: str, workers: int = 4, **env: str) -> t.Iterator[ServerProcess]:
    """examples.scale_out.app on ``workers`` gunicorn gthread workers sharing ``redis_url``."""
    command = [PYTHON, "-m", "gunicorn", "-k", "gthread", "--threads", "16", "-w", str(workers), "--keep-alive", "60"]
    command += ["--graceful-timeout", "1", "-b", "127.0.0.1:{port}", "examples.scale_out.app:app"]
    with ServerProcess(command, env={"MCP_REDIS_URL": redis_url, **env}) as served:
        yield served


class AimedClient(Client):
    """A client on one of :class:`Lanes`' connections: closing it leaves the connection to the lanes."""

    def close(self) -> None:
        pass


class Lanes:
    """Keep-alive connections to a gunicorn server, by the pid of the worker holding each.

    :param base: the server's base URL (``/worker`` answers with the pid).
    :param workers: distinct workers wanted.
    :param per_worker: connections wanted to each of them.
    :raises AssertionError: they could not be found within :data:`MAX_CONNECTIONS` connections.
    """

    def __init__(self, base: str, workers: int = 3, per_worker: int = 3) -> None:
        self.base = base
        self.by_pid: dict[int, list[requests.Session]] = {}
        self._all: list[requests.Session] = []
        # A worker still booting (under load, Django's set-up takes seconds) accepts nothing: keep
        # looking for a while, closing the connections a worker already has enough of.
        deadline = time.monotonic() + LOOK_SECONDS
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            while not self._enough(workers, per_worker) and time.monotonic() < deadline:
                for http, pid in pool.map(lambda _: self._open(), range(8)):
                    lanes = self.by_pid.setdefault(pid, [])
                    if len(lanes) < per_worker:
                        lanes.append(http)
                    else:
                        self._all.remove(http)
                        http.close()
        assert self._enough(workers, per_worker), f"workers reached: { {pid: len(v) for pid, v in self.by_pid.items()} }"
        full = [pid for pid, lanes in self.by_pid.items() if len(lanes) >= per_worker]
        #: The pids of the workers with ``per_worker`` connections.
        self.pids = full[:workers]

    def _open(self) -> tuple[requests.Session, int]:
        http = requests.Session()
        self._all.append(http)
        with http.get(self.base + "/worker", timeout=10) as response:
            return http, int(response.text)

    def _enough(self, workers: int, per_worker: int) -> bool:
        return sum(len(lanes) >= per_worker for lanes in self.by_pid.values()) >= workers

    def client(self, like: Client, worker: int, lane: int = 0) -> Client:
        """A client of ``like``'s session whose requests go to worker number ``worker`` (of :attr:`pids`)."""
        aimed = AimedClient(like.url, self._aimed(self.pids[worker], lane))
        aimed.session_id = like.session_id
        aimed.protocol_version = like.protocol_version
        return aimed

    def _aimed(self, pid: int, lane: int) -> requests.Session:
        """The lane, checked: a connection a test cut is replaced by a new one to the same worker."""
        lanes = self.by_pid[pid]
        with lanes[lane].get(self.base + "/worker", timeout=10) as response:
            if int(response.text) == pid:
                return lanes[lane]
        for _ in range(MAX_CONNECTIONS):
            http, found = self._open()
            if found == pid:
                lanes[lane] = http
                return http
            http.close()
        raise AssertionError(f"no new connection reached worker {pid}")

    def worker_of(self, worker: int, lane: int = 0) -> int:
        """The pid behind worker number ``worker`` (asked again over that lane: it must not have moved)."""
        http = self.by_pid[self.pids[worker]][lane]
        with http.get(self.base + "/worker", timeout=10) as response:
            return int(response.text)

    def close(self) -> None:
        for http in self._all:
            http.close()


__all__ = ["AimedClient", "Lanes", "gunicorn_cluster"]
