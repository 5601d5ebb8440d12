"""Server: JSON-RPC handling, initialize and version negotiation, capabilities, custom methods,
notifications in both directions."""

from __future__ import annotations

import json

import pytest

import mcp_sdk
from mcp_sdk import Configuration, Prompt, Resource, ResourceTemplate, Server, Tool
from spec.support.server_helpers import (
    CLIENT_INFO,
    VERSIONS,
    Recorder,
    assert_valid_message,
    connect,
    initialize,
    initialize_params,
    notification,
    request,
)
from spec.support.wire_schema import assert_valid_response


class EchoTool(Tool):
    title = "Echo"
    description = "Echoes its argument"
    input_schema = {"properties": {"message": {"type": "string"}}, "required": ["message"]}

    @classmethod
    def call(cls, message, server_context=None):
        return Tool.Response([{"type": "text", "text": message}])


class GreetingPrompt(Prompt):
    description = "Greets"

    @classmethod
    def template(cls, args, server_context=None):
        return Prompt.Result(messages=[Prompt.Message(role="user", content=mcp_sdk.Content.Text("hi"))])


ICONS = [{"src": "https://example.com/icon.png", "mimeType": "image/png", "sizes": ["48x48"]}]


def full_server(**kwargs):
    return Server(
        name="example_server",
        title="Example Server",
        version="2.0.0",
        website_url="https://example.com",
        icons=ICONS,
        instructions="Use the tools of this server as a last resort",
        **kwargs,
    )


# -- JSON-RPC 2.0 -------------------------------------------------------------


