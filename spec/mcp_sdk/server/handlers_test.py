"""The protocol's request methods, one by one, checked against each version's wire schema."""

from __future__ import annotations

import pytest

from mcp_sdk import Configuration, Content, Prompt, Resource, ResourceTemplate, Server, Tool
from spec.support.server_helpers import VERSIONS, Recorder, call_tool, connect, request
from spec.support.wire_schema import assert_valid_response

ICONS = [{"src": "https://example.com/tool.svg", "mimeType": "image/svg+xml"}]


class WeatherTool(Tool):
    tool_name = "get_weather"
    title = "Weather"
    description = "Current weather for a location"
    input_schema = {"properties": {"location": {"type": "string"}}, "required": ["location"]}
    output_schema = {
        "properties": {"temperature": {"type": "number"}, "condition": {"type": "string"}},
        "required": ["temperature", "condition"],
    }
    annotations = {"read_only_hint": True, "open_world_hint": False}
    icons = ICONS
    meta = {"vendor/flag": True}

    @classmethod
    def call(cls, location):
        data = {"temperature": 21.5, "condition": f"sunny in {location}"}
        return Tool.Response([Content.Text('{"temperature":21.5}')], structured_content=data)


class CodeReviewPrompt(Prompt):
    title = "Code Review"
    description = "Reviews code"
    arguments = [
        Prompt.Argument(name="code", title="Code", description="The code", required=True),
        Prompt.Argument(name="language", description="Its language"),
    ]
    meta = {"version": "1.0"}
    icons = ICONS

    @classmethod
    def template(cls, args):
        return Prompt.Result(
            description="A review",
            messages=[
                Prompt.Message(role="user", content=Content.Text(f"Review this {args.get('language', 'code')}:")),
                Prompt.Message(role="user", content=Content.Text(args["code"])),
            ],
        )


README = Resource(
    uri="file:///README.md",
    name="readme",
    title="Read me",
    description="The project's README",
    mime_type="text/markdown",
    size=120,
    icons=ICONS,
    meta={"origin": "repo"},
)
FILES = ResourceTemplate(
    uri_template="file:///{path}",
    name="files",
    title="Files",
    description="Any file",
    mime_type="application/octet-stream",
    icons=ICONS,
)


def answer(server, method, params=None, version="2025-11-25", id=1):
    """The response to one request on a session initialized at ``version``, checked against its schema."""
    session, _ = connect(server, version)
    response = session.handle(request(method, params, id=id))
    assert_valid_response(method, response, version)
    return response


class TestPing:
    @pytest.mark.parametrize("version", VERSIONS)
    def test_ping_answers_an_empty_result(self, version):
        assert answer(Server(), "ping", version=version) == {"jsonrpc": "2.0", "id": 1, "result": {}}

    def test_ping_ignores_params(self):
        assert Server().handle(request("ping", {"_meta": {"x": 1}})) == {"jsonrpc": "2.0", "id": 1, "result": {}}


