"""ServerSession: one client connection's negotiated state and its traffic in both directions."""

from __future__ import annotations

import threading

import pytest

from mcp_sdk import CancelledError, Configuration, JSONRPCError, RequestTimeoutError, Server, ServerSession, TransportError
from mcp_sdk.cancellation import Cancellation
from spec.support.server_helpers import TIMEOUT, Capture, call_tool, connect, in_background, initialize, notification, request


class TestNegotiatedState:
    def test_before_initialize_the_servers_latest_version_is_in_effect(self):
        session, _ = connect(Server(), initialized=False)
        assert session.protocol_version is None
        assert session.version == "2025-11-25"
        assert session.initialized is False

    def test_a_configured_version_is_in_effect_before_initialize(self):
        session, _ = connect(Server(configuration=Configuration(protocol_version="2025-06-18")), initialized=False)
        assert session.version == "2025-06-18"

    def test_initialize_sets_the_version(self):
        session, _ = connect(Server(), "2024-11-05")
        assert (session.protocol_version, session.version) == ("2024-11-05", "2024-11-05")

    @pytest.mark.parametrize(
        "version, feature, expected",
        [
            ("2024-11-05", "progress_message", False),
            ("2025-03-26", "progress_message", True),
            ("2025-03-26", "elicitation", False),
            ("2025-06-18", "elicitation", True),
            ("2025-06-18", "url_elicitation", False),
            ("2025-11-25", "url_elicitation", True),
        ],
    )
    def test_supports_follows_the_negotiated_version(self, version, feature, expected):
        session, _ = connect(Server(), version)
        assert session.supports(feature) is expected

    @pytest.mark.parametrize(
        "capabilities, capability, expected",
        [
            ({"roots": {}}, "roots", True),
            ({"roots": {"listChanged": True}}, "roots.listChanged", True),
            ({}, "roots", False),
            ({"roots": None}, "roots", False),
            ({"sampling": {}}, "sampling.tools", False),
            ({"sampling": {"tools": {}}}, "sampling.tools", True),
            ({"sampling": True}, "sampling.tools", False),
            ({"elicitation": {}}, "elicitation.form", True),
            ({"elicitation": {"form": {}}}, "elicitation.form", True),
            ({"elicitation": {"url": {}}}, "elicitation.form", False),
            ({"elicitation": {"url": {}}}, "elicitation.url", True),
            ({"elicitation": {}}, "elicitation.url", False),
        ],
    )
    def test_client_supports_reads_the_declared_capabilities(self, capabilities, capability, expected):
        session, _ = connect(Server(), capabilities=capabilities)
        assert session.client_supports(capability) is expected

    def test_reinitializing_replaces_what_the_client_declared(self):
        session, _ = connect(Server(), "2025-06-18", capabilities={"roots": {}})
        initialize(session, "2025-11-25", capabilities={})
        assert session.version == "2025-11-25"
        assert session.client_supports("roots") is False


class TestHandling:
    def test_handle_json_answers_with_json_text(self):
        session, _ = connect(Server())
        assert session.handle_json('{"jsonrpc":"2.0","id":"a","method":"ping"}') == '{"jsonrpc":"2.0","id":"a","result":{}}'
        assert session.handle_json('{"jsonrpc":"2.0","method":"notifications/initialized"}') is None

    def test_encode_of_nothing_is_nothing(self):
        session, _ = connect(Server())
        assert session.encode(None) is None

    @pytest.mark.parametrize(
        "message, expected",
        [
            (request("tools/call", {"name": "x"}), True),
            (request("resources/read", {"uri": "x"}), True),
            (request("ping"), False),
            (request("initialize", {}), False),
            (request("logging/setLevel", {"level": "info"}), False),
            (notification("notifications/cancelled", {"requestId": 1}), False),
            (notification("notifications/initialized"), False),
            ({"jsonrpc": "2.0", "id": 1, "result": {}}, False),
            ([request("ping")], True),
            ("garbage", False),
        ],
    )
    def test_needs_worker_keeps_quick_messages_inline(self, message, expected):
        session, _ = connect(Server(), initialized=False)
        assert session.needs_worker(message) is expected

    def test_sessions_are_independent(self):
        server = Server()
        old, _ = connect(server, "2024-11-05")
        new, _ = connect(server, "2025-11-25")
        assert (old.version, new.version) == ("2024-11-05", "2025-11-25")
        assert old.handle([request("ping")])["error"]["code"] == -32600