class TestJSONRPC:
    def test_a_request_gets_a_result_with_its_id(self):
        assert Server().handle(request("ping", id=7)) == {"jsonrpc": "2.0", "id": 7, "result": {}}

    @pytest.mark.parametrize("request_id", [0, "0", 1, "1", -5, 2**53 + 1, "", "abc-123", "é"])
    def test_string_and_integer_ids_come_back_exactly(self, request_id):
        response = Server().handle(request("ping", id=request_id))
        assert response == {"jsonrpc": "2.0", "id": request_id, "result": {}}
        assert type(response["id"]) is type(request_id)

    @pytest.mark.parametrize("text, expected", [('"0"', '"0"'), ("0", "0"), ('"abc"', '"abc"'), ("42", "42")])
    def test_ids_survive_the_json_round_trip(self, text, expected):
        answer = Server().handle_json('{"jsonrpc":"2.0","id":%s,"method":"ping"}' % text)
        assert answer == '{"jsonrpc":"2.0","id":%s,"result":{}}' % expected

    def test_a_notification_gets_no_response(self):
        server = Server()
        assert server.handle(notification("notifications/initialized")) is None
        assert server.handle_json('{"jsonrpc":"2.0","method":"notifications/initialized"}') is None

    def test_an_unknown_notification_is_ignored(self):
        assert Server().handle(notification("notifications/whatever", {"x": 1})) is None

    def test_a_response_from_the_client_gets_no_response(self):
        server = Server()
        assert server.handle({"jsonrpc": "2.0", "id": 99, "result": {}}) is None
        assert server.handle({"jsonrpc": "2.0", "id": 99, "error": {"code": -1, "message": "no"}}) is None

    @pytest.mark.parametrize("bad_id", [[1], {"a": 1}, None, 1.5, True])
    def test_a_response_with_an_id_we_never_sent_is_dropped(self, bad_id):
        session, _ = connect(Server())
        assert session.handle({"jsonrpc": "2.0", "id": bad_id, "result": {}}) is None

    def test_malformed_json_is_a_parse_error(self):
        answer = json.loads(Server().handle_json('{"jsonrpc":"2.0","id":1,"method":"ping"'))
        assert answer["id"] is None
        assert answer["error"]["code"] == -32700
        assert answer["error"]["message"].startswith("Parse error")

    @pytest.mark.parametrize("text", ["", "   ", b"\xff\xfe", "[" * 100_000, '{"a":'])
    def test_anything_that_is_not_json_is_a_parse_error(self, text):
        answer = json.loads(Server().handle_json(text))
        assert answer["error"]["code"] == -32700
        assert answer["id"] is None

    def test_json_text_may_be_bytes(self):
        assert Server().handle_json(b'{"jsonrpc":"2.0","id":1,"method":"ping"}') == '{"jsonrpc":"2.0","id":1,"result":{}}'

    @pytest.mark.parametrize(
        "message, expected_id",
        [
            (42, None),
            ("ping", None),
            ({"jsonrpc": "1.0", "id": 3, "method": "ping"}, 3),
            ({"id": 3, "method": "ping"}, 3),
            ({"jsonrpc": "2.0", "id": 3, "method": 12}, 3),
            ({"jsonrpc": "2.0", "id": 3}, 3),
            ({"jsonrpc": "2.0", "id": None, "method": "ping"}, None),
            ({"jsonrpc": "2.0", "id": 1.5, "method": "ping"}, None),
            ({"jsonrpc": "2.0", "id": True, "method": "ping"}, None),
            ({"jsonrpc": "2.0", "id": [1], "method": "ping"}, None),
        ],
    )
    def test_what_is_not_a_request_is_an_invalid_request(self, message, expected_id):
        response = Server().handle(message)
        assert response["jsonrpc"] == "2.0"
        assert response["id"] == expected_id
        assert response["error"]["code"] == -32600
        assert response["error"]["message"].startswith("Invalid Request")
        if expected_id is not None:
            assert_valid_response("ping", response)

    def test_an_unknown_method_is_method_not_found_naming_it(self):
        assert Server().handle(request("tools/frobnicate", id="x")) == {
            "jsonrpc": "2.0",
            "id": "x",
            "error": {"code": -32601, "message": "Method not found: tools/frobnicate"},
        }

    def test_params_that_are_not_an_object_are_invalid_params(self):
        response = Server(tools=[EchoTool]).handle(request("tools/call", ["echo_tool"], id=2))
        assert response == {
            "jsonrpc": "2.0",
            "id": 2,
            "error": {"code": -32602, "message": "Invalid params: expected an object"},
        }

    def test_a_handler_that_raises_is_an_internal_error_without_details(self):
        server = Server(configuration=Configuration(exception_reporter=Recorder()))

        @server.define_custom_method(method_name="explode")
        def explode(params):
            raise RuntimeError("secret database password")

        assert server.handle(request("explode", id=5)) == {
            "jsonrpc": "2.0",
            "id": 5,
            "error": {"code": -32603, "message": "Internal error"},
        }

    def test_a_handler_may_answer_with_its_own_json_rpc_error(self):
        server = Server()

        @server.define_custom_method(method_name="refuse")
        def refuse(params):
            raise mcp_sdk.RequestHandlerError("Not today", data={"retry": True}, code=-32000)

        assert server.handle(request("refuse", id=5)) == {
            "jsonrpc": "2.0",
            "id": 5,
            "error": {"code": -32000, "message": "Not today", "data": {"retry": True}},
        }

    def test_a_result_json_cannot_represent_is_an_internal_error_in_json(self):
        reporter = Recorder()
        server = Server(configuration=Configuration(exception_reporter=reporter))
        server.define_custom_method(method_name="weird", handler=lambda params: {1, 2})
        assert json.loads(server.handle_json('{"jsonrpc":"2.0","id":1,"method":"weird"}')) == {
            "jsonrpc": "2.0",
            "id": 1,
            "error": {"code": -32603, "message": "Internal error"},
        }
        assert isinstance(reporter.errors[0], TypeError)

    def test_a_result_with_nan_is_an_internal_error_rather_than_invalid_json(self):
        server = Server(configuration=Configuration(exception_reporter=Recorder()))
        server.define_custom_method(method_name="nan", handler=lambda params: {"value": float("nan")})
        assert json.loads(server.handle_json('{"jsonrpc":"2.0","id":1,"method":"nan"}'))["error"]["code"] == -32603

    def test_non_ascii_text_is_sent_as_is(self):
        server = Server(tools=[EchoTool])
        answer = server.handle_json(json.dumps(request("tools/call", {"name": "echo_tool", "arguments": {"message": "héllo ✓"}})))
        assert "héllo ✓" in answer


