"""``Server.from_openapi`` against three real OpenAPI documents (``spec/fixtures/openapi/``, see its
SOURCES.md): the Swagger Petstore 3.0 (JSON), Redocly's Museum API 3.1 (YAML) and Discord's HTTP
API 3.1 (JSON, 242 operations), served by the
werkzeug app of spec/support/openapi_api.py and driven by the official Python client (``mcp``)
over HTTP. The wire is validated against the MCP schema, each ``inputSchema`` against the JSON
Schema metaschema; the app records what each call sent."""

from __future__ import annotations

import base64
import gzip
import json
import re
import sys
import typing as t

import anyio
import jsonschema
import pytest
import requests
from mcp import Client as OfficialClient
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError as OfficialMCPError

from mcp_sdk import MissingExtraError, Server
from mcp_sdk.openapi import SEMANTIC_ROUTE_MAPS, MCPType, RouteMap
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.http_server import ROOT, LiveServer
from spec.support.openapi_api import DISCORD_MESSAGE, DISCORD_USER, PNG, APIApp, serving
from spec.support.wire_tap import WireTap

TIMEOUT = 30.0
FIXTURES = ROOT / "spec" / "fixtures" / "openapi"
PETSTORE = FIXTURES / "petstore-3.0.json"
MUSEUM = FIXTURES / "museum-3.1.yaml"
DISCORD = FIXTURES / "discord-3.1.json.gz"
PETSTORE_TOOLS = [
    "updatePet", "addPet", "findPetsByStatus", "findPetsByTags", "getPetById", "updatePetWithForm", "deletePet",
    "uploadFile", "getInventory", "placeOrder", "getOrderById", "deleteOrder", "createUser",
    "createUsersWithListInput", "loginUser", "logoutUser", "getUserByName", "updateUser", "deleteUser",
]


def serve(server: Server, exercise: t.Callable[[OfficialClient], t.Awaitable[None]]) -> WireTap:
    """Run ``exercise`` with the official client connected to ``server`` over HTTP; the tap of the wire."""
    transport = StreamableHTTPTransport(server)
    tap = WireTap(transport)

    async def main() -> None:
        async with OfficialClient(streamable_http_client(live.url), mode="legacy", read_timeout_seconds=TIMEOUT) as official:
            await exercise(official)

    with LiveServer(tap, closeables=[transport]) as live:
        anyio.run(main)
    assert tap.assert_valid() > 0
    return tap


@pytest.fixture
def api() -> t.Iterator[tuple[APIApp, str]]:
    app = APIApp()
    with serving(app) as base:
        yield app, base


