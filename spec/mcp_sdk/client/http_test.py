"""HTTP: the exact requests the transport makes, against a scripted server on 127.0.0.1."""

from __future__ import annotations

import socket
import threading
import time
import typing as t

import pytest

import mcp_sdk
from mcp_sdk import Client
from mcp_sdk.client import HTTP
from spec.support.client_http_server import (
    TIMEOUT,
    Reply,
    Request,
    ScriptedServer,
    basic_handler,
    json_reply,
    response_to,
    sse_event,
    sse_reply,
)

ACCEPT_BOTH = "application/json, text/event-stream"


def is_call(request: Request, method: str) -> bool:
    return request.method == "POST" and isinstance(request.body, dict) and request.body.get("method") == method


def connected(server: ScriptedServer, **options: t.Any) -> Client:
    options.setdefault("timeout", TIMEOUT)
    client = Client(transport=HTTP(url=server.url, **options))
    client.connect(mode="legacy")
    return client


class TestWire:
    def test_handshake_headers_and_delete(self) -> None:
        with ScriptedServer(basic_handler()) as server:
            client = Client(transport=HTTP(url=server.url, headers={"Authorization": "Bearer t0k"}, timeout=TIMEOUT))
            client.connect(mode="legacy", client_info={"name": "spec", "version": "1"})
            assert client.ping() == {}
            client.close()
            initialize, initialized, get, ping, delete = server.requests
        assert initialize.method == "POST" and initialize.path == "/mcp"
        assert initialize.body == {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "spec", "version": "1"}},
        }
        assert initialize.headers["accept"] == ACCEPT_BOTH
        assert initialize.headers["content-type"] == "application/json"
        assert initialize.headers["authorization"] == "Bearer t0k"
        assert "mcp-session-id" not in initialize.headers and "mcp-protocol-version" not in initialize.headers
        assert initialized.body == {"jsonrpc": "2.0", "method": "notifications/initialized"}
        for later in (initialized, get, ping, delete):
            assert later.headers["mcp-session-id"] == "session-1"
            assert later.headers["mcp-protocol-version"] == "2025-11-25"
            assert later.headers["authorization"] == "Bearer t0k"
        assert get.method == "GET" and get.headers["accept"] == "text/event-stream"  # answered 405: never again
        assert ping.body == {"jsonrpc": "2.0", "id": 2, "method": "ping"}
        assert delete.method == "DELETE"

    def test_stateless_server_gets_no_session_header_and_no_delete(self) -> None:
        with ScriptedServer(basic_handler(session_id=None)) as server:
            client = connected(server)
            client.ping()
            client.close()
        assert server.methods() == ["POST initialize", "POST notifications/initialized", "GET", "POST ping"]
        assert all("mcp-session-id" not in r.headers for r in server.requests)

    def test_connection_is_reused(self) -> None:
        ports: list[int] = []

        def handler(request: Request) -> Reply:
            return json_reply(response_to(request, {}))

        with ScriptedServer(basic_handler(handler)) as server:
            original = server._server.RequestHandlerClass.setup

            def setup(self: t.Any) -> None:
                ports.append(self.client_address[1])
                original(self)

            server._server.RequestHandlerClass.setup = setup  # type: ignore[method-assign]
            client = connected(server)
            for _ in range(5):
                client.ping()
            client.close()
        # initialize, the GET and the rest: one connection carries all the POSTs.
        assert len(set(ports)) <= 2


