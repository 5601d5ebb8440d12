"""2026-07-28 listen streams on a threaded server (issue 17, item 4).

A ``subscriptions/listen`` stream cannot be resumed, so it holds a WSGI thread while open. The
transport bounds them (a share of the threads, ``Limits.listen_hold``) and ends the oldest
gracefully, with the ``subscriptions/listen`` result, when it needs the thread back; our
:class:`~mcp_sdk.Client` listens again with backoff and tells of the changes it may have missed.
On real servers: waitress with 4 threads and gunicorn ``gthread`` with 4, eight listeners.
"""

from __future__ import annotations

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


def post(url: str, message: dict[str, t.Any], headers: dict[str, str] | None = None) -> requests.Response:
    return requests.post(
        url, json=message, stream=True, timeout=TIMEOUT,
        headers={"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2026-07-28",
                 "Mcp-Method": message["method"], **(headers or {})},
    )


def ended(id: t.Any) -> dict[str, t.Any]:
    """The ``subscriptions/listen`` result of a listen the server ended (the spec's graceful closure)."""
    return {"jsonrpc": "2.0", "id": id,
            "result": {"_meta": {TAG: id, "io.modelcontextprotocol/serverInfo": SERVER_INFO}, "resultType": "complete"}}


@pytest.mark.parametrize("kind", list(SERVERS))
def test_more_listeners_than_threads_are_all_served_and_a_ping_is_never_blocked(kind: str) -> None:
    with ServerProcess(SERVERS[kind], env={"LISTEN_HOLD": "3"}) as served, contextlib.ExitStack() as stack:
        updates: dict[int, list[str]] = {n: [] for n in range(LISTENERS)}
        subscriptions = []
        for n in range(LISTENERS):
            client = Client(HTTP(served.url, timeout=TIMEOUT))
            client.connect()
            stack.callback(client.close)
            subscriptions.append(client.listen(
                resource_uris=[f"res://{n}"], wait=None,
                callback=lambda method, params, n=n: updates[n].append(params["uri"]),
            ))
        toucher = Client(HTTP(served.url, timeout=TIMEOUT))
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


def test_a_newcomer_past_the_share_ends_the_oldest_listen_with_its_result() -> None:
    # waitress with 2 threads: one is kept for JSON requests, one listen at a time.
    with ServerProcess([PYTHON, "-m", "spec.support.listen_app", "{port}", "2"]) as served:
        with post(served.url, listen_request("first")) as first:
            events = read_events(first)
            assert next(events).message["method"] == "notifications/subscriptions/acknowledged"
            time.sleep(1.1)  # older than MIN_LISTEN_AGE: a newcomer may end it
            with post(served.url, listen_request("second")) as second:
                rest = [event.message for event in events if event.data]  # read to the end of the stream
                assert rest == [ended("first")]
                assert_valid_modern("subscriptions/listen", rest[0])
                assert first.headers["Content-Type"] == "text/event-stream"
                acknowledged = next(read_events(second)).message
                assert acknowledged == {"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                                        "params": {"_meta": {TAG: "second"}, "notifications": {"toolsListChanged": True}}}


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


def test_a_request_that_would_leave_no_thread_free_ends_the_oldest_listen() -> None:
    server = Server(name="listen-spec", version="1.0.0")
    transport = StreamableHTTPTransport(server, limits=StreamableHTTPTransport.Limits(wsgi_threads=4))
    with LiveServer(transport, closeables=[transport]) as live, contextlib.ExitStack() as stack:
        streams = [stack.enter_context(post(live.url, listen_request(f"L{n}"))) for n in range(3)]  # the share of 4 threads
        readers = [read_events(stream) for stream in streams]
        assert [next(reader).message["params"]["_meta"][TAG] for reader in readers] == ["L0", "L1", "L2"]
        time.sleep(1.1)  # older than MIN_LISTEN_AGE
        discover = post(live.url, modern_request("server/discover", id="d"))  # takes the last of 4 threads
        assert discover.status_code == 200 and discover.json()["id"] == "d"
        assert [event.message for event in readers[0] if event.data] == [ended("L0")]  # read to the stream's end


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