class TestLoggingSetLevel:
    @pytest.mark.parametrize("level", ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"])
    def test_each_of_the_eight_levels_is_accepted(self, level):
        session, _ = connect(Server())
        response = session.handle(request("logging/setLevel", {"level": level}))
        assert response == {"jsonrpc": "2.0", "id": 1, "result": {}}
        assert_valid_response("logging/setLevel", response)
        assert session.log_level == level

    @pytest.mark.parametrize("params", [{"level": "verbose"}, {"level": "INFO"}, {}, None, {"level": ["info"]}, {"level": 3}])
    def test_anything_else_is_invalid_params(self, params):
        session, _ = connect(Server())
        response = session.handle(request("logging/setLevel", params))
        assert response["error"]["code"] == -32602
        assert session.log_level is None

    def test_the_level_belongs_to_the_session(self):
        server = Server()
        first, _ = connect(server)
        second, _ = connect(server)
        first.handle(request("logging/setLevel", {"level": "warning"}))
        assert (first.log_level, second.log_level) == ("warning", None)


class TestToolsList:
    def test_every_field_in_2025_11_25(self):
        assert answer(Server(tools=[WeatherTool]), "tools/list") == {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {
                "tools": [
                    {
                        "name": "get_weather",
                        "title": "Weather",
                        "description": "Current weather for a location",
                        "inputSchema": {
                            "type": "object",
                            "properties": {"location": {"type": "string"}},
                            "required": ["location"],
                        },
                        "outputSchema": {
                            "type": "object",
                            "properties": {"temperature": {"type": "number"}, "condition": {"type": "string"}},
                            "required": ["temperature", "condition"],
                        },
                        "annotations": {"readOnlyHint": True, "openWorldHint": False},
                        "icons": ICONS,
                        "_meta": {"vendor/flag": True},
                    }
                ]
            },
        }

    def test_no_icons_in_2025_06_18(self):
        (tool,) = answer(Server(tools=[WeatherTool]), "tools/list", version="2025-06-18")["result"]["tools"]
        assert sorted(tool) == ["_meta", "annotations", "description", "inputSchema", "name", "outputSchema", "title"]

    def test_no_title_output_schema_or_meta_in_2025_03_26(self):
        (tool,) = answer(Server(tools=[WeatherTool]), "tools/list", version="2025-03-26")["result"]["tools"]
        assert tool == {
            "name": "get_weather",
            "description": "Current weather for a location",
            "inputSchema": {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]},
            "annotations": {"readOnlyHint": True, "openWorldHint": False},
        }

    def test_no_annotations_in_2024_11_05(self):
        (tool,) = answer(Server(tools=[WeatherTool]), "tools/list", version="2024-11-05")["result"]["tools"]
        assert sorted(tool) == ["description", "inputSchema", "name"]

    def test_tools_are_listed_in_registration_order(self):
        server = Server(tools=[WeatherTool])
        server.define_tool(name="zeta", handler=lambda args: "z")
        server.define_tool(name="alpha", handler=lambda args: "a")
        assert [t["name"] for t in answer(server, "tools/list")["result"]["tools"]] == ["get_weather", "zeta", "alpha"]

    def test_no_tools_is_an_empty_list(self):
        assert answer(Server(), "tools/list")["result"] == {"tools": []}


