"""Polling sessions served by several processes through Redis, and one process killed mid-poll
(issue 17, item 2's proof with Redis).

50 sessions of our :class:`~mcp_sdk.Client`, at once, against :mod:`spec.support.polling_app` with
only ``redis_url=`` set, under ``gunicorn -k gthread -w 4``: each with its GET stream and a streamed
tool call with progress and logs. The workers hold few of the streams and close the rest after a
``retry``; a client resumes with ``Last-Event-ID`` on whichever worker takes its next connection.
While every session is mid-call, one worker is SIGKILLed: the one holding the most open streams of
sessions whose tools run elsewhere. Those streams are cut, and their clients resume on the other
workers and get everything; the tools the killed worker was running die with it, and their clients
get every event stored before the death, then the error that says so. Every event exactly once, in
order.

(The official Python client is not in this one: mcp 2.3.0's client lets a POST on a keep-alive
connection to the killed worker raise out of its task group (httpx ReadError), and when a stream it
resumed breaks mid-read it resumes again from the Last-Event-ID it began that resumption with, so it
is handed the events in between twice.)
"""

from __future__ import annotations

import collections
import concurrent.futures
import os
import signal
import threading
import time
import typing as t

import pytest
import requests

from mcp_sdk import Client
from mcp_sdk.client.http import HTTP
from spec.support.http_client import TIMEOUT
from spec.support.http_server import PYTHON, ServerProcess
from spec.support.redis_server import RedisServer

SESSIONS = 50
WORKERS = 4
THREADS = 8
WORKER_CONNECTIONS = 25
STEPS = 12
#: Seconds between steps: the tool runs ~3 s, so a worker killed once every session is in its call
#: cuts running tools and open polls alike.
DELAY = 0.25
#: Seconds a session waits, after its answer, for the resources/updated its GET stream carries.
GET_STREAM_WAIT = 30.0
DIED = "The server process running this request ended; send it again (code -32603)"


class Exchange:
    """One request a client made: its method, ``Last-Event-ID``, the worker that answered
    (``X-Worker``; None when the connection failed), when it was sent and when its response was closed."""

    def __init__(self, method: str, last_event_id: str | None, call: bool) -> None:
        self.method, self.last_event_id, self.call = method, last_event_id, call
        self.worker: str | None = None
        self.sent, self.closed = time.monotonic(), float("inf")

    def __repr__(self) -> str:
        return f"{self.method} {self.last_event_id} {self.worker} {self.sent:.2f}-{self.closed:.2f}"


class Recorder(requests.Session):
    """A client's connection pool that notes each :class:`Exchange`."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[Exchange] = []

    def send(self, request: requests.PreparedRequest, **kwargs: t.Any) -> requests.Response:  # type: ignore[override]
        call = isinstance(request.body, bytes) and b'"tools/call"' in request.body
        exchange = Exchange(str(request.method), request.headers.get("Last-Event-ID"), call)
        self.seen.append(exchange)
        response = super().send(request, **kwargs)
        exchange.worker = response.headers.get("X-Worker")
        close = response.close

        def closed() -> None:
            exchange.closed = min(exchange.closed, time.monotonic())
            close()

        response.close = closed  # type: ignore[method-assign]
        return response


class Session(t.NamedTuple):
    progress: list[str]
    logs: list[str]
    result: str
    updates: list[str]
    requests: list[Exchange]


def run(url: str, tag: str, recorder: Recorder, calling: threading.Semaphore) -> Session:
    """One session; releases ``calling`` once, at its first progress (or when it fails before)."""
    progress: list[str] = []
    logs: list[str] = []
    updates: list[str] = []
    client = Client(HTTP(url, timeout=TIMEOUT, session=recorder))
    client.on_progress(lambda params: (progress.append(params["message"]), progress[1:] or calling.release()))
    client.on_log_message(lambda params: logs.append(params["data"]))
    client.on_notification(lambda method, params: updates.append(params["uri"]) if method == "notifications/resources/updated" else None)
    try:
        client.connect(mode="legacy")
        client.set_logging_level("info")
        try:
            response = client.call_tool("chatter", {"steps": STEPS, "delay": DELAY, "tag": tag}, progress_token=tag)
            result = str(response["result"]["content"][0]["text"])
        except Client.ServerError as error:
            result = str(error)
        deadline = time.monotonic() + GET_STREAM_WAIT
        while not updates and time.monotonic() < deadline:
            time.sleep(0.05)
        return Session(progress, logs, result, updates, recorder.seen)
    except BaseException:
        if not progress:
            calling.release()
        raise
    finally:
        client.close()
        recorder.close()


def workers_of(master: int) -> list[int]:
    """The pids of gunicorn's workers (the master's children), from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == master:
                found.append(int(entry))
    return sorted(found)