class TestSendRequest:
    def test_the_result_of_the_clients_answer_is_returned(self):
        session, capture = connect(Server(), answer=lambda r: Capture.result_for(r, {"roots": []}))
        assert session.send_request("roots/list", timeout=TIMEOUT) == {"roots": []}
        assert capture.requests() == [{"jsonrpc": "2.0", "id": 1, "method": "roots/list"}]

    def test_each_request_gets_a_new_id(self):
        session, capture = connect(Server(), answer=lambda r: Capture.result_for(r, {}))
        for _ in range(3):
            session.send_request("ping", timeout=TIMEOUT)
        ids = [m["id"] for m in capture.requests()]
        assert len(set(ids)) == 3

    def test_an_error_answer_raises_json_rpc_error(self):
        session, _ = connect(Server(), answer=lambda r: Capture.error_for(r, -32601, "Method not found"))
        with pytest.raises(JSONRPCError) as raised:
            session.send_request("roots/list", timeout=TIMEOUT)
        assert (raised.value.code, raised.value.message, raised.value.data) == (-32601, "Method not found", None)

    def test_a_malformed_error_answer_still_raises_json_rpc_error(self):
        session, _ = connect(Server(), answer=lambda r: {"jsonrpc": "2.0", "id": r["id"], "error": "bad"})
        with pytest.raises(JSONRPCError) as raised:
            session.send_request("ping", timeout=TIMEOUT)
        assert raised.value.code == -32603

    def test_no_answer_raises_request_timeout(self):
        session, capture = connect(Server())
        with pytest.raises(RequestTimeoutError, match="roots/list"):
            session.send_request("roots/list", timeout=0.05)
        assert capture.notifications("notifications/cancelled") == [
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "reason": "Request timed out"}}
        ]

    def test_a_cancellation_ends_the_wait(self):
        session, capture = connect(Server())
        token = Cancellation()
        pending = in_background(lambda: session.send_request("ping", cancellation=token, timeout=TIMEOUT))
        (sent,) = capture.wait_for("ping")
        token.cancel("stop")
        with pytest.raises(CancelledError):
            pending.result(TIMEOUT)
        assert capture.notifications("notifications/cancelled") == [
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": sent["id"], "reason": "stop"}}
        ]

    def test_an_already_cancelled_parent_sends_nothing(self):
        session, capture = connect(Server())
        token = Cancellation()
        token.cancel()
        with pytest.raises(CancelledError):
            session.send_request("ping", cancellation=token, timeout=TIMEOUT)
        assert capture.messages == []

    def test_without_a_transport_it_raises_transport_error(self):
        session = Server().create_session()
        with pytest.raises(TransportError):
            session.send_request("ping")

    def test_a_transport_that_cannot_carry_requests_says_so(self):
        session, _ = connect(Server())
        session.can_send_requests = False
        with pytest.raises(TransportError, match="JSON response mode"):
            session.send_request("ping")

    def test_a_closed_session_refuses(self):
        session, _ = connect(Server())
        session.close()
        with pytest.raises(TransportError, match="closed"):
            session.send_request("ping")

    def test_closing_the_session_fails_a_waiting_request(self):
        session, capture = connect(Server())
        pending = in_background(lambda: session.send_request("ping", timeout=TIMEOUT))
        capture.wait_for("ping")
        session.close("Client went away")
        with pytest.raises(TransportError, match="Client went away"):
            pending.result(TIMEOUT)

    def test_a_late_answer_after_a_timeout_is_dropped(self):
        session, capture = connect(Server())
        with pytest.raises(RequestTimeoutError):
            session.send_request("ping", timeout=0.01)
        (sent,) = capture.requests()
        assert session.handle(Capture.result_for(sent, {})) is None


