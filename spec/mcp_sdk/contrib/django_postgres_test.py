"""Issue 18's proof on a real PostgreSQL: the spec Django project (postgres_settings) under
gunicorn gthread with 32 threads, 1,000 ``tools/call`` from a pool of 32 client threads, and
``pg_stat_activity`` read while they run and after.

The bound: the client pool has 32 threads, so at most 32 requests are in flight. A request's tool
runs either on its WSGI thread (``books``: a JSON answer) or on a worker thread of the transport
(``shelf``: it declares ``server_context``, so it is answered with SSE from the worker pool while
the WSGI thread only writes events). Nothing else in the project touches the database (no
authentication, so no session or token look-up), so each request in flight holds at most one
connection, that of the thread running its tool: at most 32 open connections. What the transport's
worker threads hold is the point: Django closes the WSGI threads' connections itself
(``request_finished``), but a worker thread sees no request boundary, so only
``mcp_sdk.contrib.django``'s ``close_old_connections`` around every handler closes them; without it
each of the (up to 64, alive for 30 s idle) worker threads would keep its connection open after the
pool idles. With ``CONN_MAX_AGE = 0`` every connection is closed when its handler ends, so none is
left once the calls are answered."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import typing as t
from concurrent.futures import ThreadPoolExecutor

import pytest

from mcp_sdk import Client
from mcp_sdk.client import HTTP
from spec.support.http_server import ROOT, ServerProcess
from spec.support.postgres_server import PostgresServer

MANAGE = str(ROOT / "spec" / "mcp_sdk" / "contrib" / "django_project" / "manage.py")
SETTINGS = "spec.mcp_sdk.contrib.django_project.postgres_settings"
THREADS = 32
CALLS = 1000
TIMEOUT = 30.0
GUNICORN = [sys.executable, "-m", "gunicorn", "-k", "gthread", "--threads", str(THREADS), "-w", "1", "--graceful-timeout", "1"]
SEED = """
import django; django.setup()
from spec.mcp_sdk.contrib.django_project.library.models import Book
Book.objects.bulk_create([Book(title="Emma", author="Austen"), Book(title="Persuasion", author="Austen"), Book(title="Dune", author="Herbert")])
"""
# Client connections to the test database, the monitor's own excluded (it is on "postgres" anyway).
OPEN = "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND backend_type = 'client backend' AND pid <> pg_backend_pid()"


@pytest.fixture(scope="module")
def postgres() -> t.Iterator[PostgresServer]:
    with PostgresServer("spec") as server:
        yield server


def run(env: dict[str, str], *command: str) -> None:
    full = {**os.environ, "PYTHONPATH": str(ROOT), "DJANGO_SETTINGS_MODULE": SETTINGS, **env}
    done = subprocess.run([sys.executable, *command], cwd=ROOT, env=full, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]


def test_1000_calls_from_32_threads_hold_at_most_32_postgres_connections_and_none_once_idle(postgres: PostgresServer) -> None:
    env = {**postgres.django_env(), "DJANGO_SETTINGS_MODULE": SETTINGS}
    run(env, MANAGE, "migrate", "--run-syncdb", "-v", "0")
    run(env, "-c", SEED)
    monitor = postgres.connect()

    def open_connections() -> int:
        return int(monitor.execute(OPEN, (postgres.name,)).fetchone()[0])

    assert open_connections() == 0
    command = [*GUNICORN, "-b", "127.0.0.1:{port}", "spec.mcp_sdk.contrib.django_project.wsgi:application"]
    with ServerProcess(command, path="/mcp/", env=env) as process:
        samples: list[int] = []
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                samples.append(open_connections())
                time.sleep(0.005)

        answers: list[tuple[str, list[str]]] = []

        def caller(index: int) -> None:
            calls = range(index, CALLS, THREADS)  # 1,000 calls over 32 clients, one client per thread
            with Client(transport=HTTP(url=process.url, timeout=TIMEOUT)) as ours:
                ours.connect(mode="legacy")
                for call in calls:
                    tool, author = ("books", "Austen") if call % 2 else ("shelf", "Herbert")
                    result = ours.call_tool(tool, {"author": author})["result"]
                    answers.append((tool, [block["text"] for block in result["content"]]))

        sampler = threading.Thread(target=sample, daemon=True)
        started = time.monotonic()
        sampler.start()
        try:
            with ThreadPoolExecutor(THREADS) as pool:
                list(pool.map(caller, range(THREADS)))
        finally:
            done.set()
            sampler.join(TIMEOUT)
        elapsed = time.monotonic() - started

        idle_deadline = time.monotonic() + 5
        after = open_connections()
        while after and time.monotonic() < idle_deadline:
            time.sleep(0.05)
            after = open_connections()
        print(f"\n{CALLS} calls in {elapsed:.1f} s; open connections while calling: max {max(samples)} over {len(samples)} samples; after: {after}")
        assert len(answers) == CALLS
        assert sorted(set((tool, tuple(titles)) for tool, titles in answers)) == [("books", ("Emma", "Persuasion")), ("shelf", ("Dune",))]
        assert 0 < max(samples) <= THREADS
        assert after == 0
    monitor.close()