class TestToolsCall:
    def test_a_result_with_structured_content(self):
        response = answer(Server(tools=[WeatherTool]), "tools/call", {"name": "get_weather", "arguments": {"location": "Oslo"}})
        assert response == {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {
                "content": [{"type": "text", "text": '{"temperature":21.5}'}],
                "isError": False,
                "structuredContent": {"temperature": 21.5, "condition": "sunny in Oslo"},
            },
        }

    @pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26"])
    def test_structured_content_is_left_out_before_2025_06_18(self, version):
        response = answer(
            Server(tools=[WeatherTool]), "tools/call", {"name": "get_weather", "arguments": {"location": "Oslo"}}, version
        )
        assert response["result"] == {"content": [{"type": "text", "text": '{"temperature":21.5}'}], "isError": False}

    def test_an_unknown_tool_is_invalid_params_naming_it(self):
        response = answer(Server(tools=[WeatherTool]), "tools/call", {"name": "get_wether", "arguments": {}})
        assert response == {
            "jsonrpc": "2.0",
            "id": 1,
            "error": {"code": -32602, "message": "Tool not found: get_wether", "data": {"name": "get_wether"}},
        }

    @pytest.mark.parametrize("params", [None, {}, {"name": 5}, {"arguments": {}}])
    def test_a_call_without_a_tool_name_is_invalid_params(self, params):
        assert answer(Server(tools=[WeatherTool]), "tools/call", params)["error"]["code"] == -32602

    def test_arguments_that_are_not_an_object_are_invalid_params(self):
        response = answer(Server(tools=[WeatherTool]), "tools/call", {"name": "get_weather", "arguments": ["Oslo"]})
        assert response["error"] == {"code": -32602, "message": "Invalid params: 'arguments' must be an object"}

    def test_missing_arguments_count_as_an_empty_object(self):
        server = Server()
        server.define_tool(name="no_args", handler=lambda args: f"got {args!r}")
        assert answer(server, "tools/call", {"name": "no_args"})["result"] == {
            "content": [{"type": "text", "text": "got {}"}],
            "isError": False,
        }

    def test_invalid_arguments_are_a_tool_error_naming_the_field(self):
        response = answer(Server(tools=[WeatherTool]), "tools/call", {"name": "get_weather", "arguments": {"location": 7}})
        assert response["result"] == {
            "content": [{"type": "text", "text": "Invalid arguments: location must be string"}],
            "isError": True,
        }

    def test_a_missing_required_argument_is_a_tool_error_naming_it(self):
        response = answer(Server(tools=[WeatherTool]), "tools/call", {"name": "get_weather", "arguments": {}})
        assert response["result"]["isError"] is True
        assert "location" in response["result"]["content"][0]["text"]

    def test_a_tool_that_raises_is_reported_and_the_client_sees_a_generic_error(self):
        reporter = Recorder()
        error = KeyError("internal detail")

        class BrokenTool(Tool):
            @classmethod
            def call(cls):
                raise error

        server = Server(tools=[BrokenTool], configuration=Configuration(exception_reporter=reporter))
        message = call_tool("broken_tool", {})
        response = server.handle(message)
        assert response == {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {"content": [{"type": "text", "text": "Internal error occurred"}], "isError": True},
        }
        assert reporter.calls == [(error, {"request": message})]
        assert "internal detail" not in str(response)
        assert "Traceback" not in str(response)

    def test_a_tool_may_answer_with_a_json_rpc_error(self):
        server = Server()

        @server.define_tool(name="needs_auth")
        def needs_auth(args):
            raise Server.URLElicitationRequiredError(
                [{"mode": "url", "elicitationId": "e1", "url": "https://example.com/auth", "message": "Authorize"}]
            )

        response = answer(server, "tools/call", {"name": "needs_auth"})
        assert response["error"] == {
            "code": -32042,
            "message": "URL elicitation required",
            "data": {
                "elicitations": [
                    {"mode": "url", "elicitationId": "e1", "url": "https://example.com/auth", "message": "Authorize"}
                ]
            },
        }

    @pytest.mark.parametrize(
        "returned, result",
        [
            ("plain", {"content": [{"type": "text", "text": "plain"}], "isError": False}),
            (None, {"content": [], "isError": False}),
            (
                [Content.Text("a"), {"type": "text", "text": "b"}],
                {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "isError": False},
            ),
            (Content.Image(data="aGk=", mime_type="image/png"), {"content": [{"type": "image", "data": "aGk=", "mimeType": "image/png"}], "isError": False}),
            (
                {"content": [Content.Text("x")], "isError": True},
                {"content": [{"type": "text", "text": "x"}], "isError": True},
            ),
            (
                {"answer": 42},
                {"content": [{"type": "text", "text": '{"answer":42}'}], "structuredContent": {"answer": 42}, "isError": False},
            ),
            (
                Tool.Response([Content.Text("no")], error=True, meta={"k": "v"}),
                {"content": [{"type": "text", "text": "no"}], "isError": True, "_meta": {"k": "v"}},
            ),
        ],
    )
    def test_what_a_tool_may_return(self, returned, result):
        server = Server()
        server.define_tool(name="returns", handler=lambda args: returned)
        response = answer(server, "tools/call", {"name": "returns"})
        assert response["result"] == result


