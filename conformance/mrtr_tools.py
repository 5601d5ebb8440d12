"""Conformance fixtures for multi round-trip requests (MRTR, SEP-2322; the alpha suite's
``input-required-result-*`` scenarios).

The suite names the input-request keys (``user_name``, ...), so these fixtures use the
explicit layer: they return :class:`mcp_sdk.InputRequiredResult` and read the answers
from ``server_context.input_responses`` on the retry. (``test_streaming_elicitation``
and ``test_missing_capability`` in server.py use the era-portable layer instead.)
On a 2025 session the SDK asks the same questions as real server-to-client requests.
"""

from __future__ import annotations

import typing as t

from mcp_sdk import Content, InputRequiredResult, Prompt, Tool
from mcp_sdk.server.input_required import form_elicitation, roots, sampling

NO_ARGUMENTS: dict[str, t.Any] = {"type": "object", "properties": {}}

NAME_SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
CONFIRM_SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
COLOR_SCHEMA = {"type": "object", "properties": {"color": {"type": "string"}}, "required": ["color"]}
CONTEXT_SCHEMA = {"type": "object", "properties": {"context": {"type": "string"}}, "required": ["context"]}


def _answers(server_context: t.Any) -> dict[str, t.Any]:
    responses = server_context.input_responses
    return responses if isinstance(responses, dict) else {}


def _accepted(answer: t.Any, field: str) -> t.Any:
    """The accepted elicitation's ``content[field]``, or None."""
    if isinstance(answer, dict) and answer.get("action") == "accept" and isinstance(answer.get("content"), dict):
        return answer["content"].get(field)
    return None


def _sampled(answer: t.Any) -> str | None:
    content = answer.get("content") if isinstance(answer, dict) else None
    if isinstance(content, dict) and isinstance(content.get("text"), str):
        return t.cast(str, content["text"])
    return None


def _listed_roots(answer: t.Any) -> list[t.Any] | None:
    found = answer.get("roots") if isinstance(answer, dict) else None
    return found if isinstance(found, list) else None


def _ask_name() -> dict[str, t.Any]:
    return form_elicitation("What is your name?", NAME_SCHEMA)


def _ask_capital() -> dict[str, t.Any]:
    return sampling(
        [{"role": "user", "content": {"type": "text", "text": "What is the capital of France?"}}], 100
    )


class ElicitationInput(Tool):
    tool_name = "test_input_required_result_elicitation"
    description = "Asks the user's name through an InputRequiredResult (key user_name), then greets them"
    input_schema = NO_ARGUMENTS

    @classmethod
    def call(cls, server_context: t.Any = None) -> Tool.Response | InputRequiredResult:
        name = _accepted(_answers(server_context).get("user_name"), "name")
        if not isinstance(name, str):
            return InputRequiredResult({"user_name": _ask_name()})
        return Tool.Response([Content.Text(f"Hello, {name}!")])


class SamplingInput(Tool):
    tool_name = "test_input_required_result_sampling"
    description = "Asks the client's LLM a question through an InputRequiredResult (key capital_question)"
    input_schema = NO_ARGUMENTS

    @classmethod
    def call(cls, server_context: t.Any = None) -> Tool.Response | InputRequiredResult:
        text = _sampled(_answers(server_context).get("capital_question"))
        if text is None:
            return InputRequiredResult({"capital_question": _ask_capital()})
        return Tool.Response([Content.Text(f"The model said: {text}")])


class ListRootsInput(Tool):
    tool_name = "test_input_required_result_list_roots"
    description = "Asks the client's roots through an InputRequiredResult (key client_roots)"
    input_schema = NO_ARGUMENTS

    @classmethod
    def call(cls, server_context: t.Any = None) -> Tool.Response | InputRequiredResult:
        found = _listed_roots(_answers(server_context).get("client_roots"))
        if found is None:
            return InputRequiredResult({"client_roots": roots()})
        return Tool.Response([Content.Text(f"The client has {len(found)} root(s)")])


