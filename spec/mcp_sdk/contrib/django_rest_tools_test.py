"""mcp_sdk.contrib.django.rest_tools in the spec Django project under gunicorn: the library's
Django REST framework viewset (reviews) and an APIView (a book count) as tools of a second server
at ``/api-mcp/``, called in-process as the MCP caller's Django user, so DRF's permissions apply;
driven by our Client and by the official Python SDK (issue 21 item 2)."""

from __future__ import annotations

import json
import subprocess
import sys
import typing as t
from pathlib import Path

import anyio
import pytest
import requests

from mcp_sdk import Client
from mcp_sdk.client import HTTP
from spec.mcp_sdk.contrib.django_test import GUNICORN, ROOT, TIMEOUT, environment, manage
from spec.support.http_server import ServerProcess

SEED = """
import django; django.setup()
from django.contrib.auth.models import Permission, User
from rest_framework.authtoken.models import Token
from spec.mcp_sdk.contrib.django_project.library.models import Book
ada = User.objects.create_user("ada", password="ada-password")
ada.user_permissions.add(Permission.objects.get(codename="add_review"))
bob = User.objects.create_user("bob", password="bob-password")
Token.objects.create(user=bob, key="bob-token-0123456789abcdef0123456789abcd")
Book.objects.bulk_create([Book(title="Emma", author="Austen"), Book(title="Persuasion", author="Austen"), Book(title="Dune", author="Herbert")])
"""
BOB = {"Authorization": "Token bob-token-0123456789abcdef0123456789abcd"}
TOOLS = ["review_list", "review_retrieve", "review_create", "book_count_get"]
#: review_create's tools/list entry: the serializer's writable fields (reviewer is read-only, id too).
REVIEW_CREATE = {
    "name": "review_create",
    "description": "Create a review.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "book": {"type": "integer"},
            "rating": {"enum": [1, 2, 3, 4, 5]},
            "text": {"type": "string", "maxLength": 500, "description": "What the reader thought."},
        },
        "required": ["book", "rating"],
    },
}
REVIEW_LIST_SCHEMA = {
    "type": "object",
    "properties": {
        "search": {"type": "string", "description": "A search term."},
        "page": {"type": "integer", "description": "A page number within the paginated result set."},
    },
}


class Served(t.NamedTuple):
    base: str
    url: str
    ada: dict[str, str]  # ada's session and CSRF cookies, signed in through /login, and the CSRF header


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> t.Iterator[Served]:
    database = tmp_path_factory.mktemp("django_rest") / "db.sqlite3"
    migrated = manage(database, "migrate", "--run-syncdb", "-v", "0")
    assert migrated.returncode == 0, migrated.stderr[-3000:]
    settings = "spec.mcp_sdk.contrib.django_project.settings"
    seeded = subprocess.run([sys.executable, "-c", SEED], cwd=ROOT, env=environment(database, DJANGO_SETTINGS_MODULE=settings), capture_output=True, text=True, timeout=120)
    assert seeded.returncode == 0, seeded.stderr[-3000:]
    command = [*GUNICORN, "-b", "127.0.0.1:{port}", "spec.mcp_sdk.contrib.django_project.wsgi:application"]
    with ServerProcess(command, path="/api-mcp/", env={"MCP_SPEC_DB": str(database)}) as process:
        with requests.Session() as browser:
            signed_in = browser.post(process.base + "/login", data={"username": "ada", "password": "ada-password"}, timeout=TIMEOUT)
            assert (signed_in.status_code, signed_in.text) == (200, "signed in")
            cookies = dict(browser.cookies.items())
        cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
        yield Served(process.base, process.url, {"Cookie": cookie, "X-CSRFToken": cookies["csrftoken"]})


def client(served: Served, headers: dict[str, str]) -> Client:
    return Client(transport=HTTP(url=served.url, headers=headers, timeout=TIMEOUT))