class TestPromptsList:
    def test_every_field_in_2025_11_25(self):
        assert answer(Server(prompts=[CodeReviewPrompt]), "prompts/list") == {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {
                "prompts": [
                    {
                        "name": "code_review_prompt",
                        "title": "Code Review",
                        "description": "Reviews code",
                        "arguments": [
                            {"name": "code", "title": "Code", "description": "The code", "required": True},
                            {"name": "language", "description": "Its language", "required": False},
                        ],
                        "icons": ICONS,
                        "_meta": {"version": "1.0"},
                    }
                ]
            },
        }

    def test_no_icons_in_2025_06_18(self):
        (prompt,) = answer(Server(prompts=[CodeReviewPrompt]), "prompts/list", version="2025-06-18")["result"]["prompts"]
        assert prompt == {
            "name": "code_review_prompt",
            "title": "Code Review",
            "description": "Reviews code",
            "arguments": [
                {"name": "code", "title": "Code", "description": "The code", "required": True},
                {"name": "language", "description": "Its language", "required": False},
            ],
            "_meta": {"version": "1.0"},
        }

    @pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26"])
    def test_no_titles_or_meta_before_2025_06_18(self, version):
        (prompt,) = answer(Server(prompts=[CodeReviewPrompt]), "prompts/list", version=version)["result"]["prompts"]
        assert prompt == {
            "name": "code_review_prompt",
            "description": "Reviews code",
            "arguments": [
                {"name": "code", "description": "The code", "required": True},
                {"name": "language", "description": "Its language", "required": False},
            ],
        }

    def test_listing_an_older_version_leaves_the_latest_listing_intact(self):
        server = Server(prompts=[CodeReviewPrompt])
        answer(server, "prompts/list", version="2024-11-05")
        (prompt,) = answer(server, "prompts/list")["result"]["prompts"]
        assert prompt["arguments"][0] == {"name": "code", "title": "Code", "description": "The code", "required": True}


class TestPromptsGet:
    @pytest.mark.parametrize("version", VERSIONS)
    def test_the_template_result(self, version):
        response = answer(
            Server(prompts=[CodeReviewPrompt]),
            "prompts/get",
            {"name": "code_review_prompt", "arguments": {"code": "x = 1", "language": "python"}},
            version,
        )
        assert response == {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {
                "description": "A review",
                "messages": [
                    {"role": "user", "content": {"type": "text", "text": "Review this python:"}},
                    {"role": "user", "content": {"type": "text", "text": "x = 1"}},
                ],
            },
        }

    def test_a_missing_required_argument_is_invalid_params_naming_it(self):
        response = answer(Server(prompts=[CodeReviewPrompt]), "prompts/get", {"name": "code_review_prompt", "arguments": {"language": "go"}})
        assert response["error"] == {
            "code": -32602,
            "message": "Missing required arguments: code",
            "data": {"missing": ["code"]},
        }

    def test_an_unknown_prompt_is_invalid_params_naming_it(self):
        response = answer(Server(prompts=[CodeReviewPrompt]), "prompts/get", {"name": "nope"})
        assert response["error"] == {"code": -32602, "message": "Prompt not found: nope", "data": {"name": "nope"}}

    def test_arguments_that_are_not_an_object_are_invalid_params(self):
        response = answer(Server(prompts=[CodeReviewPrompt]), "prompts/get", {"name": "code_review_prompt", "arguments": "x"})
        assert response["error"]["code"] == -32602

    def test_a_template_may_return_the_wire_dict(self):
        server = Server()
        server.define_prompt(
            name="raw", handler=lambda args: {"messages": [{"role": "assistant", "content": {"type": "text", "text": "hi"}}]}
        )
        assert answer(server, "prompts/get", {"name": "raw"})["result"] == {
            "messages": [{"role": "assistant", "content": {"type": "text", "text": "hi"}}]
        }

    def test_a_template_that_raises_is_an_internal_error_and_reported(self):
        reporter = Recorder()
        server = Server(configuration=Configuration(exception_reporter=reporter))

        @server.define_prompt(name="broken")
        def broken(args):
            raise RuntimeError("template bug")

        response = answer(server, "prompts/get", {"name": "broken"})
        assert response["error"] == {"code": -32603, "message": "Internal error"}
        assert [type(e) for e in reporter.errors] == [RuntimeError]

    def test_a_template_returning_something_else_is_an_internal_error(self):
        server = Server(configuration=Configuration(exception_reporter=Recorder()))
        server.define_prompt(name="wrong", handler=lambda args: "just a string")
        assert answer(server, "prompts/get", {"name": "wrong"})["error"]["code"] == -32603