class TestBatches:
    def test_a_batch_is_answered_in_2025_03_26(self):
        session, _ = connect(Server(tools=[EchoTool]), "2025-03-26")
        responses = session.handle(
            [
                request("ping", id=1),
                notification("notifications/initialized"),
                request("tools/call", {"name": "echo_tool", "arguments": {"message": "a"}}, id="two"),
                request("nope", id=3),
            ]
        )
        assert responses == [
            {"jsonrpc": "2.0", "id": 1, "result": {}},
            {"jsonrpc": "2.0", "id": "two", "result": {"content": [{"type": "text", "text": "a"}], "isError": False}},
            {"jsonrpc": "2.0", "id": 3, "error": {"code": -32601, "message": "Method not found: nope"}},
        ]

    def test_a_batch_through_json_text(self):
        session, _ = connect(Server(), "2025-03-26")
        answer = session.handle_json('[{"jsonrpc":"2.0","id":0,"method":"ping"},{"jsonrpc":"2.0","id":"0","method":"ping"}]')
        assert answer == '[{"jsonrpc":"2.0","id":0,"result":{}},{"jsonrpc":"2.0","id":"0","result":{}}]'

    def test_only_the_batch_response_json_cannot_represent_becomes_an_error(self):
        server = Server(configuration=Configuration(exception_reporter=Recorder()))
        server.define_custom_method(method_name="weird", handler=lambda params: {1, 2})
        session, _ = connect(server, "2025-03-26")
        answer = session.handle_json('[{"jsonrpc":"2.0","id":1,"method":"weird"},{"jsonrpc":"2.0","id":2,"method":"ping"}]')
        assert json.loads(answer) == [
            {"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": "Internal error"}},
            {"jsonrpc": "2.0", "id": 2, "result": {}},
        ]

    def test_a_batch_of_notifications_only_gets_no_response(self):
        session, _ = connect(Server(), "2025-03-26")
        assert session.handle([notification("notifications/initialized"), notification("x/y")]) is None

    def test_an_empty_batch_is_an_invalid_request(self):
        session, _ = connect(Server(), "2025-03-26")
        response = session.handle([])
        assert response["id"] is None
        assert response["error"]["code"] == -32600

    def test_invalid_members_of_a_batch_are_answered_one_by_one(self):
        session, _ = connect(Server(), "2025-03-26")
        responses = session.handle([1, request("ping", id=2)])
        assert responses[0]["error"]["code"] == -32600
        assert responses[0]["id"] is None
        assert responses[1] == {"jsonrpc": "2.0", "id": 2, "result": {}}

    def test_initialize_must_not_be_part_of_a_batch(self):
        session, _ = connect(Server(), "2025-03-26")
        responses = session.handle([request("initialize", initialize_params("2025-03-26"), id=9)])
        assert responses == [
            {
                "jsonrpc": "2.0",
                "id": 9,
                "error": {"code": -32600, "message": "Invalid Request: initialize must not be part of a batch"},
            }
        ]

    @pytest.mark.parametrize("version", ["2024-11-05", "2025-06-18", "2025-11-25"])
    def test_a_batch_is_refused_where_the_version_has_none(self, version):
        session, _ = connect(Server(), version)
        assert session.handle([request("ping", id=1)]) == {
            "jsonrpc": "2.0",
            "id": None,
            "error": {"code": -32600, "message": f"Invalid Request: batches are not supported in protocol {version}"},
        }

    def test_a_batch_before_initialize_follows_the_servers_latest_version(self):
        assert Server().handle([request("ping", id=1)])["error"]["code"] == -32600
        capped = Server(configuration=Configuration(protocol_version="2025-03-26"))
        assert capped.handle([request("ping", id=1)]) == [{"jsonrpc": "2.0", "id": 1, "result": {}}]


# -- initialize ---------------------------------------------------------------


