"""mcp_sdk.contrib.flask.tools_from_routes in a real Flask app (spec/mcp_sdk/contrib/flask_routes_app.py:
a ``shelf`` blueprint of JSON routes on Flask-SQLAlchemy and Flask-Login) under gunicorn on
127.0.0.1: the blueprint's views as tools, called through the app in-process with the MCP
request's session and headers, driven by our Client in both eras and by the official Python
client (issue 21 item 2)."""

from __future__ import annotations

import typing as t

import anyio
import pytest
import requests

from mcp_sdk import Client
from mcp_sdk.client import HTTP
from spec.mcp_sdk.contrib.flask_gunicorn_test import GUNICORN, TIMEOUT
from spec.support.http_server import ServerProcess

TOOLS = ["shelf_list_books", "shelf_show_book", "shelf_add_book", "shelf_whoami"]
#: shelf_show_book's tools/list entry: the URL argument, typed by the view's hint, required.
SHOW_BOOK = {
    "name": "shelf_show_book",
    "description": "One book, by its id.",
    "inputSchema": {"type": "object", "properties": {"book_id": {"type": "integer"}}, "required": ["book_id"]},
    "annotations": {"readOnlyHint": True},
}
BOOKS = [{"id": 1, "title": "Emma", "author": "Austen"}, {"id": 2, "title": "Persuasion", "author": "Austen"}, {"id": 3, "title": "Dune", "author": "Herbert"}]
REFUSED = {"status": 403, "detail": {"error": "only the librarian adds books"}}


class Served(t.NamedTuple):
    url: str
    cookies: dict[str, str]  # username -> that user's Flask session cookie, signed in through /login


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> t.Iterator[Served]:
    database = tmp_path_factory.mktemp("flask_routes") / "shelf.sqlite3"
    app = f"spec.mcp_sdk.contrib.flask_routes_app:create_app('sqlite:///{database}')"
    with ServerProcess([*GUNICORN, "-b", "127.0.0.1:{port}", app]) as process:
        cookies = {}
        for username in ("ada", "bob"):
            with requests.Session() as browser:
                signed_in = browser.post(process.base + "/login", data={"username": username}, timeout=TIMEOUT)
                assert (signed_in.status_code, signed_in.text) == (200, "signed in")
                cookies[username] = "; ".join(f"{name}={value}" for name, value in browser.cookies.items())
        yield Served(process.url, cookies)


def client(served: Served, user: str | None) -> Client:
    headers = {"X-Agent": f"agent-of-{user}"}
    if user is not None:
        headers["Cookie"] = served.cookies[user]
    return Client(transport=HTTP(url=served.url, headers=headers, timeout=TIMEOUT))


def result(response: dict[str, t.Any]) -> tuple[bool, t.Any]:
    answer = response["result"]
    return answer["isError"], answer.get("structuredContent")


def test_the_blueprints_views_as_tools_with_the_callers_session(served: Served) -> None:
    with client(served, "ada") as ada, client(served, "bob") as bob, client(served, None) as anonymous:
        ada.connect(mode="legacy")
        bob.connect(mode="modern")
        anonymous.connect()
        assert ada.list_tools().tools[1].to_dict() == SHOW_BOOK
        assert [tool.name for tool in bob.tools()] == TOOLS  # /login is a route too, but not listed
        assert result(anonymous.call_tool("shelf_list_books", {"author": "Austen"})) == (False, {"result": BOOKS[:2]})
        assert result(bob.call_tool("shelf_show_book", {"book_id": 3})) == (False, BOOKS[2])
        assert result(bob.call_tool("shelf_show_book", {"book_id": 99})) == (True, {"status": 404, "detail": "Not Found"})
        # The route decides: ada may add a book; bob (signed in) and an anonymous caller may not.
        assert result(bob.call_tool("shelf_add_book", {"title": "Kindred", "author": "Butler"})) == (True, REFUSED)
        assert result(anonymous.call_tool("shelf_add_book", {"title": "Kindred", "author": "Butler"})) == (True, REFUSED)
        added = result(ada.call_tool("shelf_add_book", {"title": "Kindred", "author": "Butler"}))
        assert added == (False, {"id": 4, "title": "Kindred", "author": "Butler", "added_by": "ada"})
        assert result(bob.call_tool("shelf_list_books", {}))[1] == {"result": [*BOOKS, {"id": 4, "title": "Kindred", "author": "Butler"}]}
        # The route's request carries the MCP request's session and headers, at the route's own path.
        assert result(bob.call_tool("shelf_whoami", {})) == (False, {"user": "bob", "agent": "agent-of-bob", "path": "/api/whoami", "endpoint": "shelf.whoami"})
        assert result(anonymous.call_tool("shelf_whoami", {}))[1]["user"] is None
    # The route over HTTP answers what the tool did.
    listed = requests.get(served.url.removesuffix("/mcp") + "/api/books/4", timeout=TIMEOUT)
    assert (listed.status_code, listed.json()) == (200, {"id": 4, "title": "Kindred", "author": "Butler"})


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_the_official_python_client(served: Served, mode: str) -> None:
    from mcp import Client as OfficialClient
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async def main() -> dict[str, t.Any]:
        http = create_mcp_http_client(headers={"Cookie": served.cookies["bob"], "X-Agent": "official"})
        async with http, OfficialClient(streamable_http_client(served.url, http_client=http), mode=mode) as official:
            listed = await official.list_tools()
            shown = await official.call_tool("shelf_show_book", {"book_id": 1})
            refused = await official.call_tool("shelf_add_book", {"title": "Beloved", "author": "Morrison"})
            whoami = await official.call_tool("shelf_whoami", {})
            return {
                "tools": [tool.name for tool in listed.tools],
                "schema": listed.tools[1].input_schema,
                "shown": (shown.is_error, shown.structured_content),
                "refused": (refused.is_error, refused.structured_content),
                "whoami": whoami.structured_content,
            }

    assert anyio.run(main) == {
        "tools": TOOLS,
        "schema": SHOW_BOOK["inputSchema"],
        "shown": (False, BOOKS[0]),
        "refused": (True, REFUSED),
        "whoami": {"user": "bob", "agent": "official", "path": "/api/whoami", "endpoint": "shelf.whoami"},
    }