class TestResourcesList:
    def test_every_field_in_2025_11_25(self):
        assert answer(Server(resources=[README]), "resources/list") == {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {
                "resources": [
                    {
                        "uri": "file:///README.md",
                        "name": "readme",
                        "title": "Read me",
                        "description": "The project's README",
                        "mimeType": "text/markdown",
                        "size": 120,
                        "icons": ICONS,
                        "_meta": {"origin": "repo"},
                    }
                ]
            },
        }

    def test_no_icons_in_2025_06_18(self):
        (resource,) = answer(Server(resources=[README]), "resources/list", version="2025-06-18")["result"]["resources"]
        assert "icons" not in resource
        assert resource["title"] == "Read me"

    @pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26"])
    def test_no_title_or_meta_before_2025_06_18(self, version):
        (resource,) = answer(Server(resources=[README]), "resources/list", version=version)["result"]["resources"]
        assert resource == {
            "uri": "file:///README.md",
            "name": "readme",
            "description": "The project's README",
            "mimeType": "text/markdown",
            "size": 120,
        }


class TestResourceTemplatesList:
    def test_every_field_in_2025_11_25(self):
        assert answer(Server(resource_templates=[FILES]), "resources/templates/list") == {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {
                "resourceTemplates": [
                    {
                        "uriTemplate": "file:///{path}",
                        "name": "files",
                        "title": "Files",
                        "description": "Any file",
                        "mimeType": "application/octet-stream",
                        "icons": ICONS,
                    }
                ]
            },
        }

    @pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18"])
    def test_older_versions_leave_out_what_they_do_not_know(self, version):
        (template,) = answer(Server(resource_templates=[FILES]), "resources/templates/list", version=version)["result"][
            "resourceTemplates"
        ]
        assert "icons" not in template
        assert ("title" in template) is (version == "2025-06-18")


class TestResourcesRead:
    @pytest.mark.parametrize("version", VERSIONS)
    def test_the_read_handler_gives_the_contents(self, version):
        server = Server(resources=[README])

        @server.resources_read_handler
        def read(params):
            return [{"uri": params["uri"], "mimeType": "text/plain", "text": f"Hello from {params['uri']}"}]

        assert answer(server, "resources/read", {"uri": "file:///README.md"}, version) == {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {"contents": [{"uri": "file:///README.md", "mimeType": "text/plain", "text": "Hello from file:///README.md"}]},
        }

    def test_contents_objects_are_put_in_wire_form(self):
        server = Server()
        server.resources_read_handler(
            lambda params: [
                Resource.TextContents(uri="file:///a.txt", mime_type="text/plain", text="A"),
                Resource.BlobContents(uri="file:///b.bin", data="AAE="),
            ]
        )
        assert answer(server, "resources/read", {"uri": "file:///a.txt"})["result"] == {
            "contents": [
                {"uri": "file:///a.txt", "mimeType": "text/plain", "text": "A"},
                {"uri": "file:///b.bin", "blob": "AAE="},
            ]
        }

    def test_the_handler_may_return_the_whole_result(self):
        server = Server()
        server.resources_read_handler(lambda params: {"contents": [{"uri": params["uri"], "text": "t"}]})
        assert answer(server, "resources/read", {"uri": "x:1"})["result"] == {"contents": [{"uri": "x:1", "text": "t"}]}

    def test_the_handler_receives_the_params(self):
        server = Server()
        received = []
        server.resources_read_handler(lambda params: received.append(params) or [])
        server.handle(request("resources/read", {"uri": "x:1", "_meta": {"k": 1}}))
        assert received == [{"uri": "x:1", "_meta": {"k": 1}}]

    def test_resource_not_found_is_invalid_params_with_the_uri(self):
        server = Server()

        @server.resources_read_handler
        def read(params):
            raise Server.ResourceNotFoundError(params["uri"], params)

        response = answer(server, "resources/read", {"uri": "file:///missing"})
        assert response == {
            "jsonrpc": "2.0",
            "id": 1,
            "error": {"code": -32602, "message": "Resource not found: file:///missing", "data": {"uri": "file:///missing"}},
        }

    def test_without_a_handler_a_registered_resource_reads_as_empty(self):
        assert answer(Server(resources=[README]), "resources/read", {"uri": "file:///README.md"})["result"] == {"contents": []}

    def test_without_a_handler_an_unknown_uri_is_not_found(self):
        response = answer(Server(resources=[README]), "resources/read", {"uri": "file:///other"})
        assert response["error"] == {
            "code": -32602,
            "message": "Resource not found: file:///other",
            "data": {"uri": "file:///other"},
        }

    @pytest.mark.parametrize("params", [None, {}, {"uri": 5}])
    def test_a_read_without_a_uri_is_invalid_params(self, params):
        assert answer(Server(resources=[README]), "resources/read", params)["error"]["code"] == -32602

    def test_a_handler_that_raises_is_an_internal_error(self):
        reporter = Recorder()
        server = Server(configuration=Configuration(exception_reporter=reporter))
        server.resources_read_handler(lambda params: 1 / 0)
        assert answer(server, "resources/read", {"uri": "x:1"})["error"] == {"code": -32603, "message": "Internal error"}
        assert isinstance(reporter.errors[0], ZeroDivisionError)


