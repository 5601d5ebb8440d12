"""The :mod:`spec.support.hostile_app` server run by waitress or gunicorn gthread, for the hostile-load tests and bench."""

from __future__ import annotations

import contextlib
import json
import typing as t

import time

import requests

from spec.support.http_client import Client, read_events, request, tool_call
from spec.support.http_server import PYTHON, ServerProcess

ServerKind = t.Literal["waitress", "gunicorn"]


@contextlib.contextmanager
def hostile_server(kind: ServerKind, threads: int, **options: t.Any) -> t.Iterator[ServerProcess]:
    """The hostile app on ``threads`` WSGI threads, its transport built with ``options``."""
    env = {"MCP_TRANSPORT_OPTIONS": json.dumps(options)}
    if kind == "waitress":
        command = [PYTHON, "-m", "spec.support.hostile_app", "{port}", str(threads)]
    else:
        command = [PYTHON, "-m", "gunicorn", "-k", "gthread", "--threads", str(threads), "-w", "1", "--graceful-timeout", "1"]
        command += ["-b", "127.0.0.1:{port}", "spec.support.hostile_app:app"]
    with ServerProcess(command, env=env) as served:
        yield served


def session(url: str, version: str | None = None) -> Client:
    """A client with its own connection pool and an initialized session (``notifications/initialized`` sent).

    :param version: the protocol version to ask for (default the latest).
    """
    client = Client(url, requests.Session())
    if version is None:
        client.initialize()
    else:
        client.initialize(version)
    return client



#: Clients of this version cannot resume a stream the server closes: their streams are held, and capped.
HOLDING = "2025-06-18"


def hold(client: Client, id: int, seconds: float = 30) -> requests.Response:
    """A ``hold`` tool call answered as an SSE stream that stays open ``seconds``."""
    return client.post(tool_call("hold", {"seconds": seconds}, id=id))


def assert_forty_connection_caps(url: str) -> None:
    """Against ``spec.support.hostile_app`` on a server of 40 connections under gevent (36 streams in
    all, at most 8 requests a session): four abusive sessions fill the streams, the next request of
    one gets 429, a stream past the total 503, a 2025-11-25 client polls, and another client's ping
    is answered, all at once."""
    attackers = [session(url, HOLDING) for _ in range(5)]
    victim, poller = session(url, HOLDING), session(url)
    opened: list[requests.Response] = []
    try:
        started = time.monotonic()
        for attacker in attackers[:4]:
            opened.append(attacker.get())
            opened += [hold(attacker, id=n) for n in range(1, 9)]
        assert [response.status_code for response in opened] == [200] * 36
        with hold(attackers[0], id=9) as refused:  # past the session's share of requests
            assert (refused.status_code, refused.headers["Retry-After"], refused.json()["id"]) == (429, "1", 9)
        with attackers[4].get() as refused:  # past the total
            assert (refused.status_code, refused.headers["Retry-After"]) == (503, "1")
        with hold(victim, id=2) as refused:
            assert refused.status_code == 503
        # A 2025-11-25 client is not refused: it gets what is pending and a retry, and polls.
        with poller.get() as polled:
            assert [(event.data, event.retry) for event in read_events(polled)] == [("", 1000), (None, 1000)]
        assert victim.call(request("ping", id=7)) == [{"jsonrpc": "2.0", "id": 7, "result": {}}]
        assert time.monotonic() - started < 30  # refusals come at once, not when a stream ends
    finally:
        for response in opened:
            response.close()


__all__ = ["HOLDING", "ServerKind", "assert_forty_connection_caps", "hold", "hostile_server", "session"]
