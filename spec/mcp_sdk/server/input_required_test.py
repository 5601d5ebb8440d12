"""MRTR (mcp_sdk/server/input_required.py): era-portable asks and explicit InputRequiredResult
on 2026-07-28 requests; the builders; the handler re-run."""

from __future__ import annotations

import typing as t

import pytest

from mcp_sdk import Server
from mcp_sdk.server.input_required import InputRequiredResult, form_elicitation, roots, sampling, url_elicitation
from spec.support.modern import asking_server, modern_request, retry, serve, text_of, tool_call

NAME_SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
SAMPLED = {"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "test-model", "stopReason": "endTurn"}
ROOTS = {"roots": [{"uri": "file:///work", "name": "work"}]}


@pytest.fixture
def server() -> Server:
    return asking_server()


class TestBuilders:
    def test_wire_shapes(self) -> None:
        assert form_elicitation("Name?", NAME_SCHEMA) == {"method": "elicitation/create", "params": {"mode": "form", "message": "Name?", "requestedSchema": NAME_SCHEMA}}
        assert url_elicitation("Sign in", "https://example.com/x") == {"method": "elicitation/create", "params": {"mode": "url", "message": "Sign in", "url": "https://example.com/x"}}
        assert sampling([{"role": "user", "content": {"type": "text", "text": "q"}}], 10, systemPrompt="s") == {
            "method": "sampling/createMessage",
            "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "q"}}], "maxTokens": 10, "systemPrompt": "s"},
        }
        assert roots() == {"method": "roots/list"}

    def test_an_empty_result_is_refused(self) -> None:
        with pytest.raises(ValueError):
            InputRequiredResult()
        with pytest.raises(TypeError):
            InputRequiredResult(request_state=5)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            InputRequiredResult({"k": {"params": {}}})


class TestEraPortable:
    def test_elicitation_asks_then_the_retry_completes(self, server: Server) -> None:
        first = serve(server, tool_call("greet", id=1))
        result = first["result"]
        assert result["resultType"] == "input_required"
        assert result["inputRequests"] == {
            "elicitation-1": {"method": "elicitation/create", "params": {"mode": "form", "message": "What is your name?", "requestedSchema": NAME_SCHEMA}}
        }
        assert type(result["requestState"]) is str
        done = serve(server, retry(tool_call("greet"), first, {"elicitation-1": {"action": "accept", "content": {"name": "Alice"}}}, id=2))
        assert text_of(done) == "Hello, Alice!"
        assert done["id"] == 2

    def test_a_declined_elicitation_reaches_the_tool(self, server: Server) -> None:
        first = serve(server, tool_call("greet"))
        done = serve(server, retry(tool_call("greet"), first, {"elicitation-1": {"action": "decline"}}))
        assert text_of(done) == "no name (decline)"

    def test_sampling(self, server: Server) -> None:
        request = tool_call("ask_llm", {"question": "Capital of France?"})
        first = serve(server, request)
        assert first["result"]["inputRequests"] == {
            "sampling-1": {"method": "sampling/createMessage", "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "Capital of France?"}}], "maxTokens": 100}}
        }
        assert text_of(serve(server, retry(request, first, {"sampling-1": SAMPLED}))) == "model said: Paris"

    def test_roots(self, server: Server) -> None:
        request = tool_call("show_roots")
        first = serve(server, request)
        assert first["result"]["inputRequests"] == {"roots-1": {"method": "roots/list"}}
        assert text_of(serve(server, retry(request, first, {"roots-1": ROOTS}))) == "roots: file:///work"

    def test_three_rounds_each_with_a_new_state(self, server: Server) -> None:
        request = tool_call("plan")
        one = serve(server, request)
        assert list(one["result"]["inputRequests"]) == ["elicitation-1"]
        two = serve(server, retry(request, one, {"elicitation-1": {"action": "accept", "content": {"name": "Al"}}}))
        assert list(two["result"]["inputRequests"]) == ["sampling-2"]
        assert two["result"]["inputRequests"]["sampling-2"]["params"]["messages"][0]["content"]["text"] == "Plan a day for Al"
        three = serve(server, retry(request, two, {"sampling-2": SAMPLED}))
        assert three["result"]["inputRequests"] == {"roots-3": {"method": "roots/list"}}
        assert len({one["result"]["requestState"], two["result"]["requestState"], three["result"]["requestState"]}) == 3
        assert text_of(serve(server, retry(request, three, {"roots-3": ROOTS}))) == "Al: Paris (1 roots)"

    def test_a_prompt_can_ask(self, server: Server) -> None:
        request = modern_request("prompts/get", {"name": "introduce"})
        first = serve(server, request)
        assert list(first["result"]["inputRequests"]) == ["elicitation-1"]
        done = serve(server, retry(request, first, {"elicitation-1": {"action": "accept", "content": {"name": "Bo"}}}))
        assert done["result"]["messages"] == [{"role": "user", "content": {"type": "text", "text": "Introduce Bo"}}]

    def test_the_handler_runs_again_from_the_start_each_round(self) -> None:
        server = Server(name="rerun")
        runs: list[str] = []

        @server.define_tool(name="twice")
        def twice(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
            runs.append("start")
            first = server_context.create_form_elicitation("a?", NAME_SCHEMA)
            runs.append("after a")
            second = server_context.create_form_elicitation("b?", NAME_SCHEMA)
            return first["content"]["name"] + second["content"]["name"]

        request = tool_call("twice")
        one = serve(server, request)
        two = serve(server, retry(request, one, {"elicitation-1": {"action": "accept", "content": {"name": "x"}}}))
        assert list(two["result"]["inputRequests"]) == ["elicitation-2"]
        done = serve(server, retry(request, two, {"elicitation-2": {"action": "accept", "content": {"name": "y"}}}))
        assert text_of(done) == "xy"
        assert runs == ["start", "start", "after a", "start", "after a"]

    def test_a_missing_answer_asks_again(self, server: Server) -> None:
        request = tool_call("greet")
        first = serve(server, request)
        again = serve(server, retry(request, first, {"wrong_key": {"action": "accept", "content": {"name": "x"}}}))
        assert again["result"]["resultType"] == "input_required"
        assert list(again["result"]["inputRequests"]) == ["elicitation-1"]

    def test_answers_without_a_state_are_not_trusted_as_asked(self, server: Server) -> None:
        # No requestState: the server never saw the ask answered, so it asks (never a crash).
        response = serve(server, tool_call("greet", input_responses={"elicitation-1": {"action": "accept", "content": {"name": "Eve"}}}))
        assert response["result"]["resultType"] == "input_required"

    def test_a_non_object_answer_is_invalid_params(self, server: Server) -> None:
        request = tool_call("greet")
        first = serve(server, request)
        response = serve(server, retry(request, first, {"elicitation-1": 12345}))
        assert response["error"]["code"] == -32602

    def test_requests_that_cannot_ask_never_answer_input_required(self, server: Server) -> None:
        for method in ("tools/list", "prompts/list"):
            assert serve(server, modern_request(method))["result"]["resultType"] == "complete"


class TestExplicit:
    def test_the_handler_reads_its_answers_and_its_own_state(self, server: Server) -> None:
        request = tool_call("confirm")
        first = serve(server, request)
        assert first["result"]["inputRequests"] == {
            "confirm": {"method": "elicitation/create", "params": {"mode": "form", "message": "Proceed?", "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}}}
        }
        assert "step-1" not in first["result"]["requestState"]  # sealed, not the handler's text
        done = serve(server, retry(request, first, {"confirm": {"action": "accept", "content": {"ok": True}}}))
        assert text_of(done) == "state step-1: confirmed"

    def test_input_responses_without_state_reach_the_handler(self, server: Server) -> None:
        response = serve(server, tool_call("confirm", input_responses={"confirm": {"action": "accept", "content": {"ok": False}}, "extra": {}}))
        assert text_of(response) == "state None: declined"

    def test_state_only_result(self) -> None:
        server = Server(name="state_only")

        @server.define_tool(name="wait")
        def wait(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
            if server_context.request_state is None:
                return InputRequiredResult(request_state="polling")
            return f"resumed {server_context.request_state}"

        request = tool_call("wait")
        first = serve(server, request)
        assert "inputRequests" not in first["result"]
        assert text_of(serve(server, retry(request, first, {}))) == "resumed polling"


class TestURLElicitation:
    @pytest.fixture
    def server(self) -> Server:
        server = Server(name="url")

        @server.define_tool(name="login")
        def login(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
            answer = server_context.create_url_elicitation("Sign in", "https://example.com/auth", "el-1")
            return f"action {answer['action']}"

        return server

    def test_a_url_elicitation_becomes_an_input_request_without_its_2025_id(self, server: Server) -> None:
        request = tool_call("login", capabilities={"elicitation": {"url": {}}})
        first = serve(server, request)
        assert first["result"]["inputRequests"] == {
            "elicitation-1": {"method": "elicitation/create", "params": {"mode": "url", "message": "Sign in", "url": "https://example.com/auth"}}
        }
        assert text_of(serve(server, retry(request, first, {"elicitation-1": {"action": "accept"}}))) == "action accept"

    def test_form_only_clients_get_minus_32021_naming_url(self, server: Server) -> None:
        response = serve(server, tool_call("login", capabilities={"elicitation": {}}))
        assert response["error"]["code"] == -32021
        assert response["error"]["data"] == {"requiredCapabilities": {"elicitation": {"url": {}}}}


def test_an_ask_is_answered_on_the_retry_of_a_tool_whose_schema_has_defaults() -> None:
    """Validation fills in the schema's defaults into a copy of the arguments: the ``requestState`` stays bound
    to the arguments the client sent, which its retry sends again (a proxied server-everything tool needs it)."""
    from mcp_sdk import Tool

    server = Server(name="defaults")
    schema = {"type": "object", "properties": {"topic": {"type": "string"}, "words": {"type": "integer", "default": 5}}}

    def ask(arguments: dict[str, t.Any], server_context: t.Any) -> str:
        answer = server_context.create_form_elicitation("Go?", {"type": "object", "properties": {"ok": {"type": "boolean"}}})
        return f"{arguments['topic']} in {arguments['words']} words: {answer['action']}"

    server.add_tool(Tool.define("ask", input_schema=schema, arguments_dict=True, handler=ask))
    first = tool_call("ask", {"topic": "rain"})
    asked = serve(server, first)
    assert asked["result"]["resultType"] == "input_required"
    assert first["params"]["arguments"] == {"topic": "rain"}
    done = serve(server, retry(first, asked, {"elicitation-1": {"action": "accept", "content": {"ok": True}}}))
    assert done["result"]["content"] == [{"type": "text", "text": "rain in 5 words: accept"}]
