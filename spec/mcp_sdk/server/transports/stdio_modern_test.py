"""stdio serving 2026-07-28 requests and 2025 sessions on one loop, in a real subprocess
(examples/asking_server.py): MRTR, per-request logging, multiplexed subscriptions/listen,
notifications/cancelled, and explicit InputRequiredResult answered by a 2025 client."""

from __future__ import annotations

import time
import typing as t

import pytest

from spec.support.modern import ASKING_SERVER, modern_request, retry, text_of, tool_call
from spec.support.stdio_peer import StdioPeer
from spec.support.wire_schema import assert_valid_modern, assert_valid_response

TAG = "io.modelcontextprotocol/subscriptionId"


@pytest.fixture
def peer() -> t.Iterator[StdioPeer]:
    with StdioPeer([str(ASKING_SERVER)]) as peer:
        yield peer


def call(peer: StdioPeer, message: dict[str, t.Any]) -> dict[str, t.Any]:
    peer.send(message)
    response = peer.recv()
    assert response.get("id") == message["id"] and "method" not in response, response
    assert_valid_modern(message["method"], response)
    return t.cast("dict[str, t.Any]", response)


def test_modern_requests_without_any_handshake(peer: StdioPeer) -> None:
    assert call(peer, modern_request("server/discover"))["result"]["supportedVersions"] == ["2026-07-28"]
    assert text_of(call(peer, tool_call("echo", {"message": "hi"}, id=2))) == "echo: hi"
    assert call(peer, modern_request("ping", id=3))["error"]["code"] == -32601
    assert peer.finish() == []


def test_mrtr_over_stdio(peer: StdioPeer) -> None:
    request = tool_call("plan", id="p")
    one = call(peer, request)
    two = call(peer, retry(request, one, {"elicitation-1": {"action": "accept", "content": {"name": "Al"}}}))
    three = call(peer, retry(request, two, {"sampling-2": {"role": "assistant", "content": {"type": "text", "text": "swim"}, "model": "m"}}))
    done = call(peer, retry(request, three, {"roots-3": {"roots": []}}))
    assert text_of(done) == "Al: swim (0 roots)"


def test_log_messages_only_with_a_log_level(peer: StdioPeer) -> None:
    assert text_of(call(peer, tool_call("shout", {"message": "a"}, id=1))) == "A"
    peer.send(tool_call("shout", {"message": "b"}, id=2, log_level="info"))
    log = peer.recv()
    assert log == {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": {"said": "b"}, "logger": "shout"}}
    assert_valid_modern("tools/call", log)
    assert text_of(peer.recv()) == "B"


def test_a_2025_session_and_modern_requests_share_the_loop(peer: StdioPeer) -> None:
    peer.initialize({"elicitation": {}})
    # An explicit InputRequiredResult on the 2025 session: a real elicitation/create request.
    peer.send({"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": "confirm", "arguments": {}}})
    ask = peer.recv()
    assert ask["method"] == "elicitation/create" and "id" in ask
    # While the session's tool waits for its answer, a modern request is served.
    assert text_of(call(peer, tool_call("echo", {"message": "between"}, id=11))) == "echo: between"
    peer.send({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "accept", "content": {"ok": True}}})
    final = peer.recv()
    assert_valid_response("tools/call", final)
    assert final == {"jsonrpc": "2.0", "id": 10, "result": {"content": [{"type": "text", "text": "state step-1: confirmed"}], "isError": False}}
    # The session's own requests stay 2025: no resultType, ping works.
    assert peer.request(12, "ping") == {"jsonrpc": "2.0", "id": 12, "result": {}}


def test_era_portable_asks_on_a_2025_session_are_real_requests(peer: StdioPeer) -> None:
    peer.initialize({"roots": {}})
    peer.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "show_roots", "arguments": {}}})
    ask = peer.recv()
    assert ask["method"] == "roots/list"
    peer.send({"jsonrpc": "2.0", "id": ask["id"], "result": {"roots": [{"uri": "file:///a"}]}})
    assert peer.recv()["result"]["content"] == [{"type": "text", "text": "roots: file:///a"}]


class TestListen:
    def test_multiplexed_with_other_requests_then_cancelled(self, peer: StdioPeer) -> None:
        peer.send(modern_request("subscriptions/listen", {"notifications": {"toolsListChanged": True}}, id="L"))
        ack = peer.recv()
        assert ack == {"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {"_meta": {TAG: "L"}, "notifications": {"toolsListChanged": True}}}
        peer.send(tool_call("touch", id=2))
        seen = [peer.recv(), peer.recv()]
        changed = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {"_meta": {TAG: "L"}}}
        assert changed in seen
        assert [m for m in seen if m != changed][0]["id"] == 2
        for message in (ack, changed):
            assert_valid_modern("subscriptions/listen", message)
        peer.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "L", "reason": "done"}})
        # Cancelled: no result for L, and (once the listen thread has seen the cancel) later
        # changes reach nobody; the loop goes on.
        for attempt in range(100):
            peer.send(tool_call("touch", id=100 + attempt))
            before = []
            while "id" not in (message := peer.recv()):
                before.append(message)
            assert message["id"] == 100 + attempt and message["result"]["resultType"] == "complete"
            if not before:
                break
            time.sleep(0.05)
        assert not before, "the cancelled listen request still receives notifications"
        assert text_of(call(peer, tool_call("echo", {"message": "after"}, id=4))) == "echo: after"
        assert peer.finish() == []

    def test_resource_updates_then_eof_cancels_the_listen_request(self, peer: StdioPeer) -> None:
        peer.send(modern_request("subscriptions/listen", {"notifications": {"resourceSubscriptions": ["example://readme"]}}, id=9))
        assert peer.recv()["method"] == "notifications/subscriptions/acknowledged"
        peer.send(tool_call("touch", {"uri": "example://readme"}, id=2))
        seen = [peer.recv(), peer.recv()]
        assert {"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"_meta": {TAG: 9}, "uri": "example://readme"}} in seen
        # End of input cancels what is in flight, listen requests included: no result, a prompt exit.
        assert peer.finish() == []


def test_closing_the_transport_ends_listen_requests_with_their_result() -> None:
    """In-process: ``StdioTransport.close()`` (the server shutting down) answers open listen
    requests with their result before the loop ends (every time: close() waits for it)."""
    import io
    import json
    import threading

    from spec.support.modern import asking_server
    from spec.support.stdio_serving import Serving

    stdout = io.BytesIO()
    serving = Serving(asking_server(), stdout)
    try:
        serving.write(json.dumps(modern_request("subscriptions/listen", {"notifications": {"toolsListChanged": True}}, id="S")).encode() + b"\n")
        deadline = time.monotonic() + 10
        while b"acknowledged" not in stdout.getvalue():
            assert time.monotonic() < deadline, "no acknowledgement"
            time.sleep(0.02)
        closer = threading.Thread(target=serving.transport.close, name="spec-close")
        closer.start()
        closer.join(10)
        serving.join()
    finally:
        serving.cleanup()
    written = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert written[-1] == {"jsonrpc": "2.0", "id": "S", "result": {"_meta": {TAG: "S", "io.modelcontextprotocol/serverInfo": {"name": "asking_example", "version": "1.0.0"}}, "resultType": "complete"}}
    for message in written:
        assert_valid_modern("subscriptions/listen", message)