class TestInitialize:
    @pytest.mark.parametrize("version", VERSIONS)
    def test_a_supported_version_is_negotiated_as_requested(self, version):
        session, _ = connect(Server(), initialized=False)
        result = initialize(session, version)
        assert result["protocolVersion"] == version
        assert session.protocol_version == version

    @pytest.mark.parametrize("requested", ["2023-01-01", "2099-12-31", "draft", ""])
    def test_an_unknown_version_gets_the_servers_latest(self, requested):
        response = Server().handle(request("initialize", initialize_params(requested)))
        assert response["result"]["protocolVersion"] == "2025-11-25"

    def test_the_latest_version_is_the_default(self):
        assert mcp_sdk.LATEST_PROTOCOL_VERSION == "2025-11-25"
        assert mcp_sdk.SUPPORTED_PROTOCOL_VERSIONS == ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")

    def test_a_configured_protocol_version_caps_the_negotiation(self):
        server = Server(configuration=Configuration(protocol_version="2025-03-26"))
        assert server.handle(request("initialize", initialize_params("2025-11-25")))["result"]["protocolVersion"] == "2025-03-26"
        assert server.handle(request("initialize", initialize_params("2024-11-05")))["result"]["protocolVersion"] == "2024-11-05"
        assert server.handle(request("initialize", initialize_params("1999-01-01")))["result"]["protocolVersion"] == "2025-03-26"

    @pytest.mark.parametrize("params", [None, {}, {"protocolVersion": 20250618}, ["2025-06-18"]])
    def test_initialize_without_a_version_string_is_invalid_params(self, params):
        response = Server().handle(request("initialize", params))
        assert response["error"]["code"] == -32602

    def test_the_result_in_2025_11_25_has_every_server_info_field(self):
        response = full_server(tools=[EchoTool]).handle(request("initialize", initialize_params("2025-11-25")))
        assert response == {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {"listChanged": True}, "logging": {}},
                "serverInfo": {
                    "name": "example_server",
                    "title": "Example Server",
                    "version": "2.0.0",
                    "websiteUrl": "https://example.com",
                    "icons": ICONS,
                },
                "instructions": "Use the tools of this server as a last resort",
            },
        }
        assert_valid_response("initialize", response, "2025-11-25")

    def test_the_result_in_2025_06_18_keeps_the_title_only(self):
        response = full_server().handle(request("initialize", initialize_params("2025-06-18")))
        assert response["result"]["serverInfo"] == {"name": "example_server", "title": "Example Server", "version": "2.0.0"}
        assert_valid_response("initialize", response, "2025-06-18")

    @pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26"])
    def test_the_result_before_2025_06_18_has_name_and_version_only(self, version):
        response = full_server().handle(request("initialize", initialize_params(version)))
        assert response["result"]["serverInfo"] == {"name": "example_server", "version": "2.0.0"}
        assert response["result"]["instructions"] == "Use the tools of this server as a last resort"
        assert_valid_response("initialize", response, version)

    def test_a_description_is_sent_only_from_2025_11_25(self):
        server = Server(name="s", version="1", description="What this server does")
        latest = server.handle(request("initialize", initialize_params("2025-11-25")))
        older = server.handle(request("initialize", initialize_params("2025-06-18")))
        assert latest["result"]["serverInfo"] == {"name": "s", "version": "1", "description": "What this server does"}
        assert older["result"]["serverInfo"] == {"name": "s", "version": "1"}
        assert_valid_response("initialize", latest, "2025-11-25")

    def test_instructions_are_left_out_when_not_set(self):
        result = Server(name="plain", version="1.0.0").handle(request("initialize", initialize_params()))["result"]
        assert result == {
            "protocolVersion": "2025-11-25",
            "capabilities": {"logging": {}},
            "serverInfo": {"name": "plain", "version": "1.0.0"},
        }

    def test_initialize_records_what_the_client_declared(self):
        session, _ = connect(Server(), "2025-06-18", capabilities={"roots": {"listChanged": True}})
        assert session.client_info == CLIENT_INFO
        assert session.client_capabilities == {"roots": {"listChanged": True}}
        assert session.initialized is True

    def test_a_session_typed_by_hand_works_with_the_latest_defaults(self):
        tool = Tool.define(name="iconic", title="Iconic", icons=ICONS, handler=lambda args: "ok")
        server = Server(tools=[tool])
        response = server.handle(request("tools/list"))
        assert response == {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {
                "tools": [
                    {"name": "iconic", "title": "Iconic", "inputSchema": {"type": "object"}, "icons": ICONS},
                ]
            },
        }
        assert_valid_response("tools/list", response, "2025-11-25")
        assert server.handle(request("tools/call", {"name": "iconic"}))["result"] == {
            "content": [{"type": "text", "text": "ok"}],
            "isError": False,
        }


# -- capabilities -------------------------------------------------------------