class TestLifecycle:
    def test_close_is_idempotent_and_leaves_the_server(self):
        server = Server()
        session, capture = connect(server)
        assert session in server.sessions
        session.close()
        session.close()
        assert session.closed is True
        assert session not in server.sessions

    def test_nothing_is_written_after_close(self):
        session, capture = connect(Server())
        session.close()
        session.send_notification("notifications/tools/list_changed")
        assert capture.messages == []

    def test_in_flight_requests_are_counted(self):
        server = Server()
        entered, release = threading.Event(), threading.Event()

        @server.define_custom_method(method_name="block")
        def block(params):
            entered.set()
            release.wait(TIMEOUT)
            return "done"

        session, _ = connect(server)
        assert session.in_flight_count == 0
        pending = in_background(lambda: session.handle(request("block", id=1)))
        assert entered.wait(TIMEOUT)
        assert session.in_flight_count == 1
        release.set()
        assert pending.result(TIMEOUT)["result"] == "done"
        assert session.in_flight_count == 0

    def test_repr_names_the_session(self):
        session = ServerSession(Server(), session_id="abc")
        assert "abc" in repr(session)


class TestAcceptedRequests:
    """ServerSession.accept: a transport's note of a request it will run later."""

    def make(self) -> tuple[Server, list[str]]:
        ran: list[str] = []
        server = Server(name="s")

        @server.define_tool(name="work")
        def work(args, server_context=None):
            ran.append("cancelled" if server_context.cancelled() else "ran")
            return "done"

        return server, ran

    def test_a_cancel_before_the_request_starts_reaches_it_and_it_never_runs(self):
        server, ran = self.make()
        session = server.create_session(send=lambda message, related: None)
        token = session.accept(5)
        assert session.cancel_request(5, "changed my mind") is True
        assert token.cancelled() and token.reason == "changed my mind"
        assert session.handle(call_tool("work", id=5), token) is None
        assert ran == []
        assert session.in_flight_count == 0 and session.accept(5) is not None  # the id is free again

    def test_an_accepted_request_runs_with_its_token(self):
        server, ran = self.make()
        session = server.create_session(send=lambda message, related: None)
        token = session.accept(6)
        assert session.handle(call_tool("work", id=6), token)["result"]["content"] == [{"type": "text", "text": "done"}]
        assert ran == ["ran"]

    def test_an_id_accepted_or_in_flight_cannot_be_accepted_again(self):
        server, _ = self.make()
        session = server.create_session(send=lambda message, related: None)
        assert session.accept(7) is not None
        assert session.accept(7) is None
        response = session.handle(call_tool("work", id=7))  # the duplicate, handled without the token
        assert response["error"]["code"] == -32600

    def test_forget_drops_a_request_that_will_not_run(self):
        server, _ = self.make()
        session = server.create_session(send=lambda message, related: None)
        session.accept(8)
        session.forget(8)
        assert session.cancel_request(8) is False
        assert session.accept(8) is not None

    def test_close_cancels_accepted_requests(self):
        server, _ = self.make()
        session = server.create_session(send=lambda message, related: None)
        token = session.accept(9)
        session.close("bye")
        assert token.cancelled() and token.reason == "bye"

    def test_an_id_in_flight_cannot_be_accepted_until_it_ends(self):
        server, _ = self.make()
        session = server.create_session(send=lambda message, related: None)
        assert session.begin(10, Cancellation()) is True
        assert session.accept(10) is None
        assert session.begin(10, Cancellation()) is False
        session.end(10)
        assert session.accept(10) is not None

    def test_a_request_accepted_after_close_starts_cancelled(self):
        server, _ = self.make()
        session = server.create_session(send=lambda message, related: None)
        session.close("bye")
        token = session.accept(11)
        assert token is not None and token.cancelled()

    def test_of_threads_taking_one_id_at_once_at_most_one_holds_it(self):
        # accept() takes no lock: it notes the id before it looks for it in flight, as begin() does
        # the other way round, so two takers never both hold the id.
        server, _ = self.make()
        for round_ in range(200):
            session = server.create_session(send=lambda message, related: None)
            held: list[str] = []
            start = threading.Barrier(4)

            def take(kind: str) -> None:
                start.wait(10)
                if kind == "accept":
                    token = session.accept(round_)
                    if token is not None and session.begin(round_, token):
                        held.append(kind)
                elif session.begin(round_, Cancellation()):
                    held.append(kind)

            threads = [threading.Thread(target=take, args=(kind,)) for kind in ("accept", "begin", "accept", "begin")]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(10)
            assert len(held) <= 1, held
