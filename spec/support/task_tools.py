"""Task tools shared by the tasks extension's tests (server, client, stdio)."""

from __future__ import annotations

import threading
import typing as t

from mcp_sdk import Tool

NAME_SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
#: Set by a test to let :class:`Gated` finish.
release = threading.Event()


class Gated(Tool):
    """Runs until the test sets :data:`release` (or the task is cancelled)."""

    tool_name = "gated"
    input_schema = {"type": "object", "properties": {}}
    task = True

    @classmethod
    def call(cls, server_context: t.Any) -> str:
        while not release.is_set():
            if server_context.cancellation.wait(0.05):
                server_context.raise_if_cancelled()
        return "released"


class AskName(Tool):
    """Asks the era-portable way; inside a task the ask waits for ``tasks/update``."""

    tool_name = "ask_name"
    input_schema = {"type": "object", "properties": {}}
    task = True

    @classmethod
    def call(cls, server_context: t.Any) -> str:
        server_context.report_progress(1, 2)  # a task's progress goes nowhere (the extension defines none)
        answer = server_context.create_form_elicitation("Your name?", NAME_SCHEMA)
        return f"Hello, {answer['content']['name']}!"