def result(response: dict[str, t.Any]) -> tuple[bool, t.Any]:
    answer = response["result"]
    return answer["isError"], answer.get("structuredContent")


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_a_viewset_and_an_api_view_as_tools_with_permissions_applied(served: Served, mode: str, tmp_path: Path) -> None:
    with client(served, served.ada) as ada, client(served, BOB) as bob:
        ada.connect(mode=mode)
        bob.connect(mode=mode)
        listed = {tool.name: tool for tool in ada.tools()}
        assert list(listed) == TOOLS
        assert listed["review_create"].to_dict() == REVIEW_CREATE
        assert listed["review_list"].annotations == {"readOnlyHint": True}
        assert listed["review_list"].input_schema == REVIEW_LIST_SCHEMA
        assert listed["review_retrieve"].input_schema == {"type": "object", "properties": {"pk": {"type": "integer"}}, "required": ["pk"]}

        # ada holds library.add_review: create goes through the serializer and perform_create.
        before = result(bob.call_tool("review_list", {}))[1]["count"]
        created = [result(ada.call_tool("review_create", {"book": 1, "rating": rating, "text": f"{mode} {rating}"})) for rating in (5, 4, 3)]
        first = created[0][1]["id"]
        assert created == [(False, {"id": first + index, "book": 1, "rating": 5 - index, "text": f"{mode} {5 - index}", "reviewer": "ada"}) for index in range(3)]
        # bob (a DRF token, no permissions) reads but may not write: DRF's 403, as an isError result.
        assert result(bob.call_tool("review_create", {"book": 1, "rating": 1})) == (True, {"status": 403, "detail": "You do not have permission to perform this action."})
        assert result(bob.call_tool("review_retrieve", {"pk": first})) == (False, created[0][1])
        assert result(bob.call_tool("review_retrieve", {"pk": 999})) == (True, {"status": 404, "detail": "No Review matches the given query."})
        assert result(ada.call_tool("review_create", {"book": 999, "rating": 2})) == (True, {"status": 400, "detail": {"book": ['Invalid pk "999" - object does not exist.']}})
        searched = result(bob.call_tool("review_list", {"search": mode}))[1]
        assert searched == {
            "count": 3,
            "next": f"{served.base}/api/reviews/?page=2&search={mode}",
            "previous": None,
            "results": [created[0][1], created[1][1]],
        }
        assert result(bob.call_tool("review_list", {"search": mode, "page": 2}))[1]["results"] == [created[2][1]]
        assert result(bob.call_tool("review_list", {}))[1]["count"] == before + 3
        assert result(bob.call_tool("book_count_get", {"author": "Austen"})) == (False, {"books": 2, "asked_by": "bob"})
        assert result(ada.call_tool("book_count_get", {})) == (False, {"books": 3, "asked_by": "ada"})
    # The same viewset over HTTP answers what the tool did.
    over_http = requests.get(f"{served.base}/api/reviews/{first}/", headers=BOB, timeout=TIMEOUT)
    assert (over_http.status_code, over_http.json()) == (200, created[0][1])


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_the_official_python_sdk_sees_the_schema_and_the_refusal(served: Served, mode: str) -> None:
    from mcp import Client as OfficialClient
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async def main() -> dict[str, t.Any]:
        http = create_mcp_http_client(headers=BOB)
        async with http, OfficialClient(streamable_http_client(served.url, http_client=http), mode=mode) as official:
            listed = await official.list_tools()
            refused = await official.call_tool("review_create", {"book": 2, "rating": 3})
            counted = await official.call_tool("book_count_get", {})
            return {
                "tools": [tool.name for tool in listed.tools],
                "create": listed.tools[2].input_schema,
                "refused": (refused.is_error, refused.structured_content),
                "counted": (counted.is_error, counted.structured_content),
            }

    assert anyio.run(main) == {
        "tools": TOOLS,
        "create": REVIEW_CREATE["inputSchema"],
        "refused": (True, {"status": 403, "detail": "You do not have permission to perform this action."}),
        "counted": (False, {"books": 3, "asked_by": "bob"}),
    }


