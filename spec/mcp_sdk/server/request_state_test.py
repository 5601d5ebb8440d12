"""requestState integrity (mcp_sdk/server/request_state.py): forged, tampered, expired, foreign
and rotated states; on the wire always -32602, never a crash."""

from __future__ import annotations

import base64
import json
import typing as t

import pytest

from mcp_sdk import Configuration, Server
from mcp_sdk.errors import InvalidParamsError
from mcp_sdk.server.request_state import MAX_REQUEST_STATE_BYTES, SEALED_ELSEWHERE, RequestStateCodec, arguments_digest
from spec.support.modern import asking_server, retry, serve, text_of, tool_call

KEY_A = b"a" * 32
KEY_B = b"b" * 32
BINDING = {"m": "tools/call", "t": "greet", "a": arguments_digest({}), "p": None}
ANSWER = {"elicitation-1": {"action": "accept", "content": {"name": "Alice"}}}


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class TestCodec:
    def test_round_trip(self) -> None:
        codec = RequestStateCodec([KEY_A], 60)
        assert codec.open(codec.seal(BINDING, {"x": [1, "é"]}), BINDING) == {"x": [1, "é"]}

    def test_the_digest_ignores_key_order(self) -> None:
        assert arguments_digest({"a": 1, "b": 2}) == arguments_digest({"b": 2, "a": 1})
        assert arguments_digest({"a": 1}) != arguments_digest({"a": 2})

    @pytest.mark.parametrize("forge", [
        lambda s: s + "-TAMPERED",
        lambda s: s[:-2] + ("AA" if not s.endswith("AA") else "BB"),
        lambda s: "x" + s,
        lambda s: s.split(".")[0],
        lambda s: "",
        lambda s: ".",
        lambda s: "é.é",
        lambda s: 42,
        lambda s: None,
        lambda s: "A" * (MAX_REQUEST_STATE_BYTES + 1),
    ])
    def test_anything_but_the_sealed_text_is_refused(self, forge: t.Callable[[str], t.Any]) -> None:
        codec = RequestStateCodec([KEY_A], 60)
        with pytest.raises(InvalidParamsError, match="requestState is not one this server issued"):
            codec.open(forge(codec.seal(BINDING, {})), BINDING)

    def test_a_payload_changed_under_the_old_signature_is_refused(self) -> None:
        codec = RequestStateCodec([KEY_A], 60)
        body, signature = codec.seal(BINDING, {"answers": {}}).split(".")
        payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        payload["d"]["answers"] = {"elicitation-1": {"action": "accept"}}
        forged = base64.urlsafe_b64encode(json.dumps(payload).encode()).rstrip(b"=").decode() + "." + signature
        with pytest.raises(InvalidParamsError):
            codec.open(forged, BINDING)

    def test_another_key_is_refused(self) -> None:
        with pytest.raises(InvalidParamsError):
            RequestStateCodec([KEY_B], 60).open(RequestStateCodec([KEY_A], 60).seal(BINDING, {}), BINDING)

    def test_the_process_key_differs_from_a_configured_one(self) -> None:
        with pytest.raises(InvalidParamsError):
            RequestStateCodec(None, 60).open(RequestStateCodec([KEY_A], 60).seal(BINDING, {}), BINDING)

    def test_a_process_key_refuses_another_keys_state_saying_another_process_sealed_it(self) -> None:
        with pytest.raises(InvalidParamsError) as refused:
            RequestStateCodec(None, 60).open(RequestStateCodec([KEY_A], 60).seal(BINDING, {}), BINDING)
        assert refused.value.message == SEALED_ELSEWHERE
        with pytest.raises(InvalidParamsError) as configured:  # configured keys: never "another process"
            RequestStateCodec([KEY_B], 60).open(RequestStateCodec([KEY_A], 60).seal(BINDING, {}), BINDING)
        assert configured.value.message == "Invalid params: requestState is not one this server issued"
        own = RequestStateCodec(None, 60).seal(BINDING, {})
        with pytest.raises(InvalidParamsError) as tampered:  # our own key, a bad signature: forged, not foreign
            RequestStateCodec(None, 60).open(own[:-4] + "AAAA", BINDING)
        assert tampered.value.message == "Invalid params: requestState is not one this server issued"

    def test_rotation_old_states_open_while_the_old_key_is_listed(self) -> None:
        old = RequestStateCodec([KEY_A], 60).seal(BINDING, {"n": 1})
        rotated = RequestStateCodec([KEY_B, KEY_A], 60)
        assert rotated.open(old, BINDING) == {"n": 1}
        new = rotated.seal(BINDING, {"n": 2})
        assert RequestStateCodec([KEY_B], 60).open(new, BINDING) == {"n": 2}
        with pytest.raises(InvalidParamsError):
            RequestStateCodec([KEY_B], 60).open(old, BINDING)

    def test_expiry(self) -> None:
        clock = Clock()
        codec = RequestStateCodec([KEY_A], 60, clock)
        state = codec.seal(BINDING, {})
        clock.now += 60
        assert codec.open(state, BINDING) == {}
        clock.now += 2
        with pytest.raises(InvalidParamsError, match="requestState has expired; send the request again without it"):
            codec.open(state, BINDING)

    @pytest.mark.parametrize("change", [{"m": "prompts/get"}, {"t": "ask_llm"}, {"a": arguments_digest({"x": 1})}, {"p": "mallory"}])
    def test_a_state_opens_only_for_its_request(self, change: dict[str, t.Any]) -> None:
        codec = RequestStateCodec([KEY_A], 60)
        with pytest.raises(InvalidParamsError, match="requestState was issued for another request"):
            codec.open(codec.seal(BINDING, {}), {**BINDING, **change})


