"""The Transport base class: its contract, its dispatch helper, and a custom transport built on it."""

from __future__ import annotations

import threading
import typing as t

import pytest

from mcp_sdk import Client, Server, Tool
from mcp_sdk.cancellation import Cancellation
from mcp_sdk.client.transport import Message, PendingRequests, Transport, Waiter
from mcp_sdk.errors import CancelledError, RequestTimeoutError, TransportError


class InProcess(Transport):
    """A whole transport in a dozen lines: the server's session lives in this process."""

    def __init__(self, server: Server) -> None:
        self.session = server.create_session(self._from_server)

    def send_request(self, request: Message, *, timeout: float | None = None,
                     cancellation: Cancellation | None = None) -> Message:
        return t.cast(Message, self.session.handle(request))

    def send_notification(self, notification: Message) -> None:
        self.session.handle(notification)

    def close(self) -> None:
        self.session.close()

    def _from_server(self, message: Message, related_request_id: t.Any) -> None:
        self.dispatch(message, self.session.handle)


def test_methods_to_implement_raise_not_implemented() -> None:
    transport = Transport()
    with pytest.raises(NotImplementedError):
        transport.send_request({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    with pytest.raises(NotImplementedError):
        transport.send_notification({"jsonrpc": "2.0", "method": "x"})
    with pytest.raises(NotImplementedError):
        transport.close()


def test_a_custom_transport_carries_everything() -> None:
    server = Server(name="in_process")

    @server.define_tool(name="ask")
    def ask(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        answer = server_context.create_sampling_message(messages=[], max_tokens=1, timeout=5)
        server_context.report_progress(1, total=1)
        return Tool.Response([{"type": "text", "text": answer["content"]["text"]}])

    with Client(transport=InProcess(server)) as client:
        client.on_sampling(lambda params: {"role": "assistant", "content": {"type": "text", "text": "in-process"}, "model": "m"})
        progress: list[t.Any] = []
        client.on_progress(progress.append)
        client.connect()
        assert client.server_info is not None and client.server_info["name"] == "in_process"
        response = client.call_tool(name="ask", progress_token="p")
        assert response["result"]["content"] == [{"type": "text", "text": "in-process"}]
        assert progress == [{"progressToken": "p", "progress": 1, "total": 1}]


class TestDispatch:
    def test_notifications_run_inline(self) -> None:
        transport = Transport()
        seen: list[tuple[str, str]] = []
        transport.set_message_handler(lambda message: seen.append((message["method"], threading.current_thread().name)))
        transport.dispatch({"jsonrpc": "2.0", "method": "notifications/x"}, reply=lambda m: None)
        assert seen == [("notifications/x", threading.current_thread().name)]

    def test_requests_run_on_a_named_thread_and_reply(self) -> None:
        transport = Transport()
        replies: list[Message] = []
        done = threading.Event()
        names: list[str] = []

        def handler(message: Message) -> Message:
            names.append(threading.current_thread().name)
            return {"jsonrpc": "2.0", "id": message["id"], "result": {}}

        transport.set_message_handler(handler)
        transport.dispatch({"jsonrpc": "2.0", "id": 7, "method": "roots/list"}, reply=lambda m: (replies.append(m), done.set()))
        assert done.wait(5)
        assert replies == [{"jsonrpc": "2.0", "id": 7, "result": {}}]
        assert names == ["mcp-client-request-roots/list-7"]

    def test_requests_without_a_handler(self) -> None:
        replies: list[Message] = []
        Transport().dispatch({"jsonrpc": "2.0", "id": 1, "method": "roots/list"}, reply=replies.append)
        assert replies == [{"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found: roots/list"}}]

    def test_a_failing_handler_answers_internal_error(self) -> None:
        transport = Transport()
        replies: list[Message] = []
        done = threading.Event()

        def handler(message: Message) -> Message:
            raise RuntimeError("boom")

        transport.set_message_handler(handler)
        transport.dispatch({"jsonrpc": "2.0", "id": 2, "method": "x"}, reply=lambda m: (replies.append(m), done.set()))
        assert done.wait(5)
        assert replies == [{"jsonrpc": "2.0", "id": 2, "error": {"code": -32603, "message": "Internal error"}}]


class TestPendingRequests:
    def test_resolve_by_id(self) -> None:
        pending = PendingRequests()
        waiter = pending.add({"id": 1, "method": "ping"})
        assert pending.resolve({"jsonrpc": "2.0", "id": 1, "result": {}})
        assert waiter.wait(1) == {"jsonrpc": "2.0", "id": 1, "result": {}}
        assert not pending.resolve({"jsonrpc": "2.0", "id": 1, "result": {}})

    def test_duplicate_ids_are_refused(self) -> None:
        pending = PendingRequests()
        pending.add({"id": 1, "method": "ping"})
        with pytest.raises(ValueError):
            pending.add({"id": 1, "method": "ping"})

    def test_failure_is_final_and_keeps_the_first_reason(self) -> None:
        pending = PendingRequests()
        waiter = pending.add({"id": 1, "method": "ping"})
        pending.fail_all(TransportError("server exited with code 3"))
        pending.fail_all(TransportError("closed"))
        with pytest.raises(TransportError, match="code 3"):
            waiter.wait(1)
        with pytest.raises(TransportError, match="code 3"):
            pending.add({"id": 2, "method": "ping"})

    def test_waiter_timeout_and_cancellation(self) -> None:
        with pytest.raises(RequestTimeoutError, match="ping got no response within 0.01 seconds"):
            Waiter(1, "ping").wait(0.01)
        cancellation = Cancellation()
        cancellation.cancel("why")
        with pytest.raises(CancelledError) as raised:
            Waiter(2, "ping").wait(1, cancellation)
        assert raised.value.reason == "why"


class TestATransportWrittenToTheRubyInterface:
    """The gem's interface: any object with ``send_request(request:)`` returning the response."""

    def _server(self) -> Server:
        server = Server(name="ruby-shaped")

        @server.define_tool(name="echo", input_schema={"properties": {"text": {"type": "string"}}})
        def echo(args: dict[str, t.Any]) -> str:
            return args["text"]

        return server

    def test_a_positional_send_request_is_enough(self) -> None:
        server = self._server()
        sent: list[dict[str, t.Any]] = []

        class RubyShaped:
            def send_request(self, request: dict[str, t.Any]) -> dict[str, t.Any]:
                sent.append(request)
                return t.cast("dict[str, t.Any]", server.handle(request))

        client = Client(transport=RubyShaped())
        assert client.ping() == {}
        response = client.call_tool(name="echo", arguments={"text": "hi"})
        assert response == {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "hi"}], "isError": False}}
        assert sent[0] == {"jsonrpc": "2.0", "id": 1, "method": "ping"}

    def test_a_keyword_only_request_and_no_send_notification(self, caplog: pytest.LogCaptureFixture) -> None:
        server = self._server()

        class RubyShaped:
            def send_request(self, *, request: dict[str, t.Any]) -> dict[str, t.Any]:
                return t.cast("dict[str, t.Any]", server.handle(request))

        client = Client(transport=RubyShaped())
        client.connect(mode="legacy")  # initialize is followed by a notification this transport cannot send
        assert client.server_info is not None and client.server_info["name"] == "ruby-shaped"
        assert "has no send_notification" in caplog.text
        with pytest.raises(TransportError, match="cannot send notifications"):
            client.notify("notifications/roots/list_changed")

    def test_an_object_without_send_request_is_refused_at_once(self) -> None:
        with pytest.raises(TypeError, match="send_request"):
            Client(transport=object())  # type: ignore[arg-type]