SCHEMA_PROBE = """
import json, django; django.setup()
from rest_framework import serializers
from mcp_sdk.contrib.django.serializer_schema import serializer_schema
from spec.mcp_sdk.contrib.django_project.library.models import Book

class Author(serializers.Serializer):
    name = serializers.CharField(max_length=80)

class Every(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    flag = serializers.BooleanField(default=False)
    count = serializers.IntegerField(min_value=0, max_value=10)
    ratio = serializers.FloatField(required=False)
    price = serializers.DecimalField(max_digits=5, decimal_places=2)
    email = serializers.EmailField(required=False, allow_blank=True)
    site = serializers.URLField(required=False)
    key = serializers.UUIDField(required=False)
    slug = serializers.SlugField(required=False)
    code = serializers.RegexField(r"^[A-Z]{3}$", required=False)
    when = serializers.DateTimeField(allow_null=True)
    day = serializers.DateField(required=False)
    size = serializers.ChoiceField(choices=["s", "m", "l"], help_text="The size.")
    colours = serializers.MultipleChoiceField(choices=["red", "blue"], required=False)
    tags = serializers.ListField(child=serializers.CharField(), max_length=3, required=False)
    extra = serializers.JSONField(required=False)
    book = serializers.PrimaryKeyRelatedField(queryset=Book.objects.all())
    books = serializers.PrimaryKeyRelatedField(queryset=Book.objects.all(), many=True, required=False)
    author = Author()
    co_authors = Author(many=True, required=False)
    hidden = serializers.HiddenField(default="x")
    shout = serializers.SerializerMethodField()

print(json.dumps({"create": serializer_schema(Every()), "partial": serializer_schema(Every(), partial=True)}))
"""
NAME = {"type": "string", "minLength": 1, "maxLength": 80}
#: What serializer_schema makes of SCHEMA_PROBE's serializer: every kind of field the module maps.
EVERY_PROPERTY = {
    "flag": {"type": "boolean", "default": False},
    "count": {"type": "integer", "minimum": 0, "maximum": 10},
    "ratio": {"type": "number"},
    "price": {"type": ["number", "string"]},
    "email": {"type": "string", "format": "email"},  # allow_blank: no minLength
    "site": {"type": "string", "format": "uri", "minLength": 1},
    "key": {"type": "string", "format": "uuid"},
    "slug": {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$", "minLength": 1},
    "code": {"type": "string", "minLength": 1, "pattern": "^[A-Z]{3}$"},
    "when": {"type": ["string", "null"], "format": "date-time"},
    "day": {"type": "string", "format": "date"},
    "size": {"enum": ["s", "m", "l"], "description": "The size."},
    "colours": {"type": "array", "items": {"enum": ["red", "blue"]}, "uniqueItems": True},
    "tags": {"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": 3},
    "extra": {},
    "book": {"type": "integer"},
    "books": {"type": "array", "items": {"type": "integer"}},
    "author": {"type": "object", "properties": {"name": NAME}, "required": ["name"]},
    "co_authors": {"type": "array", "items": {"type": "object", "properties": {"name": NAME}, "required": ["name"]}},
}


def test_serializer_fields_as_json_schema(tmp_path: Path) -> None:
    """id (read-only), hidden and the method field are not input; required follows DRF; partial requires nothing."""
    settings = "spec.mcp_sdk.contrib.django_project.settings"
    env = environment(tmp_path / "unused.sqlite3", DJANGO_SETTINGS_MODULE=settings)
    probed = subprocess.run([sys.executable, "-c", SCHEMA_PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert probed.returncode == 0, probed.stderr[-3000:]
    assert json.loads(probed.stdout) == {
        "create": {"type": "object", "properties": EVERY_PROPERTY, "required": ["count", "price", "when", "size", "book", "author"]},
        "partial": {"type": "object", "properties": EVERY_PROPERTY},
    }


API_VIEW_PROBE = """
import json, django; django.setup()
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView
from mcp_sdk import Server
from mcp_sdk.contrib.django import tools_from_api_view

class Note(serializers.Serializer):
    text = serializers.CharField(max_length=20)

    def validate_text(self, value):
        if value == "nope":
            raise serializers.ValidationError("Not that.")
        return value

class ShelfNoteView(APIView):
    permission_classes = [permissions.AllowAny]
    serializer_class = Note

    def get(self, request, shelf):
        return Response({"shelf": shelf, "q": request.query_params.get("q"), "user": str(request.user)})

    def post(self, request, shelf):
        note = Note(data=request.data)
        note.is_valid(raise_exception=True)
        return Response({"shelf": shelf, **note.validated_data}, status=201)

server = Server(name="probe")
for tool in tools_from_api_view(ShelfNoteView, methods=["GET", "post"], path="/shelves/", path_parameters={"shelf": {"type": "integer"}}):
    server.add_tool(tool)

from mcp_sdk.contrib.django import tools_from_viewset
from spec.mcp_sdk.contrib.django_project.library.api import ReviewViewSet
refusals = []
for make in (lambda: tools_from_viewset(ReviewViewSet, actions=["list", "publish"]), lambda: tools_from_api_view(ShelfNoteView, methods=["delete"])):
    try:
        make()
    except ValueError as error:
        refusals.append(str(error))

def call(name, arguments):
    return server.handle({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}})["result"]

print(json.dumps({
    "tools": [tool.to_dict() for tool in server.tools.values()],
    "get": call("shelf_note_get", {"shelf": 3, "q": "emma"}),
    "post": call("shelf_note_post", {"shelf": 3, "text": "hello"}),
    "invalid": call("shelf_note_post", {"shelf": 3, "text": "nope"})["structuredContent"],
    "refusals": refusals,
}))
"""


def test_an_api_views_methods_as_tools_in_process(tmp_path: Path) -> None:
    """Path parameters as given, the serializer for the body, the query string for GET; without a
    request (stdio, ``manage.py mcp``) the view runs as AnonymousUser. An action or method the view
    does not have is refused when the tools are made."""
    settings = "spec.mcp_sdk.contrib.django_project.settings"
    env = environment(tmp_path / "unused.sqlite3", DJANGO_SETTINGS_MODULE=settings)
    probed = subprocess.run([sys.executable, "-c", API_VIEW_PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert probed.returncode == 0, probed.stderr[-3000:]
    assert json.loads(probed.stdout) == {
        "tools": [
            {
                "name": "shelf_note_get",
                "description": "GET /shelves/.",
                "inputSchema": {"type": "object", "properties": {"shelf": {"type": "integer"}}, "required": ["shelf"]},
                "annotations": {"readOnlyHint": True},
            },
            {
                "name": "shelf_note_post",
                "description": "POST /shelves/.",
                "inputSchema": {
                    "type": "object",
                    "properties": {"shelf": {"type": "integer"}, "text": {"type": "string", "minLength": 1, "maxLength": 20}},
                    "required": ["shelf", "text"],
                },
            },
        ],
        "get": {
            "content": [{"type": "text", "text": '{"shelf": 3, "q": "emma", "user": "AnonymousUser"}'}],
            "isError": False,
            "structuredContent": {"shelf": 3, "q": "emma", "user": "AnonymousUser"},
        },
        "post": {
            "content": [{"type": "text", "text": '{"shelf": 3, "text": "hello"}'}],
            "isError": False,
            "structuredContent": {"shelf": 3, "text": "hello"},
        },
        "invalid": {"status": 400, "detail": {"text": ["Not that."]}},
        "refusals": [
            "ReviewViewSet has no action 'publish' to expose (one of list, retrieve, create, update, partial_update, destroy it defines)",
            "ShelfNoteView does not handle DELETE",
        ],
    }