def kill_choice(workers: list[int], recorders: dict[str, Recorder], running_on: dict[str, str | None]) -> str:
    """The worker to kill: the one holding the most open streams of sessions whose call runs on
    another worker (their clients must resume elsewhere, and get everything), once one holds any."""
    deadline = time.monotonic() + 5
    while True:
        held = collections.Counter(
            exchange.worker for tag, recorder in recorders.items() for exchange in list(recorder.seen)
            if exchange.closed == float("inf") and exchange.worker not in (None, running_on[tag])
        )
        if held or time.monotonic() > deadline:
            return str(max(workers, key=lambda pid: held[str(pid)]))
        time.sleep(0.02)


@pytest.fixture(scope="module")
def redis_server() -> t.Iterator[RedisServer]:
    with RedisServer() as server:
        yield server


def test_a_worker_killed_mid_poll_loses_no_event_and_repeats_none(redis_server: RedisServer) -> None:
    # A gthread worker accepts every connection that arrives while it polls, so one worker takes
    # nearly all of them; --worker-connections spreads them over the four.
    command = [PYTHON, "-m", "gunicorn", "-k", "gthread", "--threads", str(THREADS), "-w", str(WORKERS),
               "--worker-connections", str(WORKER_CONNECTIONS),
               "--graceful-timeout", "1", "--backlog", "512", "-b", "127.0.0.1:{port}", "spec.support.polling_app:app"]
    with ServerProcess(command, env={"MCP_REDIS_URL": redis_server.url}) as served:
        deadline = time.monotonic() + 20
        while len(workers_of(served.process.pid)) < WORKERS and time.monotonic() < deadline:
            time.sleep(0.1)
        calling = threading.Semaphore(0)  # released once by each session whose call has begun
        with concurrent.futures.ThreadPoolExecutor(SESSIONS, thread_name_prefix="polling-redis-spec") as pool:
            recorders = {f"s{n}": Recorder() for n in range(SESSIONS)}
            futures = {tag: pool.submit(run, served.url, tag, recorder, calling) for tag, recorder in recorders.items()}
            for _ in range(SESSIONS):
                assert calling.acquire(timeout=120)
            assert [future.exception() for future in futures.values() if future.done()] == [None] * sum(
                future.done() for future in futures.values()
            )
            running_on = {tag: next(e.worker for e in recorder.seen if e.call) for tag, recorder in recorders.items()}
            killed = kill_choice(workers_of(served.process.pid), recorders, running_on)
            killed_at = time.monotonic()
            os.kill(int(killed), signal.SIGKILL)
            seen = {tag: future.result(timeout=180) for tag, future in futures.items()}
    steps = {tag: [f"{tag}:{step}" for step in range(1, STEPS + 1)] for tag in seen}
    died = sorted(tag for tag, session in seen.items() if session.result != f"{tag} done")
    # Only calls the killed worker ran can die (those it had finished are answered in full).
    assert set(died) <= {tag for tag, worker in running_on.items() if worker == killed}
    for tag, session in seen.items():
        if tag in died:  # its tool ran on the killed worker: what it sent before, then the error
            assert (session.result, session.progress, session.logs, session.updates) == (
                DIED, steps[tag][: len(session.progress)], steps[tag][: len(session.logs)], [f"polling://{tag}"]
            ), tag
            # Each step sends its progress, then its log: the kill may fall between the two (or after
            # the last step, before the answer).
            assert len(session.progress) - 1 <= len(session.logs) <= len(session.progress) <= STEPS, tag
        else:
            assert (session.progress, session.logs, session.updates) == (steps[tag], steps[tag], [f"polling://{tag}"]), tag

    # The kill cut streams whose clients then resumed on another worker.
    def cut(exchange: Exchange) -> bool:  # open on the killed worker when it died
        return exchange.worker == killed and exchange.sent < killed_at < exchange.closed

    def resumed_elsewhere(exchange: Exchange) -> bool:
        return exchange.method == "GET" and exchange.last_event_id is not None and exchange.sent > killed_at and exchange.worker not in (None, killed)

    resumed = {tag for tag, session in seen.items() if tag not in died and any(map(cut, session.requests))
               and any(map(resumed_elsewhere, session.requests))}
    assert resumed, (killed, killed_at, {
        tag: [e for e in session.requests if e.closed > killed_at - 1] for tag, session in seen.items()
        if any(map(cut, session.requests))
    })
