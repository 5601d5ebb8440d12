"""The transport under gevent (issue 17, item 3): ``gunicorn -k gevent`` as a first-class deployment.

Under gevent's monkey-patching the SDK's threads, locks, queues and sockets are gevent's, and an
open stream costs a greenlet: the transport sees it and stops deriving stream caps and holds from a
thread count (:mod:`mcp_sdk.server.transports.streamable_http.capacity.greenlet_capacity`). Each test drives a
real ``gunicorn -k gevent`` on 127.0.0.1 with ``StreamableHTTPTransport(server)`` and its defaults:

- 50 sessions of our :class:`~mcp_sdk.Client` and 50 of the official client at once, each with its GET
  stream and a streamed tool call with progress and logs (the machinery of
  ``streamable_http_polling_test``): every notification reaches its own session exactly once, in order;
- hundreds of 2026-07-28 ``subscriptions/listen`` streams on one worker, each hearing a broadcast;
- one abusive client holding every stream it may still gets 429/503, and another client's ping answers;
- with Redis and ``-w 4``, the worker holding the most GET streams killed: its clients resume on
  another worker with ``Last-Event-ID`` and lose nothing sent after Redis saw the worker go.

The large numbers (10,000 streams on one worker) are in ``bench/stream_bench.py --gevent``.
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import json
import os
import signal
import subprocess
import time
import typing as t

import requests

from mcp_sdk.server.transports.streamable_http.capacity.greenlet_capacity import GREEN_PROBE_INTERVAL

from mcp_sdk import Client as SDKClient
from mcp_sdk.client.http import HTTP
from spec.mcp_sdk.server.transports.streamable_http_polling_test import expected, official, ours
from spec.support.client_addresses import from_address, loopback
from spec.support.hostile_servers import assert_forty_connection_caps, session
from spec.support.http_client import TIMEOUT, Client, Event, initialize_message, messages_of, read_events, request, tool_call
from spec.support.http_server import PYTHON, ROOT, ServerProcess
from spec.support.modern import modern_request
from spec.support.redis_server import RedisServer
from spec.support.scale_out import Lanes


def gevent_server(app: str, *options: str, workers: int = 1, env: dict[str, str] | None = None) -> ServerProcess:
    """``app`` under ``gunicorn -k gevent`` with ``workers`` workers."""
    command = [PYTHON, "-m", "gunicorn", "-k", "gevent", "-w", str(workers), "--graceful-timeout", "1", *options]
    return ServerProcess([*command, "-b", "127.0.0.1:{port}", app], env=env)


# -- detection ---------------------------------------------------------------------

PROBE = """
import json, sys
{prelude}
from mcp_sdk import Server
from mcp_sdk._gevent import green_threads
from mcp_sdk.server.transports import StreamableHTTPTransport
from mcp_sdk.server.transports.streamable_http.capacity.stream_capacity import stream_capacity