def test_petstore_tools_schemas_and_calls(api: tuple[APIApp, str]) -> None:
    app, base = api
    session = requests.Session()
    session.headers["X-Trace"] = "from-the-session"
    server = Server.from_openapi(PETSTORE, base_url=base + "/api/v3", session=session)
    results: dict[str, t.Any] = {}

    async def exercise(official: OfficialClient) -> None:
        tools = (await official.list_tools()).tools
        assert [tool.name for tool in tools] == PETSTORE_TOOLS
        results["added"] = await official.call_tool("addPet", {"name": "doggie", "photoUrls": ["u"], "status": "sold"})
        results["found"] = await official.call_tool("findPetsByStatus", {"status": "sold"})
        results["got"] = await official.call_tool("getPetById", {"petId": 1})
        results["missing"] = await official.call_tool("getPetById", {"petId": 404})
        results["deleted"] = await official.call_tool("deletePet", {"petId": 1, "api_key": "special-key"})
        results["inventory"] = await official.call_tool("getInventory", {})
        results["login"] = await official.call_tool("loginUser", {"username": "ann", "password": "p&q=r"})

    tap = serve(server, exercise)
    listed = tap.answers("tools/list")[0]["result"]["tools"]
    for tool in listed:
        jsonschema.Draft202012Validator.check_schema(tool["inputSchema"])
    by_name = {tool["name"]: tool for tool in listed}
    assert by_name["getPetById"] == {
        "name": "getPetById",
        "description": "Find pet by ID.\n\nReturns a single pet.",
        "inputSchema": {
            "type": "object",
            "properties": {"petId": {"type": "integer", "format": "int64", "description": "ID of pet to return"}},
            "required": ["petId"],
        },
        "outputSchema": server.tools["addPet"].to_dict()["outputSchema"],
    }
    assert by_name["addPet"]["inputSchema"] == {
        "type": "object",
        "properties": {
            "id": {"type": "integer", "format": "int64", "examples": [10]},
            "name": {"type": "string", "examples": ["doggie"]},
            "category": {"$ref": "#/$defs/Category"},
            "photoUrls": {"type": "array", "items": {"type": "string"}},
            "tags": {"type": "array", "items": {"$ref": "#/$defs/Tag"}},
            "status": {"type": "string", "description": "pet status in the store", "enum": ["available", "pending", "sold"]},
        },
        "required": ["name", "photoUrls"],
        "$defs": {
            "Category": {
                "x-swagger-router-model": "io.swagger.petstore.model.Category",
                "type": "object",
                "properties": {"id": {"type": "integer", "format": "int64", "examples": [1]}, "name": {"type": "string", "examples": ["Dogs"]}},
            },
            "Tag": {
                "x-swagger-router-model": "io.swagger.petstore.model.Tag",
                "type": "object",
                "properties": {"id": {"type": "integer", "format": "int64"}, "name": {"type": "string"}},
            },
        },
    }
    assert by_name["deletePet"]["inputSchema"]["required"] == ["petId"]
    assert set(by_name["deletePet"]["inputSchema"]["properties"]) == {"api_key", "petId"}
    assert "outputSchema" not in by_name["findPetsByStatus"]  # an array: no output schema

    added = {"name": "doggie", "photoUrls": ["u"], "status": "sold", "id": 2}
    calls = {answer["id"]: answer["result"] for answer in tap.answers("tools/call")}
    assert list(calls.values())[0] == {
        "content": [{"type": "text", "text": json.dumps(added)}], "structuredContent": added, "isError": False,
    }
    assert results["found"].structured_content is None
    assert json.loads(results["found"].content[0].text) == [added]
    assert results["got"].structured_content == {"id": 1, "name": "Rex", "photoUrls": [], "status": "available"}
    missing = results["missing"]
    assert missing.is_error is True
    text = missing.content[0].text
    assert text.startswith("HTTP 404 NOT FOUND: Pet not found (no such pet)") and text.endswith("…")
    assert len(text) == len("HTTP 404 NOT FOUND: ") + 500 + 1
    assert (results["deleted"].is_error, results["deleted"].content[0].text) == (False, "Pet deleted")
    assert results["inventory"].structured_content == {"sold": 1}
    assert results["login"].content[0].text == '"logged in user session:ann"'

    assert [(r.method, r.path, r.query, r.body) for r in app.requests] == [
        ("POST", "/api/v3/pet", "", {"name": "doggie", "photoUrls": ["u"], "status": "sold"}),
        ("GET", "/api/v3/pet/findByStatus", "status=sold", None),
        ("GET", "/api/v3/pet/1", "", None),
        ("GET", "/api/v3/pet/404", "", None),
        ("DELETE", "/api/v3/pet/1", "", None),
        ("GET", "/api/v3/store/inventory", "", None),
        ("GET", "/api/v3/user/login", "username=ann&password=p%26q%3Dr", None),
    ]
    assert app.requests[0].headers == {"X-Trace": "from-the-session", "Content-Type": "application/json"}
    assert app.requests[4].headers == {"X-Trace": "from-the-session", "api_key": "special-key"}