class TestCarriesHeaders:
    """The 2026-07-28 request headers go to a transport that declares ``carries_headers``, and to no other."""

    DISCOVER = {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {},
                "serverInfo": {"name": "modern", "version": "1"}}

    def _headers_seen(self, carries: bool) -> list[t.Any]:
        from spec.support.client_fake_transport import RecordingTransport

        seen: list[t.Any] = []

        class Recording(RecordingTransport):
            carries_headers = carries

            def send_request(self, request: Message, *, timeout: float | None = None,
                             cancellation: Cancellation | None = None, **extra: t.Any) -> Message:
                seen.append(extra.get("headers"))
                return super().send_request(request, timeout=timeout, cancellation=cancellation)

        client = Client(transport=Recording({"server/discover": self.DISCOVER, "tools/list": {"tools": []}}))
        client.connect(mode="modern")
        client.list_tools()
        return seen

    def test_the_default_is_false_and_http_declares_it(self) -> None:
        from mcp_sdk.client.http import HTTP

        assert Transport.carries_headers is False
        assert HTTP.carries_headers is True

    def test_a_transport_that_declares_it_gets_the_headers(self) -> None:
        assert self._headers_seen(True) == [
            {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"},
            {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"},
        ]

    def test_one_that_does_not_gets_none_even_if_send_request_would_take_them(self) -> None:
        assert self._headers_seen(False) == [None, None]
