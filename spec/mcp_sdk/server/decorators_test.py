"""``@server.tool``, ``@server.prompt`` and ``@server.resource``: plain functions from type hints (issue 12)."""

from __future__ import annotations

import typing as t

from mcp_sdk import Prompt, Resource, Server
from spec.support.server_helpers import call_tool, initialize, request
from spec.support.wire_schema import assert_valid

LATEST = "2025-11-25"


def served(server: Server) -> Server:
    initialize(server)
    return server


class TestTool:
    def test_a_bare_decorator_builds_the_tool_from_name_docstring_and_hints(self):
        server = Server(name="weather")

        @server.tool
        def get_forecast(latitude: float, longitude: float, days: int = 1) -> str:
            """Get the weather forecast for a location.

            Args:
                latitude: Degrees north
            """
            return f"{latitude},{longitude},{days}"

        assert get_forecast(1.0, 2.0) == "1.0,2.0,1"  # still a plain function
        listed = served(server).handle(request("tools/list"))["result"]
        assert listed == {
            "tools": [
                {
                    "name": "get_forecast",
                    "description": "Get the weather forecast for a location.",
                    "inputSchema": {
                        "type": "object",
                        "properties": {
                            "latitude": {"type": "number", "description": "Degrees north"},
                            "longitude": {"type": "number"},
                            "days": {"type": "integer", "default": 1},
                        },
                        "required": ["latitude", "longitude"],
                    },
                }
            ]
        }
        assert_valid("ListToolsResult", listed, LATEST)
        result = server.handle(call_tool("get_forecast", {"latitude": 1.5, "longitude": 2}))["result"]
        assert result == {"content": [{"type": "text", "text": "1.5,2,1"}], "isError": False}

    def test_a_decorator_with_metadata_and_a_single_args_parameter_still_takes_keywords(self):
        server = Server(name="s")

        @server.tool(name="run", title="Run", annotations={"read_only_hint": True})
        def run_command(args: list[str], server_context: t.Any = None) -> str:
            return " ".join(args) + f" ctx={server_context is not None}"

        (tool,) = served(server).handle(request("tools/list"))["result"]["tools"]
        assert tool["name"] == "run" and tool["title"] == "Run" and tool["annotations"] == {"readOnlyHint": True}
        assert tool["inputSchema"]["properties"] == {"args": {"type": "array", "items": {"type": "string"}}}
        result = server.handle(call_tool("run", {"args": ["ls", "-l"]}))["result"]
        assert result["content"] == [{"type": "text", "text": "ls -l ctx=True"}]


class TestPrompt:
    def test_a_function_returning_a_string_is_one_user_message(self):
        server = Server(name="s")

        @server.prompt
        def review(code: str, language: str = "python") -> str:
            """Review some code.

            :param code: The code to review
            """
            return f"Review this {language}: {code}"

        listed = served(server).handle(request("prompts/list"))["result"]
        assert listed == {
            "prompts": [
                {
                    "name": "review",
                    "description": "Review some code.",
                    "arguments": [
                        {"name": "code", "description": "The code to review", "required": True},
                        {"name": "language", "required": False},
                    ],
                }
            ]
        }
        got = server.handle(request("prompts/get", {"name": "review", "arguments": {"code": "x = 1"}}))["result"]
        assert got == {"messages": [{"role": "user", "content": {"type": "text", "text": "Review this python: x = 1"}}]}
        assert_valid("GetPromptResult", got, LATEST)

    def test_int_float_and_bool_arguments_arrive_as_declared(self):
        server = Server(name="s")

        @server.prompt
        def plan(city: str, days: int = 2, budget: float = 0.0, hotel: bool = False) -> str:
            return f"{city} {days!r} {budget!r} {hotel!r}"

        served(server)
        arguments = {"city": "Oslo", "days": "3", "budget": "99.5", "hotel": "true"}
        got = server.handle(request("prompts/get", {"name": "plan", "arguments": arguments}))["result"]
        assert got["messages"][0]["content"]["text"] == "Oslo 3 99.5 True"
        bad = server.handle(request("prompts/get", {"name": "plan", "arguments": {"city": "Oslo", "days": "many"}}))
        assert bad["error"] == {"code": -32602, "message": "Invalid params: argument 'days' must be int, not 'many'"}

    def test_a_named_prompt_returning_messages(self):
        server = Server(name="s")

        @server.prompt("greet", title="Greeting")
        def hello(name: str) -> list[Prompt.Message]:
            return [Prompt.Message(role="assistant", content={"type": "text", "text": f"Hi {name}"})]

        got = served(server).handle(request("prompts/get", {"name": "greet", "arguments": {"name": "Ada"}}))["result"]
        assert got == {"messages": [{"role": "assistant", "content": {"type": "text", "text": "Hi Ada"}}]}


class TestResource:
    def test_static_resources_and_templates_are_listed_and_read(self):
        server = Server(name="s")

        @server.resource("config://app", mime_type="application/json")
        def config() -> dict[str, t.Any]:
            """The app's configuration."""
            return {"debug": False}

        @server.resource("weather://{city}/now")
        def now(city: str) -> str:
            return f"Clear in {city}"

        @server.resource("blob://logo")
        def logo() -> bytes:
            return b"\x89PNG"

        served(server)
        assert server.handle(request("resources/list"))["result"] == {
            "resources": [
                {"uri": "config://app", "name": "config", "description": "The app's configuration.", "mimeType": "application/json"},
                {"uri": "blob://logo", "name": "logo"},
            ]
        }
        assert server.handle(request("resources/templates/list"))["result"] == {
            "resourceTemplates": [{"uriTemplate": "weather://{city}/now", "name": "now"}]
        }
        read = server.handle(request("resources/read", {"uri": "config://app"}))["result"]
        assert read == {"contents": [{"uri": "config://app", "mimeType": "application/json", "text": '{"debug":false}'}]}
        read = server.handle(request("resources/read", {"uri": "weather://Oslo/now"}))["result"]
        assert read == {"contents": [{"uri": "weather://Oslo/now", "mimeType": "text/plain", "text": "Clear in Oslo"}]}
        assert_valid("ReadResourceResult", read, LATEST)
        read = server.handle(request("resources/read", {"uri": "blob://logo"}))["result"]
        assert read == {"contents": [{"uri": "blob://logo", "mimeType": "application/octet-stream", "blob": "iVBORw=="}]}
        missing = server.handle(request("resources/read", {"uri": "weather://a/b/now"}))
        assert missing["error"] == {"code": -32602, "message": "Resource not found: weather://a/b/now", "data": {"uri": "weather://a/b/now"}}

    def test_an_earlier_read_handler_answers_the_other_uris(self):
        server = Server(name="s", resources=[Resource(uri="file:///a", name="a")])

        @server.resources_read_handler
        def read(params):
            return [{"uri": params["uri"], "text": "from the handler"}]

        @server.resource("mem://b")
        def b() -> str:
            return "from b"

        served(server)
        assert server.handle(request("resources/read", {"uri": "file:///a"}))["result"]["contents"][0]["text"] == "from the handler"
        assert server.handle(request("resources/read", {"uri": "mem://b"}))["result"]["contents"][0]["text"] == "from b"