def test_a_timeout_is_an_error_result(api: tuple[APIApp, str]) -> None:
    app, base = api
    server = Server.from_openapi(PETSTORE, base_url=base + "/api/v3", timeout=0.2)
    results = []

    async def exercise(official: OfficialClient) -> None:
        results.append(await official.call_tool("getOrderById", {"orderId": 7}))

    serve(server, exercise)
    app.release()
    assert (results[0].is_error, results[0].content[0].text) == (True, "GET /store/order/{orderId} timed out after 0.2 s")
    assert [(r.method, r.path) for r in app.requests] == [("GET", "/api/v3/store/order/7")]


def test_an_unreachable_api_is_an_error_result() -> None:
    with serving(APIApp()) as base:
        pass
    server = Server.from_openapi(PETSTORE, base_url=base + "/api/v3")
    results = []

    async def exercise(official: OfficialClient) -> None:
        results.append(await official.call_tool("getInventory", {}))

    serve(server, exercise)
    # the exception's own text is left out: it holds the URL, query keys included
    assert (results[0].is_error, results[0].content[0].text) == (True, "GET /store/inventory failed: ConnectionError")


def test_museum_yaml_31_with_route_maps(api: tuple[APIApp, str]) -> None:
    app, base = api
    session = requests.Session()
    session.auth = ("curator", "s3cret")
    route_maps = [RouteMap(methods=["DELETE"], mcp_type=MCPType.EXCLUDE), *SEMANTIC_ROUTE_MAPS]
    server = Server.from_openapi(MUSEUM, base_url=base + "/museum", session=session, route_maps=route_maps)
    seen: dict[str, t.Any] = {}

    async def exercise(official: OfficialClient) -> None:
        seen["tools"] = [tool.name for tool in (await official.list_tools()).tools]
        seen["resources"] = [(str(r.uri), r.name, r.mime_type) for r in (await official.list_resources()).resources]
        templates = (await official.list_resource_templates()).resource_templates
        seen["templates"] = [(t.uri_template, t.name, t.mime_type) for t in templates]
        event = {"name": "Pirate Coding", "location": "Computer Room", "eventDescription": "Arr",
                 "dates": ["2023-10-29"], "price": 25}
        seen["created"] = await official.call_tool("createSpecialEvent", event)
        seen["updated"] = await official.call_tool("updateSpecialEvent", {"eventId": "ev-1", "price": 30})
        seen["hours"] = await official.read_resource("resource://getMuseumHours")
        seen["event"] = await official.read_resource("resource://getSpecialEvent/ev-1")
        seen["qr"] = await official.read_resource("resource://getTicketCode/t%2F1")
        seen["absent"] = await official.call_tool("updateSpecialEvent", {"eventId": "a b/c", "name": "x"})
        with pytest.raises(OfficialMCPError) as raised:
            await official.read_resource("resource://getSpecialEvent/nope")
        seen["read error"] = raised.value.error

    tap = serve(server, exercise)
    assert seen["tools"] == ["createSpecialEvent", "updateSpecialEvent", "buyMuseumTickets"]
    assert seen["resources"] == [
        ("resource://getMuseumHours", "getMuseumHours", "application/json"),
        ("resource://listSpecialEvents", "listSpecialEvents", "application/json"),
    ]
    assert seen["templates"] == [
        ("resource://getSpecialEvent/{eventId}", "getSpecialEvent", "application/json"),
        ("resource://getTicketCode/{ticketId}", "getTicketCode", "image/png"),
    ]
    for tool in tap.answers("tools/list")[0]["result"]["tools"]:
        jsonschema.Draft202012Validator.check_schema(tool["inputSchema"])
    created = {"name": "Pirate Coding", "location": "Computer Room", "eventDescription": "Arr",
               "dates": ["2023-10-29"], "price": 25, "eventId": "ev-1"}
    assert seen["created"].structured_content == created
    assert seen["updated"].structured_content == {**created, "price": 30}
    assert json.loads(seen["hours"].contents[0].text) == [{"date": "2023-09-11", "timeOpen": "09:00", "timeClose": "18:00"}]
    assert seen["event"].contents[0].mime_type == "application/json"
    assert json.loads(seen["event"].contents[0].text) == {**created, "price": 30}
    assert (seen["qr"].contents[0].mime_type, base64.b64decode(seen["qr"].contents[0].blob)) == ("image/png", PNG)
    absent = seen["absent"]
    assert (absent.is_error, absent.content[0].text) == (True, 'HTTP 404 NOT FOUND: {"type": "object", "title": "Not Found"}')
    assert (seen["read error"].code, seen["read error"].message, seen["read error"].data) == (
        -32603, 'HTTP 404 NOT FOUND: {"type": "object", "title": "Not Found"}', {"status": 404}
    )

    assert [(r.method, r.path, r.body) for r in app.requests] == [
        ("POST", "/museum/special-events", {k: v for k, v in created.items() if k != "eventId"}),
        ("PATCH", "/museum/special-events/ev-1", {"price": 30}),
        ("GET", "/museum/museum-hours", None),
        ("GET", "/museum/special-events/ev-1", None),
        ("GET", "/museum/tickets/t%2F1/qr", None),
        ("PATCH", "/museum/special-events/a%20b%2Fc", {"name": "x"}),
        ("GET", "/museum/special-events/nope", None),
    ]
    basic = "Basic " + base64.b64encode(b"curator:s3cret").decode()
    assert {r.headers["Authorization"] for r in app.requests} == {basic}