class TestCapabilities:
    def capabilities(self, server, version="2025-11-25"):
        response = server.handle(request("initialize", initialize_params(version)))
        assert_valid_response("initialize", response, version)
        return response["result"]["capabilities"]

    def test_a_bare_server_offers_logging_only(self):
        assert self.capabilities(Server()) == {"logging": {}}

    def test_capabilities_follow_what_is_registered(self):
        server = Server(
            tools=[EchoTool],
            prompts=[GreetingPrompt],
            resources=[Resource(uri="file:///a", name="a")],
        )
        assert self.capabilities(server) == {
            "tools": {"listChanged": True},
            "prompts": {"listChanged": True},
            "resources": {"listChanged": True},
            "logging": {},
        }

    def test_resource_templates_alone_offer_resources(self):
        server = Server(resource_templates=[ResourceTemplate(uri_template="file:///{path}", name="files")])
        assert self.capabilities(server) == {"resources": {"listChanged": True}, "logging": {}}

    def test_a_read_handler_alone_offers_resources(self):
        server = Server()
        server.resources_read_handler(lambda params: [])
        assert self.capabilities(server) == {"resources": {"listChanged": True}, "logging": {}}

    def test_a_subscribe_handler_offers_subscribe(self):
        server = Server(resources=[Resource(uri="file:///a", name="a")])
        server.resources_subscribe_handler(lambda params: None)
        assert self.capabilities(server)["resources"] == {"listChanged": True, "subscribe": True}

    def test_a_completion_handler_offers_completions(self):
        server = Server(prompts=[GreetingPrompt])
        server.completion_handler(lambda params: {"completion": {"values": []}})
        assert self.capabilities(server) == {"prompts": {"listChanged": True}, "completions": {}, "logging": {}}

    def test_completions_are_left_out_for_2024_11_05(self):
        server = Server()
        server.completion_handler(lambda params: {"completion": {"values": []}})
        assert self.capabilities(server, "2024-11-05") == {"logging": {}}

    def test_tools_defined_later_are_offered_at_initialize(self):
        server = Server()
        server.define_tool(name="late", handler=lambda args: "ok")
        assert self.capabilities(server) == {"tools": {"listChanged": True}, "logging": {}}

    def test_capabilities_given_to_the_server_replace_the_derived_ones(self):
        server = Server(tools=[EchoTool], capabilities={"tools": {}, "resources": {"subscribe": True}})
        assert self.capabilities(server) == {"tools": {}, "resources": {"subscribe": True}}
        assert server.capabilities == {"tools": {}, "resources": {"subscribe": True}}

    @pytest.mark.parametrize("version", VERSIONS)
    def test_derived_capabilities_are_valid_in_every_version(self, version):
        server = Server(tools=[EchoTool], prompts=[GreetingPrompt], resources=[Resource(uri="u:a", name="a")])
        server.completion_handler(lambda params: [])
        server.resources_subscribe_handler(lambda params: None)
        self.capabilities(server, version)


# -- registration -------------------------------------------------------------