class RequestStateInput(Tool):
    tool_name = "test_input_required_result_request_state"
    description = "Asks for a confirmation and carries its own requestState across the round trip"
    input_schema = NO_ARGUMENTS

    @classmethod
    def call(cls, server_context: t.Any = None) -> Tool.Response | InputRequiredResult:
        ok = _accepted(_answers(server_context).get("confirm"), "ok")
        if server_context.request_state != "awaiting-confirmation" or ok is None:
            return InputRequiredResult(
                {"confirm": form_elicitation("Proceed?", CONFIRM_SCHEMA)}, request_state="awaiting-confirmation"
            )
        return Tool.Response([Content.Text(f"state-ok (confirmed: {ok})")])


class TamperedStateInput(RequestStateInput):
    tool_name = "test_input_required_result_tampered_state"
    description = "Like test_input_required_result_request_state; a changed requestState is refused (-32602)"


class MultipleInputs(Tool):
    tool_name = "test_input_required_result_multiple_inputs"
    description = "Asks for a name, a greeting from the LLM and the roots in one InputRequiredResult"
    input_schema = NO_ARGUMENTS

    @classmethod
    def call(cls, server_context: t.Any = None) -> Tool.Response | InputRequiredResult:
        answers = _answers(server_context)
        name = _accepted(answers.get("user_name"), "name")
        greeting = _sampled(answers.get("greeting"))
        found = _listed_roots(answers.get("client_roots"))
        if server_context.request_state != "gathering" or name is None or greeting is None or found is None:
            return InputRequiredResult(
                {
                    "user_name": _ask_name(),
                    "greeting": sampling([{"role": "user", "content": {"type": "text", "text": "Say hello"}}], 50),
                    "client_roots": roots(),
                },
                request_state="gathering",
            )
        return Tool.Response([Content.Text(f"{greeting} {name} ({len(found)} root(s))")])


class MultiRound(Tool):
    tool_name = "test_input_required_result_multi_round"
    description = "Two rounds: asks a name (step1), then a favourite color (step2)"
    input_schema = NO_ARGUMENTS

    @classmethod
    def call(cls, server_context: t.Any = None) -> Tool.Response | InputRequiredResult:
        answers = _answers(server_context)
        state = server_context.request_state or ""
        if state.startswith("round-2:"):
            color = _accepted(answers.get("step2"), "color")
            if isinstance(color, str):
                return Tool.Response([Content.Text(f"{state[8:]} likes {color}")])
            return InputRequiredResult({"step2": form_elicitation("Favourite color?", COLOR_SCHEMA)}, request_state=state)
        name = _accepted(answers.get("step1"), "name") if state == "round-1" else None
        if isinstance(name, str):
            return InputRequiredResult(
                {"step2": form_elicitation("Favourite color?", COLOR_SCHEMA)}, request_state=f"round-2:{name}"
            )
        return InputRequiredResult({"step1": _ask_name()}, request_state="round-1")


class CapabilityAwareInput(Tool):
    tool_name = "test_input_required_result_capabilities"
    description = "Asks only for what the client declared: sampling, and elicitation when it can"
    input_schema = NO_ARGUMENTS

    @classmethod
    def call(cls, server_context: t.Any = None) -> Tool.Response | InputRequiredResult:
        answers = _answers(server_context)
        wanted: dict[str, dict[str, t.Any]] = {}
        if server_context.client_supports("sampling") and _sampled(answers.get("capital_question")) is None:
            wanted["capital_question"] = _ask_capital()
        if server_context.client_supports("elicitation.form") and _accepted(answers.get("user_name"), "name") is None:
            wanted["user_name"] = _ask_name()
        if wanted:
            return InputRequiredResult(wanted)
        return Tool.Response([Content.Text("Everything the client can give was given")])


MRTR_TOOLS: list[type[Tool]] = [
    ElicitationInput,
    SamplingInput,
    ListRootsInput,
    RequestStateInput,
    TamperedStateInput,
    MultipleInputs,
    MultiRound,
    CapabilityAwareInput,
]


def prompt_with_input(args: dict[str, t.Any], server_context: t.Any = None) -> Prompt.Result | InputRequiredResult:
    """``test_input_required_result_prompt``: asks for context (key user_context), then builds the prompt."""
    context = _accepted(_answers(server_context).get("user_context"), "context")
    if not isinstance(context, str):
        return InputRequiredResult(
            {"user_context": form_elicitation("What context should the prompt use?", CONTEXT_SCHEMA)}
        )
    return Prompt.Result(
        description="A prompt built from the user's context",
        messages=[Prompt.Message(role="user", content=Content.Text(f"Context: {context}"))],
    )