def test_route_maps_by_tag_and_path_and_the_first_match_wins() -> None:
    route_maps = [
        RouteMap(pattern=r"^/user", mcp_type=MCPType.EXCLUDE),
        RouteMap(tags={"store"}, methods=["GET"], mcp_type=MCPType.RESOURCE_TEMPLATE, mcp_tags={"shop"}),
        RouteMap(tags={"store"}, mcp_type=MCPType.EXCLUDE),
        RouteMap(methods="get", pattern=re.compile(r"findBy"), mcp_type=MCPType.RESOURCE),
    ]
    server = Server.from_openapi(PETSTORE, base_url="http://127.0.0.1:9", route_maps=route_maps)
    # /user* excluded; placeOrder and deleteOrder (tag store, not GET) excluded by the third map
    assert list(server.tools) == [
        "updatePet", "addPet", "getPetById", "updatePetWithForm", "deletePet", "uploadFile", "getInventory",
    ]
    assert [template.uri_template for template in server.resource_templates] == ["resource://getOrderById/{orderId}"]
    assert server.resource_templates[0].tags == frozenset({"shop", "store"})
    assert [(resource.uri, resource.mime_type) for resource in server.resources] == [
        ("resource://findPetsByStatus", "application/json"), ("resource://findPetsByTags", "application/json"),
    ]
    # getInventory matched the template map but has no path parameter: a tool, with the map's tags
    assert server.tools["getInventory"].tags == frozenset({"shop", "store"})


def test_yaml_needs_the_extra_only_for_yaml(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "yaml", None)
    with pytest.raises(MissingExtraError, match=r"^a YAML OpenAPI document needs PyYAML: pip install 'mcp_sdk\[openapi\]'$"):
        Server.from_openapi(MUSEUM, base_url="http://127.0.0.1:9")
    assert len(Server.from_openapi(PETSTORE.read_bytes(), base_url="http://127.0.0.1:9").tools) == 19