class TestResourceSubscriptions:
    @pytest.mark.parametrize("method", ["resources/subscribe", "resources/unsubscribe"])
    def test_the_handler_receives_the_params_and_the_result_is_empty(self, method):
        server = Server(resources=[README])
        received = []
        register = server.resources_subscribe_handler if method == "resources/subscribe" else server.resources_unsubscribe_handler
        register(received.append)
        assert answer(server, method, {"uri": "file:///README.md"}) == {"jsonrpc": "2.0", "id": 1, "result": {}}
        assert received == [{"uri": "file:///README.md"}]

    @pytest.mark.parametrize("method", ["resources/subscribe", "resources/unsubscribe"])
    def test_without_a_handler_the_result_is_empty(self, method):
        assert answer(Server(), method, {"uri": "file:///README.md"})["result"] == {}

    @pytest.mark.parametrize("method", ["resources/subscribe", "resources/unsubscribe"])
    def test_a_uri_is_required(self, method):
        assert answer(Server(), method, {})["error"]["code"] == -32602

    def test_subscriptions_managed_by_the_user(self):
        subscribed: set[str] = set()
        server = Server(resources=[README])
        server.resources_subscribe_handler(lambda params: subscribed.add(params["uri"]))
        server.resources_unsubscribe_handler(lambda params: subscribed.discard(params["uri"]))
        session, _ = connect(server)
        session.handle(request("resources/subscribe", {"uri": "file:///README.md"}))
        assert subscribed == {"file:///README.md"}
        session.handle(request("resources/unsubscribe", {"uri": "file:///README.md"}))
        assert subscribed == set()


