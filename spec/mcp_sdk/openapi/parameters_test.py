"""An argument reaches only its own parameter: a path value cannot climb to another operation
(``..`` made ``DELETE /projects/7/members/{uid}`` delete the project), a cookie value cannot add a
cookie, a header value cannot add a header, a query value cannot add a query key. The API is the
recording app of spec/support/openapi_hostile_api.py on 127.0.0.1; what it received is compared
whole."""

from __future__ import annotations

import typing as t

import pytest
import requests

from mcp_sdk import Server
from mcp_sdk.openapi import SEMANTIC_ROUTE_MAPS
from spec.support.openapi_hostile_api import DOCUMENT, HostileAPI, call_tool

DOT_SEGMENT = "it would not stay one path segment"


def read(server: Server, uri: str) -> dict[str, t.Any]:
    answer = server.handle({"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": uri}})
    assert answer is not None
    return t.cast(dict[str, t.Any], answer)


def refused(text: str) -> dict[str, t.Any]:
    return {"content": [{"type": "text", "text": text}], "isError": True}


def test_dot_segment_path_values_are_refused_before_anything_is_sent(api: tuple[HostileAPI, str]) -> None:
    app, base = api
    server = Server.from_openapi(DOCUMENT, base_url=base)
    assert call_tool(server, "removeMember", {"pid": "7", "uid": ".."})["result"] == refused(f"path parameter 'uid' cannot be '..': {DOT_SEGMENT}")
    assert call_tool(server, "removeMember", {"pid": "..", "uid": ".."})["result"] == refused(f"path parameter 'pid' cannot be '..': {DOT_SEGMENT}")
    assert call_tool(server, "removeMember", {"pid": "7", "uid": "."})["result"] == refused(f"path parameter 'uid' cannot be '.': {DOT_SEGMENT}")
    assert call_tool(server, "removeMember", {"pid": "7", "uid": ""})["result"] == refused(f"path parameter 'uid' cannot be '': {DOT_SEGMENT}")
    # two values side by side in one segment cannot make one either
    assert call_tool(server, "getFile", {"stem": ".", "suffix": "."})["result"] == refused(f"path parameter 'stem' cannot be '.': {DOT_SEGMENT}")
    assert app.requests == []

    # values that only look like dot segments stay one segment, encoded
    for uid in ("...", "a..b", "../x", "%2E%2E", "7?x=1#y"):
        assert call_tool(server, "removeMember", {"pid": "7", "uid": uid})["result"]["isError"] is False
    assert call_tool(server, "getFile", {"stem": "..", "suffix": ".json"})["result"] == refused(f"path parameter 'stem' cannot be '..': {DOT_SEGMENT}")
    assert call_tool(server, "getFile", {"stem": "report", "suffix": ".."})["result"] == refused(f"path parameter 'suffix' cannot be '..': {DOT_SEGMENT}")
    assert [(r.method, r.path, r.query) for r in app.requests] == [
        ("DELETE", "/projects/7/members/...", ""),
        ("DELETE", "/projects/7/members/a..b", ""),
        ("DELETE", "/projects/7/members/..%2Fx", ""),
        ("DELETE", "/projects/7/members/%252E%252E", ""),
        ("DELETE", "/projects/7/members/7%3Fx%3D1%23y", ""),
    ]


def test_a_resource_template_read_cannot_climb_to_another_operation(api: tuple[HostileAPI, str]) -> None:
    app, base = api
    server = Server.from_openapi(DOCUMENT, base_url=base, route_maps=SEMANTIC_ROUTE_MAPS)
    assert [template.uri_template for template in server.resource_templates] == [
        "resource://getProject/{pid}", "resource://getMember/{pid}/{uid}", "resource://getFile/{stem}/{suffix}",
    ]
    error = {"code": -32602, "message": f"path parameter 'uid' cannot be '..': {DOT_SEGMENT}", "data": {"parameter": "uid"}}
    assert read(server, "resource://getMember/7/..")["error"] == error
    assert read(server, "resource://getMember/7/%2E%2E")["error"] == error  # the template's variable arrives decoded
    assert read(server, "resource://getMember/7/%2e")["error"] == {**error, "message": f"path parameter 'uid' cannot be '.': {DOT_SEGMENT}"}
    assert app.requests == []
    assert read(server, "resource://getMember/7/8")["result"]["contents"][0]["text"] == "GET /projects/7/members/8 reached"
    assert [(r.method, r.path) for r in app.requests] == [("GET", "/projects/7/members/8")]


def test_cookie_query_and_header_values_stay_in_their_own_parameter(api: tuple[HostileAPI, str]) -> None:
    app, base = api
    session = requests.Session()
    session.cookies.set("session", "REAL")
    session.headers["Authorization"] = "Bearer server-token"
    server = Server.from_openapi(DOCUMENT, base_url=base, session=session)
    assert set(server.tools["echo"].to_dict()["inputSchema"]["properties"]) == {"city", "tags", "X-Mode", "pref", "langs", "note"}
    arguments = {
        "pref": "x; session=ATTACKER", "langs": ["en", "fr;q=1,de"], "city": "Paris&api_key=ATTACKER", "tags": ["a&b", "c"],
        "X-Mode": "fast", "Authorization": "Bearer caller-token",  # OpenAPI ignores an Authorization parameter: not in the schema, not sent
    }
    assert call_tool(server, "echo", arguments)["result"]["isError"] is False
    assert call_tool(server, "echo", {"pref": "x\r\nX-Evil: 1"})["result"]["isError"] is False
    [first, second] = app.requests
    assert (first.query, first.headers) == (
        "city=Paris%26api_key%3DATTACKER&tags=a%26b&tags=c",
        {
            "Authorization": "Bearer server-token",
            "Cookie": "session=REAL; pref=x%3B%20session%3DATTACKER; langs=en%2Cfr%3Bq%3D1%2Cde",
            "X-Mode": "fast",
        },
    )
    assert second.headers == {"Authorization": "Bearer server-token", "Cookie": "session=REAL; pref=x%0D%0AX-Evil%3A%201"}


@pytest.mark.parametrize("value", ["a\r\nX-Evil: 1", "a\nX-Evil: 1", "a\x00b", " leading", "trailing\t", "snow \u2603"])
def test_a_header_value_cannot_add_a_header(api: tuple[HostileAPI, str], value: str) -> None:
    app, base = api
    server = Server.from_openapi(DOCUMENT, base_url=base)
    assert call_tool(server, "echo", {"X-Mode": value})["result"] == refused(
        "header parameter 'X-Mode' must be visible ASCII characters (spaces inside), without line breaks or control characters"
    )
    assert app.requests == []