def test_discord_a_large_31_document(api: tuple[APIApp, str]) -> None:
    app, base = api
    session = requests.Session()
    session.headers["Authorization"] = "Bot my-token"
    server = Server.from_openapi(gzip.decompress(DISCORD.read_bytes()), base_url=base + "/discord/api/v10", session=session)
    seen: dict[str, t.Any] = {}

    async def exercise(official: OfficialClient) -> None:
        seen["tools"] = (await official.list_tools()).tools
        seen["me"] = await official.call_tool("get_my_user", {})
        seen["sent"] = await official.call_tool("create_message", {"channel_id": "41771983423143937", "content": "Hello"})
        seen["listed"] = await official.call_tool("list_messages", {"channel_id": "41771983423143937", "limit": 5})
        seen["too many"] = await official.call_tool("list_messages", {"channel_id": "41771983423143937", "limit": 500})
        seen["unknown"] = await official.call_tool("get_message", {"channel_id": "41771983423143937", "message_id": "7"})
        seen["deleted"] = await official.call_tool("delete_message", {"channel_id": "41771983423143937", "message_id": "1000"})

    tap = serve(server, exercise)
    listed = tap.answers("tools/list")[0]["result"]["tools"]
    assert len(listed) == len(seen["tools"]) == 242
    for tool in listed:
        jsonschema.Draft202012Validator.check_schema(tool["inputSchema"])
    by_name = {tool["name"]: tool for tool in listed}
    jsonschema.Draft202012Validator.check_schema(by_name["create_message"]["outputSchema"])
    snowflake = {"type": "string", "pattern": "^(0|[1-9][0-9]*)$", "format": "snowflake"}
    assert by_name["list_messages"] == {
        "name": "list_messages",
        "inputSchema": {
            "type": "object",
            "properties": {
                "channel_id": snowflake, "around": snowflake, "before": snowflake, "after": snowflake,
                "limit": {"type": "integer", "minimum": 1, "maximum": 100},
            },
            "required": ["channel_id"],
        },
    }
    assert by_name["get_my_user"]["outputSchema"]["properties"]["id"] == {"$ref": "#/$defs/SnowflakeType", "description": "the user's id"}
    assert by_name["get_my_user"]["outputSchema"]["$defs"]["SnowflakeType"] == snowflake

    # the official client checks structuredContent against the outputSchema: the answers conform
    assert seen["me"].structured_content == {**DISCORD_USER, "mfa_enabled": False, "locale": "en-US"}
    message = {**DISCORD_MESSAGE, "id": "1000", "channel_id": "41771983423143937", "content": "Hello"}
    assert seen["sent"].structured_content == message
    assert (seen["listed"].structured_content, json.loads(seen["listed"].content[0].text)) == (None, [message])
    assert seen["too many"].is_error is True  # refused before any request: 500 is over the schema's maximum
    assert seen["too many"].content[0].text.startswith("Invalid arguments: ")
    assert (seen["unknown"].is_error, seen["unknown"].content[0].text) == (
        True, 'HTTP 404 NOT FOUND: {"message": "Unknown Message", "code": 10008}'
    )
    assert (seen["deleted"].is_error, seen["deleted"].content[0].text) == (False, "HTTP 204 NO CONTENT")
    assert [(r.method, r.path, r.query, r.body) for r in app.requests] == [
        ("GET", "/discord/api/v10/users/@me", "", None),
        ("POST", "/discord/api/v10/channels/41771983423143937/messages", "", {"content": "Hello"}),
        ("GET", "/discord/api/v10/channels/41771983423143937/messages", "limit=5", None),
        ("GET", "/discord/api/v10/channels/41771983423143937/messages/7", "", None),
        ("DELETE", "/discord/api/v10/channels/41771983423143937/messages/1000", "", None),
    ]
    assert {r.headers["Authorization"] for r in app.requests} == {"Bot my-token"}


def test_an_image_answer_is_an_image_block(api: tuple[APIApp, str]) -> None:
    app, base = api
    server = Server.from_openapi(MUSEUM, base_url=base + "/museum")  # every operation a tool
    answer = server.handle({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                            "params": {"name": "getTicketCode", "arguments": {"ticketId": "t-1"}}})
    assert answer["result"] == {
        "content": [{"type": "image", "data": base64.b64encode(PNG).decode(), "mimeType": "image/png"}], "isError": False,
    }
    assert [(r.method, r.path) for r in app.requests] == [("GET", "/museum/tickets/t-1/qr")]
