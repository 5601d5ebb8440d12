"""The era decision and the 2026-07-28 ``_meta`` envelope (mcp_sdk/server/envelope.py), on the wire."""

from __future__ import annotations

import typing as t

import pytest

from mcp_sdk import Server
from mcp_sdk.server.envelope import Envelope, carries_envelope, stamp
from mcp_sdk.errors import InvalidParamsError, UnsupportedProtocolVersionError
from spec.support.modern import CLIENT_INFO, MODERN, Recorder, envelope, modern_request, serve
from spec.support.wire_schema import assert_valid_modern, assert_valid_response

SERVER_INFO = {"name": "envelope_spec", "version": "1.0.0"}


@pytest.fixture
def server() -> Server:
    server = Server(name="envelope_spec", version="1.0.0")

    @server.define_tool(name="caps")
    def caps(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        session = server_context.session
        return f"{session.version} {sorted(session.client_capabilities)} {session.client_info['name']}"

    return server


class TestClassification:
    def test_a_request_with_either_envelope_field_is_modern(self) -> None:
        assert carries_envelope(modern_request("tools/list"))
        assert carries_envelope({"id": 1, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}}})
        assert carries_envelope({"id": 1, "method": "server/discover"})
        assert carries_envelope({"id": 1, "method": "subscriptions/listen", "params": {}})

    def test_initialize_and_plain_requests_are_2025(self) -> None:
        initialize = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": CLIENT_INFO}}
        assert not carries_envelope(initialize)
        assert not carries_envelope({"id": 1, "method": "tools/list", "params": {"_meta": {"progressToken": 1}}})
        assert not carries_envelope({"id": 1, "method": "tools/list"})
        assert not carries_envelope([modern_request("tools/list")])
        assert not carries_envelope("tools/list")


class TestEnvelopeRead:
    def test_reads_every_field(self) -> None:
        read = Envelope.read({"_meta": envelope({"sampling": {}}, log_level="info")})
        assert (read.protocol_version, read.client_capabilities, read.client_info, read.log_level) == (
            MODERN, {"sampling": {}}, CLIENT_INFO, "info"
        )

    @pytest.mark.parametrize(
        "params, message",
        [
            (None, "Invalid params: params._meta must be an object carrying 'io.modelcontextprotocol/protocolVersion' and 'io.modelcontextprotocol/clientCapabilities'"),
            ({"_meta": {"io.modelcontextprotocol/protocolVersion": MODERN}}, "Invalid params: params._meta is missing 'io.modelcontextprotocol/clientCapabilities'"),
            ({"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}}, "Invalid params: params._meta is missing 'io.modelcontextprotocol/protocolVersion'"),
            ({"_meta": {**envelope(), "io.modelcontextprotocol/protocolVersion": 20260728}}, "Invalid params: 'io.modelcontextprotocol/protocolVersion' must be a string"),
            ({"_meta": {**envelope(), "io.modelcontextprotocol/clientCapabilities": []}}, "Invalid params: 'io.modelcontextprotocol/clientCapabilities' must be an object"),
            ({"_meta": {**envelope(), "io.modelcontextprotocol/clientInfo": "me"}}, "Invalid params: 'io.modelcontextprotocol/clientInfo' must be an object"),
        ],
    )
    def test_malformed_envelopes_are_invalid_params(self, params: t.Any, message: str) -> None:
        with pytest.raises(InvalidParamsError) as raised:
            Envelope.read(params)
        assert (raised.value.code, raised.value.message) == (-32602, message)

    def test_a_2025_version_in_the_envelope_is_unsupported(self) -> None:
        with pytest.raises(UnsupportedProtocolVersionError) as raised:
            Envelope.read({"_meta": envelope(version="2025-11-25")})
        assert raised.value.data == {"supported": [MODERN], "requested": "2025-11-25"}


class TestStamp:
    def test_adds_result_type_and_server_info_without_changing_the_result(self) -> None:
        result = {"tools": [], "_meta": {"x": 1}}
        assert stamp(result, SERVER_INFO) == {"tools": [], "_meta": {"x": 1, "io.modelcontextprotocol/serverInfo": SERVER_INFO}, "resultType": "complete"}
        assert result == {"tools": [], "_meta": {"x": 1}}
        assert stamp(None, SERVER_INFO, "input_required") == {"_meta": {"io.modelcontextprotocol/serverInfo": SERVER_INFO}, "resultType": "input_required"}


class TestOnTheWire:
    def test_the_envelope_is_the_session_a_handler_sees(self, server: Server) -> None:
        response = serve(server, modern_request("tools/call", {"name": "caps", "arguments": {}}, capabilities={"sampling": {}, "roots": {}}))
        assert response == {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {
                "content": [{"type": "text", "text": "2026-07-28 ['roots', 'sampling'] spec-modern"}],
                "isError": False,
                "_meta": {"io.modelcontextprotocol/serverInfo": SERVER_INFO},
                "resultType": "complete",
            },
        }

    def test_a_missing_capabilities_field_is_minus_32602_with_the_request_id(self, server: Server) -> None:
        message = {"jsonrpc": "2.0", "id": "a", "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": MODERN}}}
        response = serve(server, message)
        assert response == {
            "jsonrpc": "2.0",
            "id": "a",
            "error": {"code": -32602, "message": "Invalid params: params._meta is missing 'io.modelcontextprotocol/clientCapabilities'"},
        }

    def test_server_discover_without_an_envelope_is_minus_32602(self, server: Server) -> None:
        response = serve(server, {"jsonrpc": "2.0", "id": 3, "method": "server/discover"})
        assert response["error"]["code"] == -32602

    def test_an_unsupported_version_is_minus_32022_with_supported_and_requested(self, server: Server) -> None:
        response = serve(server, modern_request("server/discover", version="2099-01-01", id=7))
        assert response == {
            "jsonrpc": "2.0",
            "id": 7,
            "error": {
                "code": -32022,
                "message": "Unsupported protocol version: '2099-01-01' (supported: 2026-07-28)",
                "data": {"supported": [MODERN], "requested": "2099-01-01"},
            },
        }

    def test_a_bad_log_level_is_minus_32602(self, server: Server) -> None:
        response = serve(server, modern_request("tools/list", log_level="loud"))
        assert response["error"]["code"] == -32602
        assert "logLevel" in response["error"]["message"]

    def test_initialize_still_opens_a_2025_session_beside_modern_requests(self, server: Server) -> None:
        session = Recorder(server)
        initialize = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": CLIENT_INFO}}
        opened = server.handle_message(initialize, session)
        assert_valid_response("initialize", opened)
        assert opened["result"]["protocolVersion"] == "2025-11-25"
        server.handle_message({"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
        modern = server.handle_message(modern_request("tools/list", id=2), session)
        assert_valid_modern("tools/list", modern)
        legacy = server.handle_message({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}, session)
        assert_valid_response("tools/list", legacy)
        assert "resultType" not in legacy["result"] and "_meta" not in legacy["result"]
        assert session.version == "2025-11-25"  # the modern request left the session alone
