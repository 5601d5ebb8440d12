"""Issue 13's attacks on the HTTP transport, measured with the default settings; prints one figure each.

    .venv/bin/python bench/hostile_bench.py            # about 2 minutes
    .venv/bin/python bench/hostile_bench.py 3 5        # only findings 3 and 5

Each attack runs against a real server on 127.0.0.1 (waitress or gunicorn gthread
serving ``spec.support.hostile_app``) with bounded loops. Not a test: it never fails,
it reports (spec/…/streamable_http_hostile_test.py asserts the bounds).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import pathlib
import socket
import sys
import threading
import time
import typing as t

import requests

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mcp_sdk import Server  # noqa: E402
from mcp_sdk.server.transports import StreamableHTTPTransport  # noqa: E402
from spec.support.hostile_servers import hostile_server as server  # noqa: E402
from spec.support.hostile_servers import session  # noqa: E402
from spec.support.http_client import Client, initialize_message, read_events, request, tool_call  # noqa: E402
from spec.support.http_server import LiveServer  # noqa: E402


def ping(client: Client, timeout: float = 30.0) -> float | None:
    """Seconds a ping took, None when it failed."""
    started = time.monotonic()
    try:
        with client.http.post(client.url, json=request("ping", id=1), headers=client.headers(), timeout=timeout) as response:
            return time.monotonic() - started if response.status_code == 200 else None
    except requests.RequestException:
        return None


def stats(client: Client) -> dict[str, int]:
    [answer] = client.call(tool_call("stats", id=9))
    return t.cast(t.Dict[str, int], json.loads(answer["result"]["content"][0]["text"]))


def ms(seconds: float | None) -> str:
    return "failed" if seconds is None else f"{seconds * 1000:.0f} ms"


def finding_1() -> None:
    for kind, threads in (("waitress", 4), ("gunicorn", 8)):
        options = {} if kind == "waitress" else {"wsgi_threads": 8}
        with server(kind, threads, **options) as served, contextlib.ExitStack() as held:
            victim = session(served.url)
            statuses, refusal = [], 0.0
            for _ in range(threads):  # one GET stream per attacking session, held open
                attacker = session(served.url)
                started = time.monotonic()
                response = held.enter_context(attacker.get())
                statuses.append(response.status_code)
                if response.status_code != 200:
                    refusal = max(refusal, time.monotonic() - started)
            print(
                f"1  {kind} --threads {threads}: {statuses.count(200)} streams held, {len(statuses) - statuses.count(200)} refused "
                f"({sorted(set(statuses))}, slowest refusal {ms(refusal)}); victim ping {ms(ping(victim))}"
            )


def finding_2() -> None:
    with server("waitress", 8, wsgi_threads=8) as served:
        victim = session(served.url)
        runners = [session(served.url) for _ in range(8)]
        pings: list[float | None] = []
        freed: list[float] = []
        for _ in range(3):  # three rounds, 2 s apart
            for runner in runners:
                response = runner.get()
                if response.status_code == 200:
                    next(read_events(response))
                response.close()
            started = time.monotonic()
            while stats(victim)["streams"] and time.monotonic() - started < 30:
                pings.append(ping(victim))
                time.sleep(0.05)
            freed.append(time.monotonic() - started)
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline:
                pings.append(ping(victim))
                time.sleep(0.1)
        failed = sum(1 for latency in pings if latency is None)
        print(f"2  waitress: 8 hit-and-run GETs x 3 rounds: {failed}/{len(pings)} victim pings failed; streams freed after {max(freed):.2f} s at most")


def finding_3() -> None:
    with server("waitress", 8) as served:
        http = requests.Session()
        flooder = Client(served.url, http)
        started = time.monotonic()
        for _ in range(10_000):
            with flooder.post(initialize_message(), stream=False):
                pass
        flooded = time.monotonic() - started
        newcomer = Client(served.url, requests.Session())
        started = time.monotonic()
        while time.monotonic() - started < 120:
            with newcomer.post(initialize_message(), stream=False) as answer:
                if answer.status_code == 200:
                    break
            time.sleep(0.5)
        print(f"3  waitress, defaults: 10,000 initializes in {flooded:.1f} s; a new client is admitted {time.monotonic() - started:.1f} s later")


def finding_4() -> None:
    options = {"wsgi_threads": 32, "session_idle_timeout": 5}
    with server("gunicorn", 32, **options) as served:
        attacker, victim = session(served.url), session(served.url)

        def call(number: int) -> int:
            with attacker.post(tool_call("hold", {"seconds": 60}, id=number)) as response:
                return response.status_code  # and the socket closes

        with concurrent.futures.ThreadPoolExecutor(16) as pool:
            statuses = list(pool.map(call, range(64)))
        last_activity = time.monotonic()
        started = time.monotonic()
        with victim.post(tool_call("hold", {"seconds": 0}, id=2)) as answered:
            list(read_events(answered))
        victim_call = time.monotonic() - started
        while stats(victim)["holding"] and time.monotonic() - last_activity < 60:
            time.sleep(0.1)
        expired = time.monotonic() - last_activity
        print(
            f"4  gunicorn --threads 32: 64 long calls from one session: {statuses.count(200)} run, {statuses.count(429)} got 429; "
            f"another client's SSE tool call {ms(victim_call)}; session (idle timeout 5 s) gone and its calls cancelled after {expired:.1f} s"
        )


def finding_5() -> None:
    with server("gunicorn", 8, wsgi_threads=8) as served:
        victim = session(served.url)
        assert victim.session_id is not None
        slow = []
        for _ in range(8):
            sock = socket.create_connection(("127.0.0.1", served.port), timeout=5)
            head = (
                f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                f"Mcp-Session-Id: {victim.session_id}\r\nContent-Length: 1000\r\n\r\n"
            )
            sock.sendall(head.encode() + b"{")
            slow.append(sock)
        stop = threading.Event()

        def trickle() -> None:
            while not stop.wait(1):
                for sock in slow:
                    with contextlib.suppress(OSError):
                        sock.sendall(b" ")

        feeder = threading.Thread(target=trickle)
        feeder.start()
        time.sleep(0.2)
        worst = ping(victim, timeout=120)
        stop.set()
        feeder.join()
        for sock in slow:
            sock.close()
        print(f"5  gunicorn --threads 8, body_timeout 10 s: 8 slow bodies; the victim's ping waited {ms(worst)}")


def finding_10() -> None:
    import resource

    server_ = Server(name="flood")

    @server_.define_tool(name="flood")
    def flood(args: dict[str, t.Any], server_context: t.Any = None) -> str:
        for step in range(2000):
            server_context.report_progress(step, message="x" * 50_000)
        return "flooded"

    transport = StreamableHTTPTransport(server_, wsgi_threads=32)
    with LiveServer(transport, closeables=[transport]) as live:
        client = session(live.url)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        with client.post(tool_call("flood", progress_token="f")) as unread:
            deadline = time.monotonic() + 60
            sessions_ = transport._sessions
            assert sessions_ is not None and client.session_id is not None
            held = sessions_.get(client.session_id)
            assert held is not None
            while held.running_requests and time.monotonic() < deadline:
                time.sleep(0.1)
            grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
            assert unread.status_code == 200
        print(f"10 werkzeug: 2,000 events of 50 KB (100 MB) to a client that reads nothing: peak RSS +{grown / 1024:.0f} MiB")


def finding_12() -> None:
    server_ = Server(name="dup")
    go = threading.Event()

    @server_.define_tool(name="steps")
    def steps(args: dict[str, t.Any], server_context: t.Any = None) -> str:
        for step in range(20):
            if step == 5:
                go.wait(10)
            server_context.report_progress(step, total=20)
            time.sleep(0.01)
        return "done"

    transport = StreamableHTTPTransport(server_, wsgi_threads=32)
    with LiveServer(transport, closeables=[transport]) as live:
        client = session(live.url)
        with client.post(tool_call("steps", id=1, progress_token="s")) as original:
            events = read_events(original)
            next(events)
            with client.post(tool_call("steps", id=1, progress_token="d")) as duplicate:
                refused = [event.message for event in read_events(duplicate) if event.data]
            go.set()
            received = [event.message for event in events if event.data]
        progress = [m for m in received if m.get("method") == "notifications/progress"]
        print(f"12 a duplicate id refused ({'error' in refused[-1]}); the original got {len(progress)} of 20 progress events")


FINDINGS = {"1": finding_1, "2": finding_2, "3": finding_3, "4": finding_4, "5": finding_5, "10": finding_10, "12": finding_12}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(FINDINGS):
        FINDINGS[name]()