class TestCompletion:
    def completing_server(self, values=None, **completion):
        server = Server(prompts=[CodeReviewPrompt], resources=[README], resource_templates=[FILES])
        received = []

        @server.completion_handler
        def complete(params):
            received.append(params)
            return {"completion": {"values": values if values is not None else ["python", "pytorch"], **completion}}

        return server, received

    @pytest.mark.parametrize("version", VERSIONS)
    def test_a_prompt_argument_is_completed(self, version):
        server, received = self.completing_server()
        params = {
            "ref": {"type": "ref/prompt", "name": "code_review_prompt"},
            "argument": {"name": "language", "value": "py"},
        }
        assert answer(server, "completion/complete", params, version) == {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {"completion": {"values": ["python", "pytorch"], "hasMore": False}},
        }
        assert received == [params]

    @pytest.mark.parametrize("uri", ["file:///README.md", "file:///{path}"])
    def test_a_resource_or_template_uri_is_completed(self, uri):
        server, _ = self.completing_server(["a.txt"])
        params = {"ref": {"type": "ref/resource", "uri": uri}, "argument": {"name": "path", "value": "a"}}
        assert answer(server, "completion/complete", params)["result"] == {"completion": {"values": ["a.txt"], "hasMore": False}}

    def test_context_arguments_reach_the_handler(self):
        server, received = self.completing_server()
        params = {
            "ref": {"type": "ref/prompt", "name": "code_review_prompt"},
            "argument": {"name": "language", "value": ""},
            "context": {"arguments": {"code": "x"}},
        }
        answer(server, "completion/complete", params)
        assert received[0]["context"] == {"arguments": {"code": "x"}}

    @pytest.mark.parametrize(
        "ref, data",
        [
            ({"type": "ref/prompt", "name": "nope"}, {"name": "nope"}),
            ({"type": "ref/prompt", "name": ["nope"]}, {"name": ["nope"]}),
            ({"type": "ref/resource", "uri": "file:///other"}, {"uri": "file:///other"}),
            ({"type": "ref/resource", "uri": {"u": 1}}, {"uri": {"u": 1}}),
        ],
    )
    def test_the_reference_must_exist(self, ref, data):
        server, received = self.completing_server()
        response = answer(server, "completion/complete", {"ref": ref, "argument": {"name": "a", "value": ""}})
        assert response["error"]["code"] == -32602
        assert response["error"]["data"] == data
        assert received == []

    @pytest.mark.parametrize(
        "params",
        [
            {"ref": {"type": "ref/tool", "name": "x"}, "argument": {"name": "a", "value": ""}},
            {"ref": "code_review_prompt", "argument": {"name": "a", "value": ""}},
            {"ref": {"type": "ref/prompt", "name": "code_review_prompt"}},
            {"ref": {"type": "ref/prompt", "name": "code_review_prompt"}, "argument": {"name": "a"}},
            None,
        ],
    )
    def test_malformed_requests_are_invalid_params(self, params):
        server, _ = self.completing_server()
        assert answer(server, "completion/complete", params)["error"]["code"] == -32602

    def test_values_past_100_are_cut_off_with_total_and_has_more(self):
        server, _ = self.completing_server([f"v{i}" for i in range(150)])
        params = {"ref": {"type": "ref/prompt", "name": "code_review_prompt"}, "argument": {"name": "language", "value": ""}}
        completion = answer(server, "completion/complete", params)["result"]["completion"]
        assert completion == {"values": [f"v{i}" for i in range(100)], "total": 150, "hasMore": True}

    def test_a_total_the_handler_gives_is_kept(self):
        server, _ = self.completing_server([f"v{i}" for i in range(120)], total=5000)
        params = {"ref": {"type": "ref/prompt", "name": "code_review_prompt"}, "argument": {"name": "language", "value": ""}}
        completion = answer(server, "completion/complete", params)["result"]["completion"]
        assert (len(completion["values"]), completion["total"], completion["hasMore"]) == (100, 5000, True)

    def test_total_and_has_more_pass_through_under_the_cap(self):
        server, _ = self.completing_server(["a", "b"], total=10, hasMore=True)
        params = {"ref": {"type": "ref/prompt", "name": "code_review_prompt"}, "argument": {"name": "language", "value": ""}}
        assert answer(server, "completion/complete", params)["result"] == {
            "completion": {"values": ["a", "b"], "total": 10, "hasMore": True}
        }

    def test_exactly_100_values_are_all_kept(self):
        server, _ = self.completing_server([str(i) for i in range(100)])
        params = {"ref": {"type": "ref/prompt", "name": "code_review_prompt"}, "argument": {"name": "language", "value": ""}}
        completion = answer(server, "completion/complete", params)["result"]["completion"]
        assert (len(completion["values"]), completion["hasMore"]) == (100, False)

    def test_without_a_handler_there_are_no_values(self):
        server = Server(prompts=[CodeReviewPrompt])
        params = {"ref": {"type": "ref/prompt", "name": "code_review_prompt"}, "argument": {"name": "language", "value": ""}}
        assert answer(server, "completion/complete", params)["result"] == {"completion": {"values": [], "hasMore": False}}

    def test_a_handler_may_return_a_bare_list_of_values(self):
        server = Server(prompts=[CodeReviewPrompt])
        server.completion_handler(lambda params: ["x", "y"])
        params = {"ref": {"type": "ref/prompt", "name": "code_review_prompt"}, "argument": {"name": "language", "value": ""}}
        assert answer(server, "completion/complete", params)["result"] == {"completion": {"values": ["x", "y"], "hasMore": False}}