def in_process_app() -> t.Any:
    from flask import Flask, abort, request

    app = Flask(__name__)

    @app.route("/notes/<int:number>", methods=["GET", "PUT"])
    def note(number):  # no hint: the converter types it
        if number > 9:
            abort(404)
        if request.method == "PUT":
            return {"number": number, "text": request.get_json()["text"], "mode": request.args.get("mode")}
        return [number, request.args.get("mode")]

    @app.get("/files/<path:name>")
    def file(name: str) -> tuple[str, int]:
        """A file's text.

        :param name: its path (a parameter section is not part of the description).
        """
        return f"no {name}", 404 if name != "readme" else 200

    @app.get("/hidden")
    def hidden() -> str:
        return "not listed"

    return app


def call(tool: t.Any, arguments: dict[str, t.Any]) -> dict[str, t.Any]:
    from mcp_sdk import Server

    server = Server(name="routes", tools=[tool])
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool.tool_name, "arguments": arguments}}
    answer: dict[str, t.Any] = server.handle(request)["result"]
    return answer


def test_names_schemas_and_answers_in_process() -> None:
    from mcp_sdk.contrib.flask import tools_from_routes

    get, put, file = tools_from_routes(in_process_app(), endpoints=["note", "file"], prefix="my", input_schemas={"note": {"properties": {"mode": {"type": "string"}}}})
    assert [tool.to_dict() for tool in (get, put, file)] == [
        {
            "name": "my_note_get",
            "description": "GET /notes/<int:number>",
            "inputSchema": {"type": "object", "properties": {"number": {"type": "integer"}, "mode": {"type": "string"}}, "required": ["number"]},
            "annotations": {"readOnlyHint": True},
        },
        {
            "name": "my_note_put",
            "description": "PUT /notes/<int:number>",
            "inputSchema": {"type": "object", "properties": {"number": {"type": "integer"}, "mode": {"type": "string"}}, "required": ["number"]},
        },
        {
            "name": "my_file",
            "description": "A file's text.",  # the docstring's :param: describes the argument, as for @server.tool
            "inputSchema": {
                "type": "object",
                "properties": {"name": {"type": "string", "description": "its path (a parameter section is not part of the description)."}},
                "required": ["name"],
            },
            "annotations": {"readOnlyHint": True},
        },
    ]
    # GET: the other arguments as the query string; a JSON list as {"result": ...}.
    assert call(get, {"number": 3, "mode": "fast"}) == {
        "content": [{"type": "text", "text": '[3, "fast"]'}],
        "isError": False,
        "structuredContent": {"result": [3, "fast"]},
    }
    # PUT: the other arguments as the JSON body (mode included: the schema's properties all go there).
    assert call(put, {"number": 4, "text": "hi"})["structuredContent"] == {"number": 4, "text": "hi", "mode": None}
    # An HTML error page's detail is the status phrase; a text answer is text; a text 4xx its text.
    assert call(get, {"number": 12})["structuredContent"] == {"status": 404, "detail": "Not Found"}
    assert call(file, {"name": "readme"}) == {"content": [{"type": "text", "text": "no readme"}], "isError": False}
    assert call(file, {"name": "docs/a b.txt"})["structuredContent"] == {"status": 404, "detail": "no docs/a b.txt"}


def test_nothing_is_exposed_unless_listed() -> None:
    from mcp_sdk.contrib.flask import tools_from_routes

    app = in_process_app()
    with pytest.raises(ValueError, match=r"exposes only what is listed: give endpoints= or blueprints="):
        tools_from_routes(app)
    with pytest.raises(ValueError, match=r"has no endpoint or blueprint 'nope', 'shelf'"):
        tools_from_routes(app, endpoints=["note", "nope"], blueprints=["shelf"])
    assert [tool.tool_name for tool in tools_from_routes(app, endpoints=["hidden"])] == ["hidden"]
