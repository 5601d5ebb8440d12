"""One client must never take the HTTP server down (issue 13, findings 1-5), on waitress and gunicorn gthread.

Each test attacks a real server process on 127.0.0.1 with bounded loops and
checks that a well-behaved client is still served, and that the attacker is
refused at once (429/503 with ``Retry-After``) or cut off within a bound.
Bounds are generous: they tell "seconds" from "never", not fast from slow.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import socket
import time
import typing as t

import pytest
import requests

from spec.support.hostile_servers import ServerKind, hostile_server, session
from spec.support.http_client import TIMEOUT, Client, initialize_message, read_events, request, tool_call

#: Seconds within which something "soon" must happen (the targets are about 1 s).
SOON = 8.0


def timed_ping(client: Client) -> float:
    """Seconds a ping took (it must succeed)."""
    started = time.monotonic()
    assert client.call(request("ping", id=7)) == [{"jsonrpc": "2.0", "id": 7, "result": {}}]
    return time.monotonic() - started


def stats(client: Client) -> dict[str, int]:
    [answer] = client.call(tool_call("stats", id=9))
    return t.cast(t.Dict[str, int], json.loads(answer["result"]["content"][0]["text"]))


def wait_for(condition: t.Callable[[], bool], timeout: float = SOON) -> float:
    """Seconds until ``condition()`` held; fails past ``timeout``."""
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < timeout, "the condition never held"
        time.sleep(0.05)
    return time.monotonic() - started


def hold(client: Client, id: int, seconds: float = 30) -> requests.Response:
    return client.post(tool_call("hold", {"seconds": seconds}, id=id))


KINDS: list[ServerKind] = ["waitress", "gunicorn"]


# -- 1. thread exhaustion ----------------------------------------------------------


#: Clients of this version cannot resume a stream the server closes: their streams are held, and capped.
HOLDING = "2025-06-18"


@pytest.mark.parametrize("kind", KINDS)
def test_streams_are_capped_per_session_and_in_total_and_a_ping_still_answers(kind: ServerKind) -> None:
    with hostile_server(kind, threads=8, wsgi_threads=8) as served, contextlib.ExitStack() as held:
        attacker, second = session(served.url, HOLDING), session(served.url, HOLDING)
        victim, poller = session(served.url, HOLDING), session(served.url)
        opened = [held.enter_context(attacker.get())]
        opened += [held.enter_context(hold(attacker, id=n)) for n in range(1, 3)]
        assert [response.status_code for response in opened] == [200] * 3
        started = time.monotonic()
        with hold(attacker, id=4) as refused:  # past the session's share (8 threads: 6 streams, 3 a session)
            assert (refused.status_code, refused.headers["Retry-After"]) == (429, "1")
            assert refused.json()["id"] == 4
        opened += [held.enter_context(second.get()), held.enter_context(hold(second, id=1)), held.enter_context(hold(second, id=2))]
        assert [response.status_code for response in opened[3:]] == [200, 200, 200]
        with hold(victim, id=2) as refused:  # past the total
            assert (refused.status_code, refused.headers["Retry-After"]) == (503, "1")
        with victim.get() as refused:
            assert refused.status_code == 503
        # A 2025-11-25 client is never refused while the server can serve it: it polls (SEP-1699).
        with poller.get() as polled, hold(poller, id=3, seconds=1) as answered:
            assert [(event.data, event.retry) for event in read_events(polled)] == [("", 1000), (None, 1000)]
            assert polled.headers["Content-Length"] and answered.headers["Content-Length"]
            assert [(event.data, event.retry) for event in read_events(answered)] == [("", 1000), (None, 1000)]
        assert time.monotonic() - started < SOON  # refusals come at once, not when a thread frees
        assert timed_ping(victim) < SOON  # the threads left over serve everyone else
        assert stats(victim)["streams"] == 6


# -- 2. hit-and-run streams --------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_a_vanished_client_frees_its_stream_within_a_second_or_so(kind: ServerKind) -> None:
    with hostile_server(kind, threads=8, wsgi_threads=8) as served:
        victim = session(served.url)
        runners = [session(served.url) for _ in range(8)]
        freed: list[float] = []
        for _ in range(2):  # two rounds of hit-and-run
            statuses = []
            for runner in runners:
                response = runner.get()
                statuses.append(response.status_code)
                if response.status_code == 200:
                    assert next(read_events(response)).data == ""  # the first bytes, then gone
                response.close()  # closes the socket
            assert statuses.count(200) >= 6
            assert timed_ping(victim) < SOON
            freed.append(wait_for(lambda: stats(victim)["streams"] == 0))
        assert max(freed) < 5.0  # target ~1 s (the probe runs every 0.5 s); was 15 s (the keep-alive)
        with victim.get() as stream:
            assert stream.status_code == 200


# -- 3. session lockout ------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_sessions_that_never_went_past_initialize_make_room_within_the_unused_timeout(kind: ServerKind) -> None:
    with hostile_server(kind, threads=8, max_sessions=20, unused_session_timeout=1.5) as served:
        http = requests.Session()
        newcomer = Client(served.url, http)
        for _ in range(20):  # initialize, and nothing after it
            with newcomer.post(initialize_message(), stream=False) as answered:
                assert answered.status_code == 200
        with newcomer.post(initialize_message(), stream=False) as refused:
            assert (refused.status_code, refused.headers["Retry-After"]) == (503, "60")

        def admitted() -> bool:
            try:
                newcomer.initialize()
            except AssertionError:
                return False
            return True

        assert wait_for(admitted, timeout=10.0) < 10.0  # 1.5 s here; at most 30 s by default (was: until restart)
        assert timed_ping(newcomer) < SOON


# -- 4. worker-pool starvation -----------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_one_session_gets_a_bounded_share_of_the_workers_and_expires_with_its_requests(kind: ServerKind) -> None:
    options = {"wsgi_threads": 64, "max_streams_per_session": 64, "max_workers": 16, "session_idle_timeout": 2}
    with hostile_server(kind, threads=32, **options) as served:
        attacker, victim = session(served.url), session(served.url)
        with concurrent.futures.ThreadPoolExecutor(24, thread_name_prefix="spec-attacker") as pool:
            calls = list(pool.map(lambda n: hold(attacker, id=n), range(24), timeout=TIMEOUT * 4))
        statuses = sorted(response.status_code for response in calls)
        for response in calls:
            response.close()  # sockets closed, the calls keep running (the client could resume them)
        assert statuses == [200] * 8 + [429] * 16  # max_requests_per_session = 8, refused at once
        assert wait_for(lambda: stats(victim)["holding"] == 8) < SOON
        started = time.monotonic()
        with victim.post(tool_call("hold", {"seconds": 0}, id=3)) as answered:  # an SSE tool call of another client
            assert [event.message["result"]["content"][0]["text"] for event in read_events(answered) if event.data] == ["held"]
        assert time.monotonic() - started < SOON  # was: timed out for 50 s
        # No stream open and no activity: the attacker's session expires on time, its requests cancelled.
        expired_after = wait_for(lambda: stats(victim)["holding"] == 0, timeout=15.0)
        assert expired_after < 15.0
        assert stats(victim)["cancelled"] == 8
        with attacker.post(request("ping", id=5), stream=False) as gone:
            assert gone.status_code == 404


# -- 5. slowloris ------------------------------------------------------------------


def slow_post(port: int, session_id: str) -> socket.socket:
    """A POST whose headers arrive whole and whose body never does (10 of 1000 bytes)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Accept: application/json, text/event-stream\r\nMcp-Session-Id: {session_id}\r\n"
        "MCP-Protocol-Version: 2025-11-25\r\nContent-Length: 1000\r\n\r\n"
    )
    sock.sendall(head.encode() + b'{"jsonrpc"')
    return sock


@pytest.mark.parametrize("kind", KINDS)
def test_a_slow_body_is_cut_at_the_deadline_and_others_are_served(kind: ServerKind) -> None:
    with hostile_server(kind, threads=4, body_timeout=1) as served:
        victim = session(served.url)
        assert victim.session_id is not None
        slow = [slow_post(served.port, victim.session_id) for _ in range(8)]
        try:
            trickle_until = time.monotonic() + 3
            latencies = []
            while time.monotonic() < trickle_until:  # keep every slow body "alive", one byte at a time
                for sock in slow:
                    with contextlib.suppress(OSError):
                        sock.sendall(b" ")
                latencies.append(timed_ping(victim))
            assert max(latencies) < SOON  # was: down for more than 91 s on gunicorn
            if kind == "gunicorn":  # the transport reads the body itself: 408 at the deadline
                for sock in slow:
                    sock.settimeout(SOON)
                    assert sock.recv(200).startswith(b"HTTP/1.1 408 ")
            # (waitress buffers bodies on its own thread: no application thread waits for them)
        finally:
            for sock in slow:
                sock.close()