class TestResponses:
    def test_sse_with_progress_and_log_before_the_response(self) -> None:
        def handler(request: Request) -> Reply:
            token = request.body["params"]["_meta"]["progressToken"]
            return sse_reply(
                [
                    sse_event("", id="p-0", retry=1000),
                    sse_event({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": 1}}, id="p-1"),
                    sse_event({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hi"}}, id="p-2"),
                    sse_event(response_to(request, {"content": [{"type": "text", "text": "done"}]}), id="p-3"),
                ]
            )

        with ScriptedServer(basic_handler(handler)) as server:
            client = connected(server)
            events: list[t.Any] = []
            client.on_progress(lambda p: events.append(("progress", p)))
            client.on_log_message(lambda p: events.append(("log", p)))
            response = client.call_tool(name="work", progress_token="tok")
            client.close()
        assert response == {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "done"}]}}
        assert events == [("progress", {"progressToken": "tok", "progress": 1}), ("log", {"level": "info", "data": "hi"})]

    def test_server_request_on_the_stream_is_answered_by_post(self) -> None:
        answered = threading.Event()
        answers: list[Request] = []

        def handler(request: Request) -> Reply:
            if request.body.get("method") is None:
                answers.append(request)
                answered.set()
                return Reply(202, {})

            def stream() -> t.Iterator[bytes]:
                yield sse_event({"jsonrpc": "2.0", "id": "s-1", "method": "sampling/createMessage",
                                 "params": {"messages": [], "maxTokens": 5}})
                answered.wait(TIMEOUT)
                yield sse_event(response_to(request, {"content": [{"type": "text", "text": answers[0].body["result"]["model"]}]}))

            return sse_reply(stream())

        with ScriptedServer(basic_handler(handler)) as server:
            # Answers come back as POSTs: let basic_handler pass responses to the handler.
            server.handler = lambda r: handler(r) if r.method == "POST" and isinstance(r.body, dict) and "result" in r.body else basic_handler(handler)(r)
            client = connected(server)
            client.on_sampling(lambda p: {"role": "assistant", "content": {"type": "text", "text": "x"}, "model": "m-1"})
            response = client.call_tool(name="ask")
            client.close()
        assert response["result"]["content"][0]["text"] == "m-1"
        (answer,) = answers
        assert answer.body == {
            "jsonrpc": "2.0",
            "id": "s-1",
            "result": {"role": "assistant", "content": {"type": "text", "text": "x"}, "model": "m-1"},
        }
        assert answer.headers["mcp-session-id"] == "session-1"
        assert answer.headers["content-type"] == "application/json"

    def test_json_error_body_with_http_error_status_is_a_server_error(self) -> None:
        def handler(request: Request) -> Reply:
            return json_reply({"jsonrpc": "2.0", "id": request.body["id"], "error": {"code": -32602, "message": "bad"}}, status=400)

        with ScriptedServer(basic_handler(handler)) as server:
            client = connected(server)
            with pytest.raises(Client.ServerError) as raised:
                client.call_tool(name="x")
            client.close()
        assert (raised.value.code, raised.value.message) == (-32602, "bad")

    def test_http_error(self) -> None:
        with ScriptedServer(basic_handler(lambda r: Reply(500, {"Content-Type": "text/plain"}, b"boom"))) as server:
            client = connected(server)
            with pytest.raises(mcp_sdk.TransportError, match=f"POST {server.url} failed: HTTP 500 Internal Server Error: boom"):
                client.ping()
            client.close()

    def test_body_that_is_not_json(self) -> None:
        with ScriptedServer(basic_handler(lambda r: Reply(200, {"Content-Type": "application/json"}, b"{nope"))) as server:
            client = connected(server)
            with pytest.raises(Client.ValidationError, match="not JSON"):
                client.ping()
            client.close()

    def test_unexpected_content_type(self) -> None:
        with ScriptedServer(basic_handler(lambda r: Reply(200, {"Content-Type": "text/html"}, b"<html>"))) as server:
            client = connected(server)
            with pytest.raises(Client.ValidationError, match="text/html"):
                client.ping()
            client.close()

    def test_stream_that_ends_without_answer_or_event_id(self) -> None:
        with ScriptedServer(basic_handler(lambda r: sse_reply([sse_event({"jsonrpc": "2.0", "method": "notifications/x"})]))) as server:
            client = connected(server)
            with pytest.raises(mcp_sdk.TransportError, match="ended the response to ping without answering"):
                client.ping()
            client.close()

    def test_read_timeout(self) -> None:
        release = threading.Event()

        def handler(request: Request) -> Reply:
            def stream() -> t.Iterator[bytes]:
                yield sse_event("", id="1")
                release.wait(TIMEOUT)

            return sse_reply(stream())

        with ScriptedServer(basic_handler(handler)) as server:
            client = connected(server)
            with pytest.raises(mcp_sdk.RequestTimeoutError, match="no data on the event stream within 0.2 seconds"):
                client.call_tool(name="slow", timeout=0.2)
            release.set()
            client.close()


class TestResumption:
    def test_resumes_with_last_event_id_after_retry(self) -> None:
        closed_at: list[float] = []

        def handler(request: Request) -> Reply:
            if request.method == "GET" and "last-event-id" in request.headers:
                call = next(r for r in server.requests if is_call(r, "tools/call"))
                return sse_reply([sse_event("", id="e-3"), sse_event(response_to(call, {"content": []}), id="e-4")])

            def stream() -> t.Iterator[bytes]:
                yield sse_event("", id="e-1", retry=300)
                yield sse_event({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}}, id="e-2")
                closed_at.append(time.monotonic())

            return sse_reply(stream())

        def route(request: Request) -> Reply:
            if request.method == "GET" and "last-event-id" in request.headers or is_call(request, "tools/call"):
                return handler(request)
            return basic_handler()(request)

        with ScriptedServer(route) as server:
            client = connected(server)
            progress: list[t.Any] = []
            client.on_progress(progress.append)
            response = client.call_tool(name="long")
            client.close()
        resumed = next(r for r in server.requests if "last-event-id" in r.headers)
        assert resumed.method == "GET"
        assert resumed.headers["last-event-id"] == "e-2"
        assert resumed.headers["accept"] == "text/event-stream"
        assert resumed.headers["mcp-session-id"] == "session-1"
        assert response == {"jsonrpc": "2.0", "id": 2, "result": {"content": []}}
        assert progress == [{"progressToken": 1, "progress": 1}]

    def test_a_resumption_refused_with_retry_after_is_tried_again(self) -> None:
        # A worker that died holding the stream leaves it claimed until it is seen dead (409), or
        # the server is busy (503): either says when to come back, and the call goes on.
        refusals = [Reply(409, {"Retry-After": "0"}), Reply(503, {"Retry-After": "0"})]

        def route(request: Request) -> Reply:
            if request.method == "GET" and "last-event-id" in request.headers:
                if refusals:
                    return refusals.pop(0)
                call = next(r for r in server.requests if is_call(r, "tools/call"))
                return sse_reply([sse_event(response_to(call, {"content": []}), id="e-2")])
            if is_call(request, "tools/call"):
                return sse_reply([sse_event("", id="e-1", retry=50)])
            return basic_handler()(request)

        with ScriptedServer(route) as server:
            client = connected(server, standalone_stream=False)
            response = client.call_tool(name="long")
            client.close()
        resumptions = [r.headers["last-event-id"] for r in server.requests if r.method == "GET"]
        assert resumptions == ["e-1", "e-1", "e-1"]
        assert response == {"jsonrpc": "2.0", "id": 2, "result": {"content": []}}

    def test_waits_the_retry_interval(self) -> None:
        times: dict[str, float] = {}

        def route(request: Request) -> Reply:
            if request.method == "GET" and "last-event-id" in request.headers:
                times["get"] = time.monotonic()
                call = next(r for r in server.requests if is_call(r, "ping"))
                return sse_reply([sse_event(response_to(call, {}), id="2")])
            if is_call(request, "ping"):
                def stream() -> t.Iterator[bytes]:
                    yield sse_event("", id="1", retry=400)
                    times["closed"] = time.monotonic()

                return sse_reply(stream())
            return basic_handler()(request)

        with ScriptedServer(route) as server:
            client = connected(server)
            assert client.ping() == {}
            client.close()
        assert times["get"] - times["closed"] >= 0.38

    def test_gives_up_after_max_reconnects(self) -> None:
        def route(request: Request) -> Reply:
            if request.method == "GET" and "last-event-id" in request.headers:
                return sse_reply([b": nothing new\n\n"])
            if is_call(request, "ping"):
                return sse_reply([sse_event("", id="first", retry=10)])
            return basic_handler()(request)

        with ScriptedServer(route) as server:
            client = connected(server, max_reconnects=3)
            with pytest.raises(mcp_sdk.TransportError, match="gave up resuming the stream after 3 attempts"):
                client.ping()
            client.close()
        assert sum(1 for r in server.requests if "last-event-id" in r.headers) == 3