class TestOnTheWire:
    @pytest.fixture
    def server(self) -> Server:
        return asking_server()

    def test_a_tampered_state_is_minus_32602(self, server: Server) -> None:
        request = tool_call("greet")
        first = serve(server, request)
        first["result"]["requestState"] += "-TAMPERED"
        assert serve(server, retry(request, first, ANSWER, id=5)) == {
            "jsonrpc": "2.0",
            "id": 5,
            "error": {"code": -32602, "message": "Invalid params: requestState is not one this server issued"},
        }

    @pytest.mark.parametrize("state", [12, {"a": 1}, ["x"], ""])
    def test_a_state_of_the_wrong_type_is_minus_32602(self, server: Server, state: t.Any) -> None:
        response = serve(server, tool_call("greet", request_state=state, input_responses=ANSWER))
        assert response["error"]["code"] == -32602

    def test_a_state_for_another_tool_is_minus_32602(self, server: Server) -> None:
        first = serve(server, tool_call("greet"))
        response = serve(server, retry(tool_call("show_roots"), first, {"roots-1": {"roots": []}}))
        assert response["error"] == {"code": -32602, "message": "Invalid params: requestState was issued for another request"}

    def test_a_state_for_other_arguments_is_minus_32602(self, server: Server) -> None:
        first = serve(server, tool_call("ask_llm", {"question": "a"}))
        response = serve(server, retry(tool_call("ask_llm", {"question": "b"}), first, {"sampling-1": {}}))
        assert response["error"]["code"] == -32602

    def test_a_state_of_another_method_is_minus_32602(self, server: Server) -> None:
        first = serve(server, tool_call("greet"))
        from spec.support.modern import modern_request

        response = serve(server, retry(modern_request("prompts/get", {"name": "greet"}), first, ANSWER))
        assert response["error"]["code"] == -32602

    def test_states_from_another_process_key_are_refused_and_shared_keys_work(self) -> None:
        one = Server(name="one", configuration=Configuration(request_state_keys=[KEY_A]))
        two = Server(name="two", configuration=Configuration(request_state_keys=[KEY_B, KEY_A]))
        other = Server(name="other", configuration=Configuration(request_state_keys=[KEY_B]))
        for server in (one, two, other):
            server.define_tool(name="greet")(_greet)
        request = tool_call("greet")
        first = serve(one, request)
        assert text_of(serve(two, retry(request, first, ANSWER))) == "Hello, Alice!"
        assert serve(other, retry(request, first, ANSWER))["error"]["code"] == -32602

    def test_an_expired_state_is_minus_32602(self) -> None:
        server = Server(name="short", configuration=Configuration(request_state_keys=[KEY_A], request_state_ttl=0.001))
        server.define_tool(name="greet")(_greet)
        request = tool_call("greet")
        first = serve(server, request)
        # exp = int(now + 0.001) + 1: expired from the next whole second; forge nothing, wait for it.
        import time

        body = first["result"]["requestState"].split(".")[0]
        expiry = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))["exp"]
        while time.time() <= expiry:
            time.sleep(0.05)
        response = serve(server, retry(request, first, ANSWER))
        assert response["error"] == {"code": -32602, "message": "Invalid params: requestState has expired; send the request again without it"}

    def test_short_keys_are_refused(self) -> None:
        with pytest.raises(ValueError):
            Configuration(request_state_keys=[b"short"])


def _greet(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
    return f"Hello, {server_context.create_form_elicitation('Name?', {'type': 'object', 'properties': {'name': {'type': 'string'}}})['content']['name']}!"