class TestHandlersWithServerContext:
    def test_every_handler_kind_receives_the_context_when_it_asks(self):
        server = Server(resources=[README], prompts=[CodeReviewPrompt], server_context={"user_id": 42})
        seen = {}

        def remember(kind):
            def handler(params, server_context):
                seen[kind] = server_context["user_id"]
                return [] if kind in ("read", "complete") else None

            return handler

        server.resources_read_handler(remember("read"))
        server.resources_subscribe_handler(remember("subscribe"))
        server.resources_unsubscribe_handler(remember("unsubscribe"))
        server.completion_handler(remember("complete"))
        server.handle(request("resources/read", {"uri": "file:///README.md"}))
        server.handle(request("resources/subscribe", {"uri": "file:///README.md"}))
        server.handle(request("resources/unsubscribe", {"uri": "file:///README.md"}))
        server.handle(
            request(
                "completion/complete",
                {"ref": {"type": "ref/prompt", "name": "code_review_prompt"}, "argument": {"name": "language", "value": ""}},
            )
        )
        assert seen == {"read": 42, "subscribe": 42, "unsubscribe": 42, "complete": 42}

    def test_handlers_that_do_not_ask_get_only_params(self):
        server = Server(server_context={"user_id": 42})
        calls = []
        server.resources_read_handler(lambda params: calls.append(params) or [])
        server.handle(request("resources/read", {"uri": "x:1"}))
        assert calls == [{"uri": "x:1"}]

    def test_a_handler_with_keyword_arguments_receives_the_context(self):
        server = Server(server_context={"user_id": 42})
        seen = []

        def read(params, **options):
            seen.append(options["server_context"]["user_id"])
            return []

        server.resources_read_handler(read)
        server.handle(request("resources/read", {"uri": "x:1"}))
        assert seen == [42]


class TestContentForOlderVersions:
    """Blocks an older negotiated version does not define are described in text, never sent raw."""

    BLOCKS = [
        {"type": "text", "text": "hi", "_meta": {"k": "v"}},
        {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
        {"type": "resource_link", "uri": "file:///report.pdf", "name": "report"},
    ]

    def server(self):
        server = Server(name="s")
        server.define_tool(name="mixed", handler=lambda args: Tool.Response(list(self.BLOCKS)))
        server.define_prompt(
            name="mixed",
            handler=lambda args: {"messages": [{"role": "user", "content": dict(block)} for block in self.BLOCKS]},
        )
        return server

    @pytest.mark.parametrize(
        ("version", "expected"),
        [
            (
                "2024-11-05",
                [
                    {"type": "text", "text": "hi"},
                    {"type": "text", "text": "[audio content (audio/wav) left out: protocol 2024-11-05 cannot carry it]"},
                    {"type": "text", "text": "Resource: file:///report.pdf (report)"},
                ],
            ),
            (
                "2025-03-26",
                [
                    {"type": "text", "text": "hi"},
                    {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
                    {"type": "text", "text": "Resource: file:///report.pdf (report)"},
                ],
            ),
            ("2025-06-18", BLOCKS),
            ("2025-11-25", BLOCKS),
        ],
    )
    def test_tool_results_and_prompt_messages(self, version, expected):
        server = self.server()
        response = answer(server, "tools/call", {"name": "mixed"}, version=version)
        assert response["result"]["content"] == expected
        assert_valid_response("tools/call", response, version)
        response = answer(server, "prompts/get", {"name": "mixed"}, version=version)
        assert [message["content"] for message in response["result"]["messages"]] == expected
        assert_valid_response("prompts/get", response, version)