transport = StreamableHTTPTransport(Server(name="probe", version="1"))
chosen = stream_capacity(transport.limits)
idle_hold = chosen.capacity.hold()
leaves = [chosen.capacity.enter({{}}) for _ in range(999)]  # requests in flight: threads would run out
print(json.dumps({{
    "green": green_threads(), "gevent_imported": "gevent" in sys.modules,
    "capacity": type(chosen.capacity).__name__, "caps": chosen.caps, "pool": chosen.pool_size, "holds": [idle_hold, chosen.capacity.hold()],
}}))
transport.close()
"""


def probe(prelude: str) -> dict[str, t.Any]:
    done = subprocess.run([PYTHON, "-c", PROBE.format(prelude=prelude)], cwd=ROOT, capture_output=True, timeout=60, check=True)
    return t.cast(t.Dict[str, t.Any], json.loads(done.stdout))


def test_threads_keep_their_capacity_and_gevent_is_never_imported_by_the_sdk() -> None:
    assert probe("") == {
        "green": False, "gevent_imported": False, "capacity": "ThreadCapacity", "caps": [2, 2], "pool": 64, "holds": [10.0, 0.0],
    }


def test_gevent_imported_but_not_patched_is_threads() -> None:
    assert probe("import gevent") == {
        "green": False, "gevent_imported": True, "capacity": "ThreadCapacity", "caps": [2, 2], "pool": 64, "holds": [10.0, 0.0],
    }


def test_monkey_patched_streams_cost_a_greenlet_and_are_held_whatever_is_in_flight() -> None:
    # 1000 connections assumed (gunicorn's default --worker-connections): 900 streams, 18 a session,
    # and a worker greenlet per connection (a listen keeps one as long as it is open).
    assert probe("from gevent import monkey; monkey.patch_all()") == {
        "green": True, "gevent_imported": True, "capacity": "GreenletCapacity", "caps": [900, 18], "pool": 1000, "holds": [None, None],
    }


# -- many sessions -----------------------------------------------------------------

#: Sessions of each client kind at once.
SESSIONS = 50


def test_fifty_sessions_of_each_client_are_served_exactly_once_under_gevent() -> None:
    with gevent_server("spec.support.polling_app:app") as served:
        tags = [f"ours{n}" for n in range(SESSIONS)]
        official_tags = [f"official{n}" for n in range(SESSIONS)]
        with concurrent.futures.ThreadPoolExecutor(SESSIONS + 1, thread_name_prefix="gevent-spec") as pool:
            theirs = pool.submit(official, served.url, official_tags)
            mine = {tag: pool.submit(ours, served.url, tag) for tag in tags}
            seen = {tag: future.result(timeout=180) for tag, future in mine.items()}
            seen.update(theirs.result(timeout=180))
        assert seen == {tag: expected(tag) for tag in tags + official_tags}


# -- 2026-07-28 listens ------------------------------------------------------------

MODERN = "2026-07-28"
#: Listen streams held at once on one worker: far past any thread count.
LISTENS = 300


def listen(url: str, id: t.Any, via: requests.Session | None = None, timeout: float = TIMEOUT * 4, **headers: str) -> requests.Response:
    """A listen for ``toolsListChanged``, streamed; ``via`` a session (from an address of its own), else from 127.0.0.1.

    :param timeout: seconds each read waits (below the 15 s keep-alive: a stream that stays silent fails the spec).
    """
    meta = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}
    message = request("subscriptions/listen", {"_meta": meta, "notifications": {"toolsListChanged": True}}, id=id)
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
               "MCP-Protocol-Version": MODERN, "Mcp-Method": "subscriptions/listen", **headers}
    return (via or requests).post(url, json=message, headers=headers, stream=True, timeout=timeout)  # type: ignore[no-any-return]


def test_hundreds_of_listen_streams_on_one_worker_each_hear_a_broadcast() -> None:
    with gevent_server("spec.support.gevent_app:app") as served:
        streams = [listen(served.url, n) for n in range(LISTENS)]
        try:
            assert {response.status_code for response in streams} == {200}
            events = [read_events(response) for response in streams]
            acknowledged = [next(stream).message["method"] for stream in events]
            assert acknowledged == ["notifications/subscriptions/acknowledged"] * LISTENS
            with session(served.url) as caller:
                assert caller.call(request("ping", id=2)) == [{"jsonrpc": "2.0", "id": 2, "result": {}}]
                time.sleep(GREEN_PROBE_INTERVAL + 1)  # idle streams: each probed its client once (it must not block)
                caller.call(tool_call("reload", id=3))
            heard = [next(stream).message for stream in events]
            assert heard == [
                {
                    "jsonrpc": "2.0",
                    "method": "notifications/tools/list_changed",
                    "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": n}},
                }
                for n in range(LISTENS)
            ]
        finally:
            for response in streams:
                response.close()


#: Connections the listen-share specs give gunicorn: 4 kept for requests, 36 for listens, 18 per client.
FORTY = "40"


def acknowledged(response: requests.Response) -> t.Iterator[Event]:
    """The events of a listen's stream, its acknowledgement read and checked first."""
    events = read_events(response)
    assert next(events).message["method"] == "notifications/subscriptions/acknowledged"
    return events