class TestRegistration:
    def test_duplicate_tool_names_are_refused_at_construction(self):
        class Other(Tool):
            tool_name = "echo_tool"

            @classmethod
            def call(cls):
                return None

        with pytest.raises(mcp_sdk.ToolNotUnique, match="echo_tool"):
            Server(tools=[EchoTool, Other])

    def test_a_tool_defined_later_with_a_taken_name_is_refused(self):
        server = Server(tools=[EchoTool])
        with pytest.raises(mcp_sdk.ToolNotUnique):
            server.define_tool(name="echo_tool", handler=lambda args: "x")

    @pytest.mark.parametrize("name", ["", "has space", "slash/name", "x" * 129, "naïve", "a:b", "new\nline"])
    def test_invalid_tool_names_are_refused(self, name):
        tool = Tool.define(name=name, handler=lambda args: "x")
        with pytest.raises(mcp_sdk.InvalidNameError):
            Server(tools=[tool])
        with pytest.raises(mcp_sdk.InvalidNameError):
            Server().add_tool(tool)

    @pytest.mark.parametrize("name", ["a", "x" * 128, "get_weather", "Tool-1.2", "ADMIN.tools.list_v2"])
    def test_valid_tool_names_are_accepted(self, name):
        tool = Tool.define(name=name, handler=lambda args: "x")
        assert Server(tools=[tool]).tools == {name: tool}

    def test_only_tool_subclasses_are_tools(self):
        with pytest.raises(TypeError):
            Server(tools=[lambda args: "x"])

    def test_duplicate_prompt_names_are_refused(self):
        with pytest.raises(mcp_sdk.PromptNotUnique):
            Server(prompts=[GreetingPrompt, Prompt.define(name="greeting_prompt", handler=lambda args: None)])

    @pytest.mark.parametrize("page_size", [0, -1, 1.5, "10", True])
    def test_page_size_must_be_a_positive_integer(self, page_size):
        with pytest.raises(ValueError):
            Server(page_size=page_size)

    def test_define_tool_returns_the_function_unchanged(self):
        server = Server()

        def add(args):
            return str(args["a"] + args["b"])

        assert server.define_tool(name="add")(add) is add
        assert server.handle(request("tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}}))["result"] == {
            "content": [{"type": "text", "text": "3"}],
            "isError": False,
        }

    def test_handler_registrations_return_the_function_unchanged(self):
        server = Server()

        def handler(params):
            return []

        assert server.resources_read_handler(handler) is handler
        assert server.resources_subscribe_handler(handler) is handler
        assert server.resources_unsubscribe_handler(handler) is handler
        assert server.completion_handler(handler) is handler
        assert server.roots_list_changed_handler(handler) is handler

    def test_a_handler_must_be_callable(self):
        with pytest.raises(TypeError):
            Server().resources_read_handler("not a function")


# -- custom methods -----------------------------------------------------------


class TestCustomMethods:
    def test_a_custom_method_answers_with_its_return_value(self):
        server = Server()

        @server.define_custom_method(method_name="add")
        def add(params):
            return params["a"] + params["b"]

        assert server.handle(request("add", {"a": 5, "b": 3})) == {"jsonrpc": "2.0", "id": 1, "result": 8}

    def test_a_custom_method_may_be_registered_without_a_decorator(self):
        server = Server()
        server.define_custom_method(method_name="echo", handler=lambda params: params)
        assert server.handle(request("echo", {"x": [1]}, id="e")) == {"jsonrpc": "2.0", "id": "e", "result": {"x": [1]}}

    def test_the_decorator_returns_the_function_unchanged(self):
        server = Server()

        def handler(params):
            return None

        assert server.define_custom_method(method_name="x")(handler) is handler

    def test_a_custom_notification_calls_the_function_and_answers_nothing(self):
        server = Server()
        received = []
        server.define_custom_method(method_name="notify", handler=received.append)
        assert server.handle(notification("notify", {"n": 1})) is None
        assert received == [{"n": 1}]

    def test_a_custom_method_returning_none_answers_a_null_result(self):
        server = Server()
        server.define_custom_method(method_name="nothing", handler=lambda params: None)
        assert server.handle(request("nothing")) == {"jsonrpc": "2.0", "id": 1, "result": None}

    def test_a_custom_method_may_take_the_server_context(self):
        server = Server(server_context={"user": "ann"})
        seen = []

        @server.define_custom_method(method_name="whoami")
        def whoami(params, server_context):
            seen.append(server_context)
            return server_context["user"]

        assert server.handle(request("whoami"))["result"] == "ann"
        assert isinstance(seen[0], mcp_sdk.ServerContext)

    @pytest.mark.parametrize(
        "method_name",
        [
            "initialize",
            "ping",
            "logging/setLevel",
            "tools/list",
            "tools/call",
            "prompts/list",
            "prompts/get",
            "resources/list",
            "resources/read",
            "resources/templates/list",
            "resources/subscribe",
            "resources/unsubscribe",
            "completion/complete",
            "notifications/initialized",
            "notifications/cancelled",
            "notifications/roots/list_changed",
            "notifications/progress",
            "notifications/message",
        ],
    )
    def test_protocol_methods_cannot_be_overridden(self, method_name):
        server = Server()
        with pytest.raises(mcp_sdk.MethodAlreadyDefinedError, match=method_name):
            server.define_custom_method(method_name=method_name, handler=lambda params: None)
        assert Server.MethodAlreadyDefinedError is mcp_sdk.MethodAlreadyDefinedError

    def test_a_custom_method_cannot_be_defined_twice(self):
        server = Server()
        server.define_custom_method(method_name="add", handler=lambda params: 1)
        with pytest.raises(mcp_sdk.MethodAlreadyDefinedError):
            server.define_custom_method(method_name="add", handler=lambda params: 2)
        assert server.handle(request("add"))["result"] == 1

    @pytest.mark.parametrize("method_name", ["", None, 5])
    def test_a_method_name_must_be_a_non_empty_string(self, method_name):
        with pytest.raises(mcp_sdk.InvalidNameError):
            Server().define_custom_method(method_name=method_name)

    def test_a_custom_method_that_raises_is_reported(self):
        reporter = Recorder()
        server = Server(configuration=Configuration(exception_reporter=reporter))
        error = ValueError("boom")

        @server.define_custom_method(method_name="fail")
        def fail(params):
            raise error

        message = request("fail", {"a": 1})
        assert server.handle(message)["error"] == {"code": -32603, "message": "Internal error"}
        assert reporter.calls == [(error, {"request": message})]

    def test_a_custom_notification_that_raises_is_reported(self):
        reporter = Recorder()
        server = Server(configuration=Configuration(exception_reporter=reporter))
        error = ValueError("boom")

        def fail(params):
            raise error

        server.define_custom_method(method_name="note", handler=fail)
        assert server.handle(notification("note")) is None
        assert reporter.calls == [(error, {"notification": "note"})]


# -- notifications from the client --------------------------------------------


class TestClientNotifications:
    def test_initialized_marks_the_session(self):
        session, _ = connect(Server(), initialized=False)
        assert session.initialized is False
        session.handle(notification("notifications/initialized"))
        assert session.initialized is True

    def test_roots_list_changed_calls_the_handler(self):
        server = Server()
        calls = []
        server.roots_list_changed_handler(lambda: calls.append("changed"))
        assert server.handle(notification("notifications/roots/list_changed")) is None
        assert calls == ["changed"]

    def test_roots_list_changed_without_a_handler_is_ignored(self):
        assert Server().handle(notification("notifications/roots/list_changed")) is None

    def test_a_failing_roots_handler_is_reported_not_raised(self):
        reporter = Recorder()
        server = Server(configuration=Configuration(exception_reporter=reporter))

        def fail():
            raise RuntimeError("nope")

        server.roots_list_changed_handler(fail)
        assert server.handle(notification("notifications/roots/list_changed")) is None
        assert reporter.contexts == [{"notification": "notifications/roots/list_changed"}]

    @pytest.mark.parametrize("params", [None, {}, {"requestId": [1]}, {"requestId": 12345}, "x"])
    def test_a_cancellation_of_nothing_in_flight_is_ignored(self, params):
        reporter = Recorder()
        server = Server(configuration=Configuration(exception_reporter=reporter))
        assert server.handle(notification("notifications/cancelled", params)) is None
        assert reporter.calls == []


# -- notifications to clients -------------------------------------------------


class TestServerNotifications:
    @pytest.mark.parametrize(
        "notify, method, definition",
        [
            ("notify_tools_list_changed", "notifications/tools/list_changed", "ToolListChangedNotification"),
            ("notify_prompts_list_changed", "notifications/prompts/list_changed", "PromptListChangedNotification"),
            ("notify_resources_list_changed", "notifications/resources/list_changed", "ResourceListChangedNotification"),
        ],
    )
    def test_list_changed_goes_to_every_session(self, notify, method, definition):
        server = Server()
        first, first_capture = connect(server)
        second, second_capture = connect(server, "2024-11-05")
        getattr(server, notify)()
        assert first_capture.messages == [{"jsonrpc": "2.0", "method": method}]
        assert second_capture.messages == [{"jsonrpc": "2.0", "method": method}]
        for version in VERSIONS:
            assert_valid_message(first_capture.messages[0], definition, version)

    def test_a_closed_session_gets_no_broadcasts(self):
        server = Server()
        session, capture = connect(server)
        session.close()
        server.notify_tools_list_changed()
        assert capture.messages == []
        assert server.sessions == []

    def test_a_failing_send_is_reported_with_the_notification_name(self):
        reporter = Recorder()
        server = Server(configuration=Configuration(exception_reporter=reporter))
        error = OSError("pipe closed")

        def broken(message, related_request_id):
            raise error

        server.create_session(send=broken)
        server.notify_tools_list_changed()
        assert reporter.calls == [(error, {"notification": "tools_list_changed"})]

    def test_tools_list_reflects_a_tool_added_later(self):
        server = Server(tools=[EchoTool])
        assert [t["name"] for t in server.handle(request("tools/list"))["result"]["tools"]] == ["echo_tool"]
        server.define_tool(name="later", handler=lambda args: "x")
        server.notify_tools_list_changed()
        assert [t["name"] for t in server.handle(request("tools/list"))["result"]["tools"]] == ["echo_tool", "later"]

    def test_log_messages_go_only_to_sessions_that_set_a_level(self):
        server = Server()
        quiet, quiet_capture = connect(server)
        chatty, chatty_capture = connect(server)
        strict, strict_capture = connect(server)
        chatty.handle(request("logging/setLevel", {"level": "debug"}))
        strict.handle(request("logging/setLevel", {"level": "error"}))

        server.notify_log_message(data={"message": "started"}, level="info")
        server.notify_log_message(data="disk full", level="critical", logger="storage")

        assert quiet_capture.messages == []
        assert chatty_capture.messages == [
            {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": {"message": "started"}}},
            {
                "jsonrpc": "2.0",
                "method": "notifications/message",
                "params": {"level": "critical", "data": "disk full", "logger": "storage"},
            },
        ]
        assert strict_capture.messages == chatty_capture.messages[1:]
        for version in VERSIONS:
            assert_valid_message(chatty_capture.messages[1], "LoggingMessageNotification", version)

    def test_a_log_level_that_is_not_one_of_the_eight_is_refused(self):
        with pytest.raises(ValueError):
            Server().notify_log_message(data="x", level="verbose")

    def test_handle_without_a_transport_drops_notifications_quietly(self):
        server = Server()
        server.handle(request("logging/setLevel", {"level": "debug"}))
        server.notify_log_message(data="x", level="info")
        server.notify_tools_list_changed()


class TestHandlerAcceptsServerContext:
    """Whether a request's handler declares server_context (the HTTP transport streams only those)."""

    def test_tools_and_prompts_are_looked_up_by_the_name_in_params(self):
        class Quiet(Tool):
            @classmethod
            def call(cls, message):
                return "ok"

        class QuietPrompt(Prompt):
            @classmethod
            def template(cls, args):
                return Prompt.Result(messages=[])

        server = Server(tools=[EchoTool, Quiet], prompts=[GreetingPrompt, QuietPrompt])
        check = server.handler_accepts_server_context
        assert check("tools/call", {"name": "echo_tool"}) is True
        assert check("tools/call", {"name": "quiet"}) is False
        assert check("tools/call", {"name": "missing"}) is False
        assert check("tools/call", {"name": 7}) is False
        assert check("tools/call", None) is False
        assert check("tools/call", ["echo_tool"]) is False
        assert check("prompts/get", {"name": "greeting_prompt"}) is True
        assert check("prompts/get", {"name": "quiet_prompt"}) is False

    def test_tools_made_by_define_follow_their_function(self):
        server = Server()
        server.define_tool(name="plain", handler=lambda args: "x")

        @server.define_tool(name="talks")
        def talks(args, server_context=None):
            return "x"

        assert server.handler_accepts_server_context("tools/call", {"name": "plain"}) is False
        assert server.handler_accepts_server_context("tools/call", {"name": "talks"}) is True

    def test_registered_protocol_handlers(self):
        server = Server()
        server.resources_read_handler(lambda params, server_context=None: [])
        server.completion_handler(lambda params: {"completion": {"values": []}})
        assert server.handler_accepts_server_context("resources/read", {"uri": "a"}) is True
        assert server.handler_accepts_server_context("completion/complete", {}) is False
        assert server.handler_accepts_server_context("resources/subscribe", {"uri": "a"}) is False

    def test_custom_methods(self):
        server = Server()
        server.define_custom_method(method_name="plain", handler=lambda params: None)
        server.define_custom_method(method_name="talks", handler=lambda params, **kwargs: None)
        assert server.handler_accepts_server_context("plain") is False
        assert server.handler_accepts_server_context("talks") is True

    def test_methods_the_server_answers_itself_and_unknown_methods_never_do(self):
        server = Server(tools=[EchoTool])
        for method in ("initialize", "ping", "tools/list", "logging/setLevel", "resources/read", "no/such"):
            assert server.handler_accepts_server_context(method, {}) is False


class TestServerFacade:
    def test_error_classes_hang_off_the_server(self):
        assert Server.ResourceNotFoundError is mcp_sdk.ResourceNotFoundError
        assert Server.URLElicitationRequiredError is mcp_sdk.URLElicitationRequiredError
        assert issubclass(Server.ValidationError, mcp_sdk.MCPError)

    def test_server_info_is_in_the_latest_shape(self):
        assert full_server().server_info() == {
            "name": "example_server",
            "title": "Example Server",
            "version": "2.0.0",
            "websiteUrl": "https://example.com",
            "icons": ICONS,
        }

    def test_create_session_registers_and_close_unregisters(self):
        server = Server()
        session = server.create_session(send=lambda message, related: None, session_id="abc")
        assert server.sessions == [session]
        assert session.session_id == "abc"
        session.close()
        assert server.sessions == []