class TestSessions:
    def test_404_on_a_session_is_session_expired(self) -> None:
        expired = threading.Event()

        def route(request: Request) -> Reply:
            if expired.is_set() and request.headers.get("mcp-session-id") == "session-1":
                return json_reply({"jsonrpc": "2.0", "id": None, "error": {"code": -32001, "message": "Session not found"}}, status=404)
            return basic_handler()(request)

        with ScriptedServer(route) as server:
            client = connected(server)
            transport = t.cast(HTTP, client.transport)
            expired.set()
            with pytest.raises(mcp_sdk.SessionExpiredError, match=r"session session-1 has expired or is unknown to the server \(HTTP 404\); call connect\(\) .* several processes"):
                client.ping()
            assert transport.session_id is None
            expired.clear()
            client.connect(mode="legacy")  # a fresh initialize, without the dead session id
            assert transport.session_id == "session-1"
            client.close()
        initializes = [r for r in server.requests if is_call(r, "initialize")]
        assert len(initializes) == 2 and "mcp-session-id" not in initializes[1].headers

    def test_unreachable_server(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        url = f"http://127.0.0.1:{port}/mcp"
        client = Client(transport=HTTP(url=url, timeout=2))
        with pytest.raises(mcp_sdk.TransportError, match=f"POST {url} failed"):
            client.connect(mode="legacy")
        client.close()


class TestStandaloneStream:
    def test_server_initiated_messages(self) -> None:
        posted = threading.Event()
        answers: list[Request] = []

        def route(request: Request) -> Reply:
            if request.method == "GET":
                def stream() -> t.Iterator[bytes]:
                    yield sse_event("", id="g-0")
                    yield sse_event({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}, id="g-1")
                    yield sse_event({"jsonrpc": "2.0", "id": 77, "method": "roots/list"}, id="g-2")
                    server.stopping.wait(TIMEOUT)  # open until the client leaves

                return sse_reply(stream())
            if request.method == "POST" and isinstance(request.body, dict) and "result" in request.body:
                answers.append(request)
                posted.set()
                return Reply(202, {})
            return basic_handler()(request)

        with ScriptedServer(route) as server:
            client = Client(transport=HTTP(url=server.url, timeout=TIMEOUT))
            changes: list[str] = []
            client.on_notification(lambda method, params: changes.append(method))
            client.on_roots(lambda params: [{"uri": "file:///r"}])
            client.connect(mode="legacy")
            assert posted.wait(TIMEOUT)
            listeners = [th for th in threading.enumerate() if th.name.startswith("mcp-client-http-listener")]
            assert len(listeners) == 1
            started = time.monotonic()
            client.close()
            assert time.monotonic() - started < TIMEOUT
            assert not listeners[0].is_alive()
        assert changes == ["notifications/tools/list_changed"]
        assert answers[0].body == {"jsonrpc": "2.0", "id": 77, "result": {"roots": [{"uri": "file:///r"}]}}

    def test_202_response_arrives_on_the_standalone_stream(self) -> None:
        calls: list[Request] = []
        arrived = threading.Event()

        def route(request: Request) -> Reply:
            if request.method == "GET":
                def stream() -> t.Iterator[bytes]:
                    yield sse_event("", id="g-0")
                    arrived.wait(TIMEOUT)
                    yield sse_event(response_to(calls[0], {"content": []}), id="g-1")
                    server.stopping.wait(TIMEOUT)

                return sse_reply(stream())
            if is_call(request, "tools/call"):
                calls.append(request)
                arrived.set()
                return Reply(202, {})
            return basic_handler()(request)

        with ScriptedServer(route) as server:
            client = connected(server)
            assert client.call_tool(name="later")["result"] == {"content": []}
            client.close()

    def test_a_standalone_stream_refused_with_retry_after_is_opened_again(self) -> None:
        # As after a worker holding the session's GET stream died: 409 until it is seen dead.
        refusals = [Reply(409, {"Retry-After": "0"}), Reply(409, {"Retry-After": "0"})]
        changed = threading.Event()

        def route(request: Request) -> Reply:
            if request.method == "GET":
                if refusals:
                    return refusals.pop(0)

                def stream() -> t.Iterator[bytes]:
                    yield sse_event({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}, id="g-1")
                    server.stopping.wait(TIMEOUT)

                return sse_reply(stream())
            return basic_handler()(request)

        with ScriptedServer(route) as server:
            client = connected(server)
            client.on_notification(lambda method, params: changed.set())
            assert changed.wait(TIMEOUT)
            client.close()
        assert [r.method for r in server.requests if r.method == "GET"] == ["GET"] * 3

    def test_can_be_turned_off(self) -> None:
        with ScriptedServer(basic_handler(get_status=200)) as server:
            client = connected(server, standalone_stream=False)
            client.close()
        assert "GET" not in server.methods()


class TestCancellation:
    def test_cancel_a_post_in_flight(self) -> None:
        def route(request: Request) -> Reply:
            if is_call(request, "tools/call"):
                def stream() -> t.Iterator[bytes]:
                    yield sse_event("", id="1")
                    server.stopping.wait(TIMEOUT)

                return sse_reply(stream())
            return basic_handler()(request)

        with ScriptedServer(route) as server:
            client = connected(server)
            cancellation = mcp_sdk.Cancellation()
            threading.Timer(0.1, cancellation.cancel, kwargs={"reason": "enough"}).start()
            with pytest.raises(mcp_sdk.CancelledError):
                client.call_tool(name="forever", cancellation=cancellation)
            cancelled = server.wait_for(lambda r: is_call(r, "notifications/cancelled"))
            client.close()
        assert cancelled.body == {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": 2, "reason": "enough"},
        }


class FakeOAuthClient:
    """Stands in for mcp_sdk.client.oauth.OAuthClient: refuses the first token, then accepts."""

    instances: list[FakeOAuthClient] = []

    def __init__(self, provider: t.Any, server_url: str, session: t.Any) -> None:
        self.provider = provider
        self.server_url = server_url
        self.session = session
        self.token = "old"
        self.checked: list[str] = []
        self.seen: list[int] = []
        FakeOAuthClient.instances.append(self)

    def check_url(self, url: str) -> None:
        self.checked.append(url)

    def auth_headers(self, method: str | None = None, url: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def wants_nonce_retry(self, response: t.Any) -> bool:
        return False

    def handle_response(self, response: t.Any, *, wait: float | None = None) -> bool:
        self.seen.append(response.status_code)
        if response.status_code == 401:
            self.token = "new"
            return True
        return False


class TestOAuthHook:
    def test_auth_headers_and_one_retry(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import importlib

        oauth = importlib.import_module("mcp_sdk.client.oauth")
        monkeypatch.setattr(oauth, "OAuthClient", FakeOAuthClient)
        FakeOAuthClient.instances.clear()

        def route(request: Request) -> Reply:
            if request.headers.get("authorization") != "Bearer new":
                return Reply(401, {"WWW-Authenticate": 'Bearer realm="mcp"'})
            return basic_handler()(request)

        with ScriptedServer(route) as server:
            provider = object()
            transport = HTTP(url=server.url, oauth=provider, timeout=TIMEOUT)
            client = Client(transport=transport)
            client.connect(mode="legacy")
            client.close()
        (fake,) = FakeOAuthClient.instances
        assert fake.provider is provider and fake.server_url == server.url and fake.session is transport.session
        assert [r.headers.get("authorization") for r in server.requests[:2]] == ["Bearer old", "Bearer new"]
        assert server.methods()[:3] == ["POST initialize", "POST initialize", "POST notifications/initialized"]
        assert fake.seen[:3] == [401, 200, 202]
        assert fake.checked and set(fake.checked) == {server.url}
        # Each request is checked as prepared, and again as its connection opens (it carries a bearer token).
        assert len(fake.checked) == 2 * len(server.requests)

    def test_retries_only_once(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import importlib

        oauth = importlib.import_module("mcp_sdk.client.oauth")
        monkeypatch.setattr(oauth, "OAuthClient", FakeOAuthClient)

        with ScriptedServer(lambda r: Reply(401, {})) as server:
            client = Client(transport=HTTP(url=server.url, oauth=object(), timeout=TIMEOUT))
            with pytest.raises(mcp_sdk.TransportError, match="HTTP 401"):
                client.connect(mode="legacy")
            client.close()
        assert server.methods() == ["POST initialize", "POST initialize"]