def test_one_address_holds_half_the_listen_share_and_another_clients_calls_are_answered() -> None:
    # Before, one anonymous client opened 40 listens, all 200, and every other client's call timed out.
    with gevent_server("spec.support.gevent_app:app", "--worker-connections", FORTY) as served, contextlib.ExitStack() as stack:
        abuser, caller = from_address(loopback(0)), from_address(loopback(1))
        stack.callback(abuser.close)
        stack.callback(caller.close)
        answers = []
        for n in range(40):
            response = listen(served.url, n, abuser, TIMEOUT, Connection="close")  # a refused one gives its connection back
            if response.status_code == 200:
                stack.enter_context(response)
                acknowledged(response)
                answers.append(200)
            else:
                with response:
                    answers.append((response.status_code, response.headers["Retry-After"], response.json()))
        assert answers == [200] * 18 + [(429, "1", {"jsonrpc": "2.0", "id": n, "error": {
            "code": -32600, "message": "Too Many Requests: this client has 18 subscriptions/listen streams open (the most is 18)"}})
            for n in range(18, 40)]
        call = modern_request("tools/call", {"name": "reload", "arguments": {}}, id="call")
        headers = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": MODERN,
                   "Mcp-Method": "tools/call", "Mcp-Name": "reload"}
        with caller.post(served.url, json=call, headers=headers, timeout=TIMEOUT) as called:
            assert called.status_code == 200
            assert messages_of(called)[-1] == {
                "jsonrpc": "2.0", "id": "call", "result": {"content": [{"type": "text", "text": "reloaded"}], "isError": False,
                "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "gevent-spec", "version": "1.0.0"}}, "resultType": "complete"}}
        with caller.post(served.url, json=initialize_message(), headers={"Accept": "application/json, text/event-stream"},
                         timeout=TIMEOUT) as initialized:
            assert initialized.status_code == 200 and initialized.headers["Mcp-Session-Id"]
            assert messages_of(initialized)[0]["result"]["protocolVersion"] == "2025-11-25"


def test_under_gevent_a_newcomer_past_the_listen_share_ends_the_oldest_listen_of_the_client_holding_the_most() -> None:
    with gevent_server("spec.support.gevent_app:app", "--worker-connections", FORTY) as served, contextlib.ExitStack() as stack:
        first, second, newcomer = (from_address(loopback(n)) for n in range(3))
        for client in (first, second, newcomer):
            stack.callback(client.close)
        streams = [acknowledged(stack.enter_context(listen(served.url, f"{name}{n}", client, TIMEOUT)))
                   for name, client in (("first", first), ("second", second)) for n in range(18)]  # the share, full
        time.sleep(1.1)  # older than MIN_LISTEN_AGE: a newcomer may end them
        new = acknowledged(stack.enter_context(listen(served.url, "new", newcomer, TIMEOUT)))
        assert [event.message for event in streams[0] if event.data] == [{  # read to the end of the stream
            "jsonrpc": "2.0", "id": "first0", "result": {"_meta": {"io.modelcontextprotocol/subscriptionId": "first0",
            "io.modelcontextprotocol/serverInfo": {"name": "gevent-spec", "version": "1.0.0"}}, "resultType": "complete"}}]
        with session(served.url) as caller:
            caller.call(tool_call("reload", id=2))
        assert next(new).message == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
                                     "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": "new"}}}
        assert [next(stream).message["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] for stream in streams[1:]] == [
            f"{name}{n}" for name in ("first", "second") for n in range(18)][1:]  # every other listen still open


# -- one abusive client ------------------------------------------------------------


def test_an_abusive_client_is_refused_at_the_caps_and_another_clients_ping_answers() -> None:
    # 40 connections (gunicorn tells the transport): 36 streams in all, at most 8 requests a session.
    with gevent_server("spec.support.hostile_app:app", "--worker-connections", "40") as served:
        assert_forty_connection_caps(served.url)


# -- Redis, four workers, one killed -----------------------------------------------

#: Sessions spread over the workers, each with its GET stream.
SHARED_SESSIONS = 12
#: Seconds the sessions get to receive their resources/updated notifications.
UPDATES_WAIT = 60.0


def sockets_of(pid: int) -> int:
    """Sockets the process holds open (Linux /proc)."""
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            count += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
    return count


def workers_of(master: int) -> list[int]:
    with open(f"/proc/{master}/task/{master}/children") as children:
        return [int(pid) for pid in children.read().split()]


def all_updates(updates: dict[int, list[str]], wanted: int) -> dict[int, list[str]]:
    deadline = time.monotonic() + UPDATES_WAIT
    while any(len(seen) < wanted for seen in updates.values()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return {n: list(seen) for n, seen in updates.items()}


def aimed_at(lanes: Lanes, transport: HTTP, worker: int, lane: int) -> Client:
    """A wire client of ``transport``'s session on connection ``lane`` to worker number ``worker`` of ``lanes``."""
    like = Client(transport.url)
    like.session_id, like.protocol_version = transport.session_id, transport.protocol_version
    return lanes.client(like, worker, lane)


def test_sessions_on_redis_lose_nothing_when_a_gevent_worker_is_killed_under_their_streams() -> None:
    with RedisServer() as redis_server:
        env = {"MCP_REDIS_URL": redis_server.url, "MCP_WSGI_THREADS": "1000"}  # gunicorn's --worker-connections
        with gevent_server("examples.scale_out.app:app", workers=4, env=env) as served:
            clients: list[SDKClient] = []
            transports: list[HTTP] = []
            updates: dict[int, list[str]] = {n: [] for n in range(SHARED_SESSIONS)}
            redis = redis_server.client()
            try:
                for n in range(SHARED_SESSIONS):
                    transports.append(HTTP(served.url, timeout=TIMEOUT * 4))
                    client = SDKClient(transports[-1])
                    client.on_notification(
                        lambda method, params, n=n: updates[n].append(params["uri"])
                        if method == "notifications/resources/updated" else None
                    )
                    client.connect(mode="legacy")
                    clients.append(client)

                def touch(n: int, steps: range) -> set[str]:
                    return {clients[n].call_tool("touch", {"uri": f"s{n}/{step}"})["result"]["content"][0]["text"] for step in steps}

                # A gevent worker accepts every connection waiting when it wakes, so one worker may
                # take all the clients' own: the first touches go over connections aimed at two workers,
                # each session's to the worker of its parity, one connection per session.
                lanes = Lanes(served.base, workers=2, per_worker=SHARED_SESSIONS // 2)
                aimed = [aimed_at(lanes, transports[n], n % 2, n // 2) for n in range(SHARED_SESSIONS)]

                def touch_aimed(n: int, steps: range) -> set[str]:
                    return {aimed[n].call(tool_call("touch", {"uri": f"s{n}/{step}"}, id=step))[0]["result"]["content"][0]["text"] for step in steps}

                with concurrent.futures.ThreadPoolExecutor(SHARED_SESSIONS, thread_name_prefix="gevent-redis-spec") as pool:
                    ran_on = set().union(*pool.map(lambda n: touch_aimed(n, range(1, 4)), range(SHARED_SESSIONS)))
                    lanes.close()
                    assert ran_on == {str(pid) for pid in lanes.pids}  # each session's requests went to its own worker
                    assert all_updates(updates, 3) == {n: [f"s{n}/{step}" for step in range(1, 4)] for n in range(SHARED_SESSIONS)}
                    holders = collections.Counter(redis.mget(list(redis.scan_iter("mcp:s:*:get"))))
                    channels = set(redis.pubsub_channels("mcp:w:*"))
                    time.sleep(3.0)  # idle keep-alive connections close (gunicorn --keep-alive 2): GET streams stay
                    doomed = max(workers_of(served.process.pid), key=sockets_of)
                    os.kill(doomed, signal.SIGKILL)  # the worker holding the most GET streams, mid-poll
                    deadline = time.monotonic() + 20  # Redis sees its connections close
                    while channels <= set(redis.pubsub_channels("mcp:w:*")) and time.monotonic() < deadline:
                        time.sleep(0.01)
                    [dead] = channels - set(redis.pubsub_channels("mcp:w:*"))
                    assert holders[dead.split(b":")[-1]] >= 1  # it held GET streams
                    later = set().union(*pool.map(lambda n: touch(n, range(4, 7)), range(SHARED_SESSIONS)))
                    assert str(doomed) not in later
                    assert all_updates(updates, 6) == {n: [f"s{n}/{step}" for step in range(1, 7)] for n in range(SHARED_SESSIONS)}
            finally:
                redis.close()
                for client in clients:
                    client.close()
