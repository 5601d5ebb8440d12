"""2026-07-28 listen streams on a threaded server (issue 17, item 4).

A ``subscriptions/listen`` stream cannot be resumed, so it holds a WSGI thread while open. The
transport bounds them (a share of the threads, half of it per principal or anonymous client
address, ``Limits.listen_hold``) and ends one gracefully, with the ``subscriptions/listen``
result, when it needs the thread back: never that of a client holding its fair part because
another client pushes in. Our :class:`~mcp_sdk.Client` listens again with backoff and tells of the
changes it may have missed. On real servers: waitress with 4 and 8 threads and gunicorn ``gthread``
with 4; each client from an address of its own in ``127.1.0.0/16`` (:mod:`spec.support.client_addresses`).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import threading
import time
import typing as t

import pytest
import requests

from mcp_sdk import Client, Server
from mcp_sdk.client.http import HTTP
from mcp_sdk.server.auth import Principal
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.client_addresses import from_address, loopback
from spec.support.http_client import TIMEOUT, read_events
from spec.support.http_server import PYTHON, LiveServer, ServerProcess
from spec.support.modern import modern_request
from spec.support.waiting import wait_until
from spec.support.wire_schema import assert_valid_modern

TAG = "io.modelcontextprotocol/subscriptionId"
SERVER_INFO = {"name": "listen-spec", "version": "1.0.0"}
#: Listeners at once: twice the WSGI threads.
LISTENERS = 8

SERVERS = {
    "waitress": [PYTHON, "-m", "spec.support.listen_app", "{port}", "4"],
    "gunicorn": [PYTHON, "-m", "gunicorn", "-k", "gthread", "--threads", "4", "-w", "1", "--graceful-timeout", "1",
                 "-b", "127.0.0.1:{port}", "spec.support.listen_app:app"],
}


def listen_request(id: t.Any, notifications: dict[str, t.Any] | None = None) -> dict[str, t.Any]:
    return modern_request("subscriptions/listen", {"notifications": notifications or {"toolsListChanged": True}}, id=id)


def post(url: str, message: dict[str, t.Any], headers: dict[str, str] | None = None, *, via: requests.Session | None = None) -> requests.Response:
    """POST ``message``, streamed; ``via`` a session (from an address of its own), else from 127.0.0.1."""
    return (via or requests).post(  # type: ignore[no-any-return]
        url, json=message, stream=True, timeout=TIMEOUT,
        headers={"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2026-07-28",
                 "Mcp-Method": message["method"], **(headers or {})},
    )


def touch(url: str, uri: str, id: t.Any, via: requests.Session | None = None) -> requests.Response:
    """Call the ``touch`` tool: ``notifications/resources/updated`` for ``uri`` to its listeners."""
    message = modern_request("tools/call", {"name": "touch", "arguments": {"uri": uri}}, id=id)
    with post(url, message, {"Mcp-Name": "touch"}, via=via) as response:
        response.content  # read whole: the call has run
        return response


def clients(stack: contextlib.ExitStack, count: int, first: int = 0) -> list[requests.Session]:
    """``count`` sessions, each from an address of its own (closed with ``stack``)."""
    sessions = [from_address(loopback(first + n)) for n in range(count)]
    for session in sessions:
        stack.callback(session.close)
    return sessions


def ended(id: t.Any) -> dict[str, t.Any]:
    """The ``subscriptions/listen`` result of a listen the server ended (the spec's graceful closure)."""
    return {"jsonrpc": "2.0", "id": id,
            "result": {"_meta": {TAG: id, "io.modelcontextprotocol/serverInfo": SERVER_INFO}, "resultType": "complete"}}


@pytest.mark.parametrize("kind", list(SERVERS))
def test_more_listeners_than_threads_are_all_served_and_a_ping_is_never_blocked(kind: str) -> None:
    with ServerProcess(SERVERS[kind], env={"LISTEN_HOLD": "3"}) as served, contextlib.ExitStack() as stack:
        updates: dict[int, list[str]] = {n: [] for n in range(LISTENERS)}
        subscriptions = []
        addresses = clients(stack, LISTENERS + 1)  # each listener from an address of its own: none past its share
        for n in range(LISTENERS):
            client = Client(HTTP(served.url, timeout=TIMEOUT, session=addresses[n]))
            client.connect()
            stack.callback(client.close)
            subscriptions.append(client.listen(
                resource_uris=[f"res://{n}"], wait=None,
                callback=lambda method, params, n=n: updates[n].append(params["uri"]),
            ))
        toucher = Client(HTTP(served.url, timeout=TIMEOUT, session=addresses[LISTENERS]))
        toucher.connect()
        stack.callback(toucher.close)
        pinged = []

        def everyone_served() -> bool:
            waiting = [n for n in range(LISTENERS) if not updates[n]]
            for n in waiting:
                toucher.call_tool("touch", {"uri": f"res://{n}"})
            pinged.append(toucher.ping())  # another client's request, among the listens
            return not waiting

        assert wait_until(everyone_served, timeout=90, interval=0.2)
        assert all(uris and set(uris) == {f"res://{n}"} for n, uris in updates.items())
        assert pinged and all(answer == {} for answer in pinged)
        assert all(subscription.acknowledged == {"resourceSubscriptions": [f"res://{n}"]}
                   for n, subscription in enumerate(subscriptions))
        assert sum(subscription.attempts for subscription in subscriptions) > LISTENERS  # ended, and listened again
        assert [subscription.refused for subscription in subscriptions] == [0] * LISTENERS  # never a 503 or a 429


def acknowledged(response: requests.Response) -> t.Iterator[t.Any]:
    """The messages of a listen's stream, its acknowledgement read and checked first."""
    events = (event.message for event in read_events(response) if event.data)
    assert next(events)["method"] == "notifications/subscriptions/acknowledged"
    return events


def test_a_newcomer_past_the_share_ends_the_oldest_listen_of_the_client_holding_the_most() -> None:
    # waitress with 8 threads: 2 kept for requests, 6 for listens, 3 for one client.
    with ServerProcess([PYTHON, "-m", "spec.support.listen_app", "{port}", "8"]) as served, contextlib.ExitStack() as stack:
        many, some, one, newcomer = clients(stack, 4)
        listens = [stack.enter_context(post(served.url, listen_request(f"many{n}"), via=many)) for n in range(3)]
        listens += [stack.enter_context(post(served.url, listen_request(f"some{n}"), via=some)) for n in range(2)]
        listens.append(stack.enter_context(post(served.url, listen_request("one"), via=one)))
        streams = [acknowledged(response) for response in listens]
        time.sleep(1.1)  # older than MIN_LISTEN_AGE: a newcomer may end them
        with post(served.url, listen_request("new"), via=newcomer) as new:
            assert list(streams[0]) == [ended("many0")]  # read to the end of the stream
            assert_valid_modern("subscriptions/listen", ended("many0"))
            assert listens[0].headers["Content-Type"] == "text/event-stream"
            assert next(read_events(new)).message == {
                "jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                "params": {"_meta": {TAG: "new"}, "notifications": {"toolsListChanged": True}}}


def test_a_newcomer_finding_every_client_at_its_fair_part_is_ended_at_once_and_nobody_else() -> None:
    # waitress with 8 threads: 6 listens, each of another client; a seventh client pushes in.
    with ServerProcess([PYTHON, "-m", "spec.support.listen_app", "{port}", "8"]) as served, contextlib.ExitStack() as stack:
        *holders, newcomer = clients(stack, 7)
        listens = [stack.enter_context(post(served.url, listen_request(n, {"resourceSubscriptions": [f"res://{n}"]}), via=holder))
                   for n, holder in enumerate(holders)]
        streams = [acknowledged(response) for response in listens]
        time.sleep(1.1)  # old enough to be ended, were ending them the rule
        with post(served.url, listen_request("new"), via=newcomer) as new:
            assert [event.message for event in read_events(new) if event.data] == [
                {"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                 "params": {"_meta": {TAG: "new"}, "notifications": {"toolsListChanged": True}}},
                ended("new"),
            ]
        for n in range(len(holders)):  # every holder still listens: each hears its own resource
            assert touch(served.url, f"res://{n}", n, via=newcomer).status_code == 200
            assert next(streams[n]) == {"jsonrpc": "2.0", "method": "notifications/resources/updated",
                                        "params": {"_meta": {TAG: n}, "uri": f"res://{n}"}}


def test_one_anonymous_address_past_half_the_share_gets_429_and_other_addresses_are_served() -> None:
    server = Server(name="listen-spec", version="1.0.0")
    transport = StreamableHTTPTransport(server, limits=StreamableHTTPTransport.Limits(wsgi_threads=8))
    with LiveServer(transport, closeables=[transport]) as live, contextlib.ExitStack() as stack:
        abuser, other = clients(stack, 2)
        # 8 threads: 6 for listens, 3 of them for one client address.
        held = [stack.enter_context(post(live.url, listen_request(n), via=abuser)) for n in range(3)]
        assert [next(read_events(stream)).message["params"]["_meta"][TAG] for stream in held] == [0, 1, 2]
        refused = post(live.url, listen_request(3), via=abuser)
        assert (refused.status_code, refused.headers["Retry-After"]) == (429, "1")
        assert refused.json() == {"jsonrpc": "2.0", "id": 3, "error": {
            "code": -32600, "message": "Too Many Requests: this client has 3 subscriptions/listen streams open (the most is 3)"}}
        mine = stack.enter_context(post(live.url, listen_request("o"), via=other))
        assert next(read_events(mine)).message["method"] == "notifications/subscriptions/acknowledged"
        discover = post(live.url, modern_request("server/discover", id="d"), via=other)
        assert discover.status_code == 200 and discover.json()["id"] == "d"


#: The review's attack (finding 10): bursts of this many listens from one address ...
BURST = 6
#: ... every this many seconds ...
BURST_EVERY = 1.1
#: ... this many times (about 8 s), while each victim is sent this many notifications.
BURSTS = 7
NOTIFICATIONS = 32


def burst_listens(url: str, rounds: int, statuses: list[int]) -> None:
    """The attack: ``rounds`` bursts of :data:`BURST` listens at once from one address, every
    :data:`BURST_EVERY` s; the listens of one burst are held until the next, then dropped."""
    with contextlib.ExitStack() as stack, concurrent.futures.ThreadPoolExecutor(BURST, thread_name_prefix="burst") as pool:
        attacker = from_address(loopback(99))
        stack.callback(attacker.close)
        for round in range(rounds):
            started = time.monotonic()
            with contextlib.ExitStack() as held:
                for response in pool.map(lambda n: post(url, listen_request(f"a{round}.{n}"), via=attacker), range(BURST)):
                    held.enter_context(response)
                    statuses.append(response.status_code)
                time.sleep(max(0.0, BURST_EVERY - (time.monotonic() - started)))  # the attack's pace


def test_bursts_of_listens_from_another_address_never_end_a_victims_listen() -> None:
    # gunicorn gthread with 4 threads: 3 for listens, one per address. Two victims fill two places;
    # before, each burst ended the oldest listens and the victims missed notifications.
    with ServerProcess(SERVERS["gunicorn"]) as served, contextlib.ExitStack() as stack:
        victims, toucher = clients(stack, 2), from_address(loopback(2))
        stack.callback(toucher.close)
        listens = [stack.enter_context(post(served.url, listen_request(f"v{n}", {"resourceSubscriptions": ["res://v"]}), via=victim))
                   for n, victim in enumerate(victims)]
        streams = [acknowledged(response) for response in listens]
        statuses: list[int] = []
        attack = threading.Thread(target=burst_listens, args=(served.url, BURSTS, statuses), name="attack")
        attack.start()
        try:
            for n in range(NOTIFICATIONS):  # spread over the attack
                assert touch(served.url, "res://v", n, via=toucher).status_code == 200
                time.sleep(BURSTS * BURST_EVERY / NOTIFICATIONS)  # the notifications' pace
        finally:
            attack.join(TIMEOUT * BURSTS)
        assert not attack.is_alive()
        assert touch(served.url, "res://v", "last", via=toucher).status_code == 200  # the stream is still open: no result before it
        for n, stream in enumerate(streams):
            heard = [next(stream) for _ in range(NOTIFICATIONS + 1)]
            assert heard == [{"jsonrpc": "2.0", "method": "notifications/resources/updated",
                              "params": {"_meta": {TAG: f"v{n}"}, "uri": "res://v"}}] * (NOTIFICATIONS + 1)
        assert len(statuses) == BURST * BURSTS and set(statuses) <= {200, 429}  # its own listens took turns, or were refused


def test_on_a_single_thread_a_listen_is_acknowledged_and_ended_at_once() -> None:
    # No thread beyond the one kept for requests: holding it would leave the server deaf.
    with ServerProcess([PYTHON, "-m", "spec.support.listen_app", "{port}", "1"]) as served:
        with post(served.url, listen_request("only")) as response:
            messages = [event.message for event in read_events(response) if event.data]
        assert [message.get("method") for message in messages] == ["notifications/subscriptions/acknowledged", None]
        assert messages[1] == ended("only")
        discover = post(served.url, modern_request("server/discover", id="d"))
        assert discover.status_code == 200 and discover.json()["id"] == "d"


def test_a_listen_past_listen_hold_ends_with_its_result_on_the_wire() -> None:
    with ServerProcess([PYTHON, "-m", "spec.support.listen_app", "{port}", "4"], env={"LISTEN_HOLD": "0.5"}) as served:
        with post(served.url, listen_request(7, {"resourceSubscriptions": ["res://x"]})) as response:
            assert response.status_code == 200
            body = response.raw.read(decode_content=True)
    data = [line[len("data: "):] for line in body.decode().split("\n") if line.startswith("data: ")]
    assert [json.loads(text) for text in data] == [
        {"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
         "params": {"_meta": {TAG: 7}, "notifications": {"resourceSubscriptions": ["res://x"]}}},
        ended(7),
    ]
    assert body.endswith(b"data: " + json.dumps(ended(7), separators=(",", ":")).encode() + b"\n\n")


def test_a_request_that_would_leave_no_thread_free_ends_the_newest_listen() -> None:
    server = Server(name="listen-spec", version="1.0.0")

    @server.define_tool(name="touch", input_schema={"properties": {"uri": {"type": "string"}}})
    def touch_tool(args: dict[str, t.Any]) -> str:
        server.notify_resources_updated(str(args["uri"]))
        return "touched"

    transport = StreamableHTTPTransport(server, limits=StreamableHTTPTransport.Limits(wsgi_threads=4))
    with LiveServer(transport, closeables=[transport]) as live, contextlib.ExitStack() as stack:
        listeners = clients(stack, 3)  # the share of 4 threads, one listen per address
        streams = [stack.enter_context(post(live.url, listen_request(f"L{n}", {"resourceSubscriptions": [f"res://{n}"]}), via=listener))
                   for n, listener in enumerate(listeners)]
        readers = [acknowledged(stream) for stream in streams]
        discover = post(live.url, modern_request("server/discover", id="d"))  # takes the last of 4 threads
        assert discover.status_code == 200 and discover.json()["id"] == "d"
        assert list(readers[2]) == [ended("L2")]  # read to the stream's end
        for n in range(2):  # the older listens stay
            assert touch(live.url, f"res://{n}", n).status_code == 200
            assert next(readers[n]) == {"jsonrpc": "2.0", "method": "notifications/resources/updated",
                                        "params": {"_meta": {TAG: f"L{n}"}, "uri": f"res://{n}"}}


def test_one_principal_holding_many_listens_gets_429_and_others_are_served() -> None:
    server = Server(name="listen-spec", version="1.0.0")
    transport = StreamableHTTPTransport(
        server, limits=StreamableHTTPTransport.Limits(wsgi_threads=8),
        security=StreamableHTTPTransport.Security(authenticate=lambda environ: Principal(subject=environ.get("HTTP_X_USER"))),
    )
    with LiveServer(transport, closeables=[transport]) as live, contextlib.ExitStack() as stack:
        # 8 threads: 6 for listens, 3 of them for one principal.
        held = [stack.enter_context(post(live.url, listen_request(n), {"X-User": "abuser"})) for n in range(3)]
        assert [next(read_events(stream)).message["params"]["_meta"][TAG] for stream in held] == [0, 1, 2]
        refused = post(live.url, listen_request(3), {"X-User": "abuser"})
        assert (refused.status_code, refused.headers["Retry-After"]) == (429, "1")
        assert refused.json() == {"jsonrpc": "2.0", "id": 3, "error": {
            "code": -32600, "message": "Too Many Requests: this client has 3 subscriptions/listen streams open (the most is 3)"}}
        other = stack.enter_context(post(live.url, listen_request("o"), {"X-User": "someone"}))
        assert next(read_events(other)).message["method"] == "notifications/subscriptions/acknowledged"
        discover = post(live.url, modern_request("server/discover", id="d"), {"X-User": "someone"})
        assert discover.status_code == 200 and discover.json()["id"] == "d"


def test_our_client_backs_off_from_a_server_that_ends_every_listen_at_once() -> None:
    server = Server(name="listen-spec", version="1.0.0")
    transport = StreamableHTTPTransport(server, limits=StreamableHTTPTransport.Limits(listen_hold=0.001))
    listens: list[float] = []  # the listen requests that reached the server

    def app(environ: dict[str, t.Any], start_response: t.Callable[..., t.Any]) -> t.Iterable[bytes]:
        if environ.get("HTTP_MCP_METHOD") == "subscriptions/listen":
            listens.append(time.monotonic())
        return transport(environ, start_response)

    with LiveServer(app, closeables=[transport]) as live:
        client = Client(HTTP(live.url, timeout=TIMEOUT))
        client.connect()
        try:
            subscription = client.listen(tools=True)
            time.sleep(6.0)
            attempts = subscription.attempts
            assert subscription.active and subscription.refused == 0
        finally:
            client.close()
    assert len(listens) == attempts
    # Waits of 0.5-1, 1-2, 2-4, 4-8 s: within 6 s at most 4 listens (a constant 1 s would be 7, none hundreds).
    assert 2 <= attempts <= 4


def test_our_client_waits_for_retry_after_when_its_listen_is_refused() -> None:
    server = Server(name="listen-spec", version="1.0.0")
    transport = StreamableHTTPTransport(server)
    refusals: list[float] = []

    def app(environ: dict[str, t.Any], start_response: t.Callable[..., t.Any]) -> t.Iterable[bytes]:
        if environ.get("HTTP_MCP_METHOD") == "subscriptions/listen":
            refusals.append(time.monotonic())
            environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
            start_response("503 Service Unavailable", [("Retry-After", "2"), ("Content-Type", "text/plain")])
            return [b"busy"]
        return transport(environ, start_response)

    with LiveServer(app, closeables=[transport]) as live:
        client = Client(HTTP(live.url, timeout=TIMEOUT))
        client.connect()
        try:
            subscription = client.listen(tools=True, wait=None)
            time.sleep(3.0)
            attempts, refused = subscription.attempts, subscription.refused
            assert subscription.active  # a refusal is never given up
        finally:
            client.close()
    assert attempts == refused == len(refusals)
    assert attempts == 2  # at once, then after Retry-After: 2 (the next no sooner than 4 s)


def test_listening_again_tells_of_the_changes_it_may_have_missed() -> None:
    with ServerProcess([PYTHON, "-m", "spec.support.listen_app", "{port}", "4"], env={"LISTEN_HOLD": "1"}) as served:
        client = Client(HTTP(served.url, timeout=TIMEOUT))
        seen: list[tuple[str, t.Any]] = []
        lock = threading.Lock()

        def record(method: str, params: dict[str, t.Any]) -> None:
            with lock:
                seen.append((method, params.get("uri")))

        client.on_notification(record)
        client.connect()
        try:
            subscription = client.listen(tools=True, resource_uris=["res://a"])
            first_id = subscription.request_id
            assert wait_until(lambda: subscription.attempts >= 2 and subscription.request_id != first_id and len(seen) >= 2)
        finally:
            client.close()
    assert seen[:2] == [("notifications/tools/list_changed", None), ("notifications/resources/updated", "res://a")]
