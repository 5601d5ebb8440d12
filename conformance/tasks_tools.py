"""Conformance fixtures for the tasks extension (``io.modelcontextprotocol/tasks``, SEP-2663; the
alpha suite's ``tasks-*`` scenarios). Names, arguments and behaviours are the ones the suite's
scenarios describe ("Required server fixtures").
"""

from __future__ import annotations

import typing as t

from mcp_sdk import InputRequiredResult, Tool
from mcp_sdk.errors import InternalError
from mcp_sdk.server.input_required import form_elicitation
from mcp_sdk.server.tasks import RunAsTask

NO_ARGUMENTS: dict[str, t.Any] = {"type": "object", "properties": {}}
CONFIRM_SCHEMA = {"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]}
NAME_SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


class Greet(Tool):
    """Sync only: ``Hello, {name}!``."""

    tool_name = "greet"
    description = "Greets someone (never a task)"
    input_schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}

    @classmethod
    def call(cls, name: str) -> str:
        return f"Hello, {name}!"


class SlowCompute(Tool):
    """Task-supporting: sleeps ``seconds`` (cancellable), then answers."""

    tool_name = "slow_compute"
    description = "Sleeps for the given seconds, then returns; runs as a task when it can"
    input_schema = {
        "type": "object",
        "properties": {"seconds": {"type": "number"}, "label": {"type": "string"}},
    }
    task = "optional"

    @classmethod
    def call(cls, server_context: t.Any, seconds: float = 1, label: str = "") -> str:
        if server_context.cancellation.wait(max(0.0, min(float(seconds), 600.0))):
            server_context.raise_if_cancelled()
        return f"Computed {label or 'result'} after {seconds} s"


class FailingJob(Tool):
    """Task-required: a tool execution error (``isError``) after about a second."""

    tool_name = "failing_job"
    description = "Always fails with a tool error; only runs as a task"
    input_schema = NO_ARGUMENTS
    task = "required"

    @classmethod
    def call(cls, server_context: t.Any) -> Tool.Response:
        server_context.cancellation.wait(1.0)
        return Tool.Response([{"type": "text", "text": "The job failed: simulated tool error"}], error=True)


class ProtocolErrorJob(Tool):
    """Task-supporting: fails with a JSON-RPC error (the task ends ``failed``)."""

    tool_name = "protocol_error_job"
    description = "Fails with a protocol-level error"
    input_schema = NO_ARGUMENTS
    task = "optional"

    @classmethod
    def call(cls) -> str:
        raise InternalError("Internal error: simulated protocol failure")


class ConfirmDelete(Tool):
    """Task-supporting: asks once (an elicitation surfaced as the task's ``inputRequests``)."""

    tool_name = "confirm_delete"
    description = "Asks for confirmation, then deletes (pretends to) the file"
    input_schema = {"type": "object", "properties": {"filename": {"type": "string"}}, "required": ["filename"]}
    task = "optional"

    @classmethod
    def call(cls, filename: str, server_context: t.Any) -> str:
        answer = server_context.create_form_elicitation(f"Delete {filename}?", CONFIRM_SCHEMA)
        content = answer.get("content") if answer.get("action") == "accept" else None
        if isinstance(content, dict) and content.get("confirm"):
            return f"Deleted {filename}"
        return f"Kept {filename}"


class MultiInput(Tool):
    """Task-supporting: two questions at once (two ``inputRequests`` keys pending together)."""

    tool_name = "multi_input"
    description = "Asks two questions at once"
    input_schema = NO_ARGUMENTS
    task = "optional"

    @classmethod
    def call(cls, server_context: t.Any) -> t.Any:
        answers = server_context.input_responses
        if not answers:
            return InputRequiredResult(
                {
                    "first": form_elicitation("First input?", NAME_SCHEMA),
                    "second": form_elicitation("Second input?", NAME_SCHEMA),
                }
            )
        names = [str((answers.get(key) or {}).get("content", {}).get("name", "")) for key in ("first", "second")]
        return f"Got {names[0]} and {names[1]}"


class TestToolWithTask(Tool):
    """MRTR first, then a task: asks the user's name synchronously, then continues as a task."""

    tool_name = "test_tool_with_task"
    description = "Asks for a name (MRTR), then greets as a task"
    input_schema = NO_ARGUMENTS

    @classmethod
    def call(cls, server_context: t.Any) -> t.Any:
        answer = server_context.create_form_elicitation("What is your name?", NAME_SCHEMA)
        content = answer.get("content") if isinstance(answer.get("content"), dict) else {}
        name = str(content.get("name", "stranger"))
        return RunAsTask(lambda task_context: f"Hello, {name}! (from a task)", required=True)


TASK_TOOLS: list[type[Tool]] = [Greet, SlowCompute, FailingJob, ProtocolErrorJob, ConfirmDelete, MultiInput, TestToolWithTask]
