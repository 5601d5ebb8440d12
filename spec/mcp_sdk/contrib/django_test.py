"""mcp_sdk.contrib.django in a real Django project (spec/mcp_sdk/contrib/django_project: SQLite,
django.contrib.auth sessions, Django REST framework tokens) under gunicorn on 127.0.0.1, driven by
our Client in both eras and by the official Python SDK; ``manage.py mcp`` and ``manage.py check``
as subprocesses (issue 18). Django's settings are process-wide, so Django runs only in subprocesses."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import typing as t
from pathlib import Path

import anyio
import pytest
import requests

from mcp_sdk import Client
from mcp_sdk.client import HTTP, Stdio
from spec.support.http_server import ServerProcess

ROOT = Path(__file__).resolve().parents[3]
MANAGE = str(ROOT / "spec" / "mcp_sdk" / "contrib" / "django_project" / "manage.py")
TIMEOUT = 30.0
GUNICORN = [sys.executable, "-m", "gunicorn", "-k", "gthread", "--threads", "16", "-w", "1", "--graceful-timeout", "1"]
SEED = """
import django; django.setup()
from django.contrib.auth.models import Permission, User
from rest_framework.authtoken.models import Token
from spec.mcp_sdk.contrib.django_project.library.models import Book
ada = User.objects.create_user("ada", password="ada-password")
ada.user_permissions.add(Permission.objects.get(codename="view_book"))
bob = User.objects.create_user("bob", password="bob-password")
Token.objects.create(user=bob, key="bob-token-0123456789abcdef0123456789abcd")
Book.objects.bulk_create([Book(title="Emma", author="Austen"), Book(title="Persuasion", author="Austen"), Book(title="Dune", author="Herbert")])
"""
BOB_TOKEN = "bob-token-0123456789abcdef0123456789abcd"


def environment(database: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "MCP_SPEC_DB": str(database), "PYTHONPATH": str(ROOT), **extra}


def manage(database: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, MANAGE, *args], cwd=ROOT, env=environment(database, **extra), capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("django") / "db.sqlite3"
    migrated = manage(path, "migrate", "--run-syncdb", "-v", "0")
    assert migrated.returncode == 0, migrated.stderr[-3000:]
    seeded = subprocess.run([sys.executable, "-c", SEED], cwd=ROOT, env=environment(path, DJANGO_SETTINGS_MODULE="spec.mcp_sdk.contrib.django_project.settings"), capture_output=True, text=True, timeout=120)
    assert seeded.returncode == 0, seeded.stderr[-3000:]
    return path


class Served(t.NamedTuple):
    url: str
    cookie: str  # ada's Django session and CSRF cookies, signed in through /login
    csrf: str


@pytest.fixture(scope="module")
def served(database: Path) -> t.Iterator[Served]:
    command = [*GUNICORN, "-b", "127.0.0.1:{port}", "spec.mcp_sdk.contrib.django_project.wsgi:application"]
    with ServerProcess(command, path="/mcp/", env={"MCP_SPEC_DB": str(database)}) as process:
        with requests.Session() as browser:
            signed_in = browser.post(process.base + "/login", data={"username": "ada", "password": "ada-password"}, timeout=TIMEOUT)
            assert (signed_in.status_code, signed_in.text) == (200, "signed in")
            cookies = dict(browser.cookies.items())
        assert sorted(cookies) == ["csrftoken", "sessionid"]
        yield Served(process.url, "; ".join(f"{name}={value}" for name, value in cookies.items()), cookies["csrftoken"])


def client(served: Served, **headers: str) -> Client:
    headers = {"Cookie": served.cookie, "X-CSRFToken": served.csrf, **headers}
    return Client(transport=HTTP(url=served.url, headers=headers, timeout=TIMEOUT))


def texts(*values: str) -> list[dict[str, str]]:
    return [{"type": "text", "text": value} for value in values]


WHOAMI = {
    "principal": "ada",
    "scopes": ["library.view_book"],
    "request_user": "ada",
    "agent": "spec-agent",
    "path": "/mcp/",
    "carrier": "django.core.handlers.wsgi.WSGIRequest",
    "in_atomic_block": False,
}


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_our_client_calls_tools_that_use_the_orm_the_settings_the_user_and_the_request(served: Served, mode: str) -> None:
    received: list[dict[str, t.Any]] = []
    with client(served, **{"X-Agent": "spec-agent"}) as ours:
        ours.on_progress(received.append)
        ours.on_log_message(received.append)
        ours.connect(mode=mode)
        ours.log_level = "info"
        assert ours.call_tool("books", {"author": "Austen"})["result"]["content"] == texts("Emma", "Persuasion")
        assert ours.call_tool("setting", {"key": "GREETING"})["result"]["content"] == texts("Hello from Django")
        whoami = ours.call_tool("whoami", {})["result"]
        assert (whoami["isError"], whoami["structuredContent"]) == (False, WHOAMI)
        assert ours.call_tool("shelf_count", {})["result"]["content"] == texts("3 books")
        counted = ours.call_tool("count", {"to": 2}, progress_token="count-1")["result"]
    assert counted["content"] == texts("counted to 2")
    assert received == [
        {"progressToken": "count-1", "progress": 1, "total": 2},
        {"level": "info", "logger": "library", "data": "step 1 for ada"},
        {"progressToken": "count-1", "progress": 2, "total": 2},
        {"level": "info", "logger": "library", "data": "step 2 for ada"},
    ]


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_an_sse_answer_streams_through_django_unbuffered(served: Served, mode: str, tmp_path: Path) -> None:
    release = tmp_path / "release"
    progressed = threading.Event()
    answers: list[dict[str, t.Any]] = []
    with client(served) as ours:
        ours.on_progress(lambda params: progressed.set() if params["progress"] == 3 else None)
        ours.connect(mode=mode)
        arguments = {"to": 3, "release": str(release)}
        caller = threading.Thread(target=lambda: answers.append(ours.call_tool("count", arguments, progress_token=7)))
        caller.start()
        try:
            # The tool waits for the file: its progress can only have come through a stream
            # Django passed on as it was written.
            assert progressed.wait(TIMEOUT)
            assert answers == []
        finally:
            release.touch()
            caller.join(TIMEOUT)
    assert answers[0]["result"]["content"] == texts("counted to 3")


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_the_official_python_sdk_calls_the_same_tools(served: Served, mode: str) -> None:
    from mcp import Client as OfficialClient
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async def main() -> dict[str, t.Any]:
        headers = {"Cookie": served.cookie, "X-CSRFToken": served.csrf, "X-Agent": "spec-agent"}
        http = create_mcp_http_client(headers=headers)
        async with http, OfficialClient(streamable_http_client(served.url, http_client=http), mode=mode) as official:
            listed = await official.list_tools()
            books = await official.call_tool("books", {"author": "Herbert"})
            whoami = await official.call_tool("whoami", {})
            return {
                "tools": [tool.name for tool in listed.tools],
                "books": [block.text for block in books.content],  # type: ignore[union-attr]
                "whoami": whoami.structured_content,
            }

    assert anyio.run(main) == {"tools": ["books", "setting", "whoami", "shelf_count", "count"], "books": ["Dune"], "whoami": WHOAMI}


def test_a_rest_framework_token_signs_in_without_a_csrf_token_and_scopes_follow_permissions(served: Served) -> None:
    with Client(transport=HTTP(url=served.url, headers={"Authorization": f"Token {BOB_TOKEN}"}, timeout=TIMEOUT)) as bob:
        bob.connect()
        whoami = bob.call_tool("whoami", {})["result"]["structuredContent"]
        assert (whoami["principal"], whoami["scopes"]) == ("bob", [])
        assert [tool.name for tool in bob.tools()] == ["books", "setting", "whoami", "count"]  # not shelf_count


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "spec", "version": "1"}},
}
ACCEPT = "application/json, text/event-stream"


def refusal(reason: str) -> dict[str, t.Any]:
    return {
        "jsonrpc": "2.0",
        "id": None,
        "error": {
            "code": -32600,
            "message": f"Forbidden: CSRF check failed ({reason}). This request is signed in by a Django session cookie, so "
            "Django's CSRF protection applies: send the csrftoken cookie's value in an X-Csrftoken header, or authenticate "
            "with an Authorization header (a bearer token) instead of the session cookie",
        },
    }


def test_csrf_applies_to_session_callers_only(served: Served) -> None:
    session_only = "; ".join(part for part in served.cookie.split("; ") if part.startswith("sessionid="))
    cases = {
        "no token": {"Cookie": served.cookie},
        "no csrf cookie": {"Cookie": session_only, "X-CSRFToken": served.csrf},
        "a wrong token": {"Cookie": served.cookie, "X-CSRFToken": "x" * 32},
    }
    answers = {}
    for name, headers in cases.items():
        with requests.post(served.url, json=INITIALIZE, headers={"Accept": ACCEPT, **headers}, timeout=TIMEOUT) as answer:
            answers[name] = (answer.status_code, answer.headers["Content-Type"], answer.json())
    assert answers == {
        "no token": (403, "application/json", refusal("CSRF token missing.")),
        "no csrf cookie": (403, "application/json", refusal("CSRF cookie not set.")),
        "a wrong token": (403, "application/json", refusal("CSRF token from the 'X-Csrftoken' HTTP header incorrect.")),
    }
    with requests.post(served.url, json=INITIALIZE, headers={"Accept": ACCEPT, "Cookie": served.cookie, "X-CSRFToken": served.csrf}, timeout=TIMEOUT) as accepted:
        assert accepted.status_code == 200
    # Anonymous: no CSRF check (nothing to forge), and the transport asks for a sign-in.
    with requests.post(served.url, json=INITIALIZE, headers={"Accept": ACCEPT}, timeout=TIMEOUT) as anonymous:
        assert (anonymous.status_code, anonymous.json()["error"]["message"]) == (401, "Unauthorized: sign in first")
    # A bearer token beside the session cookie: the token decides, no CSRF token needed.
    headers = {"Accept": ACCEPT, "Cookie": served.cookie, "Authorization": f"Token {BOB_TOKEN}"}
    with requests.post(served.url, json=INITIALIZE, headers=headers, timeout=TIMEOUT) as bearer:
        assert bearer.status_code == 200


def test_manage_py_mcp_tools_lists_names_and_descriptions(database: Path) -> None:
    listed = manage(database, "mcp", "tools")
    assert (listed.returncode, listed.stdout, listed.stderr) == (
        0,
        "books\tTitles by an author, from the database.\n"
        "setting\tA value of the project's settings.\n"
        "whoami\tWho is asking, as Django sees it.\n"
        "shelf_count\tHow many books there are (needs library.view_book).\n"
        "count\tCounts, reporting progress and logging each step.\n",
        "",
    )


def test_manage_py_mcp_call_calls_a_tool_in_the_project(database: Path) -> None:
    called = manage(database, "mcp", "call", "books", "author=Austen")
    assert (called.returncode, called.stdout, called.stderr) == (0, "Emma\nPersuasion\n", "")
    unknown = manage(database, "mcp", "call", "nope")
    assert (unknown.returncode, unknown.stdout, unknown.stderr) == (
        1,
        "",
        "CommandError: no tool 'nope'; the server has: books, count, setting, shelf_count, whoami\n",
    )


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_manage_py_mcp_stdio_serves_the_server_with_the_project_loaded(database: Path, mode: str) -> None:
    stdio = Stdio(command=sys.executable, args=[MANAGE, "mcp", "stdio"], cwd=ROOT, env=environment(database), read_timeout=TIMEOUT, close_timeout=2)
    with Client(transport=stdio) as ours:
        ours.connect(mode=mode)
        assert ours.server_info is not None and ours.server_info["name"] == "library"
        assert ours.call_tool("books", {"author": "Austen"})["result"]["content"] == texts("Emma", "Persuasion")
        assert ours.call_tool("setting", {"key": "GREETING"})["result"]["content"] == texts("Hello from Django")


def test_manage_py_mcp_stdio_as_a_desktop_host_runs_it_under_the_official_client(database: Path, tmp_path: Path) -> None:
    """As Claude Desktop's ``mcpServers`` entry runs it: absolute command and script, an
    environment of the host's own plus the entry's ``env`` (the official client passes on only
    HOME, PATH and the like), the working directory elsewhere; the era the official client picks."""
    from mcp import Client as OfficialClient
    from mcp.client.stdio import StdioServerParameters

    entry = StdioServerParameters(command=sys.executable, args=[MANAGE, "mcp", "stdio"], env={"MCP_SPEC_DB": str(database)}, cwd=tmp_path)

    async def main() -> dict[str, t.Any]:
        async with OfficialClient(entry, read_timeout_seconds=TIMEOUT) as official:
            listed = await official.list_tools()
            books = await official.call_tool("books", {"author": "Austen"})
            greeting = await official.call_tool("setting", {"key": "GREETING"})
            return {
                "version": official.protocol_version,
                "tools": [tool.name for tool in listed.tools],
                "books": (books.is_error, [block.text for block in books.content], books.structured_content),  # type: ignore[union-attr]
                "setting": (greeting.is_error, [block.text for block in greeting.content]),  # type: ignore[union-attr]
            }

    assert anyio.run(main) == {
        "version": "2026-07-28",
        "tools": ["books", "setting", "whoami", "shelf_count", "count"],
        "books": (False, ["Emma", "Persuasion"], None),
        "setting": (False, ["Hello from Django"]),
    }


E001 = (
    "?: (mcp_sdk.E001) URL pattern '{route}' serves a StreamableHTTPTransport as a Django view; a transport is a WSGI "
    "application (environ, start_response), not a view (request).\n"
    '\tHINT: Route it through mcp_sdk.contrib.django: path("mcp/", include("mcp_sdk.contrib.django.urls")), or '
    'path("mcp/", mcp_view(server)) for a server of your own (from mcp_sdk.contrib.django import mcp_view).\n'
)


def test_the_system_check_names_the_fix_for_a_transport_mounted_as_a_view(database: Path) -> None:
    fine = manage(database, "check")
    assert (fine.returncode, fine.stdout, fine.stderr) == (0, "System check identified no issues (0 silenced).\n", "")
    wrong = manage(database, "check", MCP_SPEC_URLCONF="spec.mcp_sdk.contrib.django_project.wrong_urls")
    assert (wrong.returncode, wrong.stdout) == (1, "")
    assert wrong.stderr == (
        "SystemCheckError: System check identified some issues:\n\nERRORS:\n"
        + E001.format(route="api/")
        + E001.format(route="mcp")
        + "\nSystem check identified 2 issues (0 silenced).\n"
    )


NOT_A_VIEW = (
    "StreamableHTTPTransport is a WSGI application, called with (environ, start_response), not a view called "
    'with a request. In Django, route it through mcp_sdk.contrib.django: path("mcp/", include("mcp_sdk.contrib.django.urls")), '
    'or path("mcp/", mcp_view(server)) for a server of your own; in Flask, serve it with mcp_sdk.contrib.flask: MCP(app, server=server)'
)
MOUNTED_AS_A_VIEW = """
import django; django.setup()
from django.test import Client
browser = Client(enforce_csrf_checks=True)  # as a browser-less MCP client: no CSRF cookie, no token
for path in ("/mcp", "/api/"):
    try:
        browser.post(path, data=b"{}", content_type="application/json")
    except TypeError as error:
        print(path, error)
"""


def test_a_transport_mounted_as_a_view_names_the_fix_when_called(database: Path) -> None:
    """Without the system check (gunicorn runs none): ``path("mcp", transport)`` no longer stops at
    Django's "CSRF cookie not set", and neither mount at a ``TypeError`` about ``start_response``."""
    env = environment(database, DJANGO_SETTINGS_MODULE="spec.mcp_sdk.contrib.django_project.settings", MCP_SPEC_URLCONF="spec.mcp_sdk.contrib.django_project.wrong_urls")
    called = subprocess.run([sys.executable, "-c", MOUNTED_AS_A_VIEW], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert (called.returncode, called.stdout) == (0, f"/mcp {NOT_A_VIEW}\n/api/ {NOT_A_VIEW}\n"), called.stderr[-3000:]


EXAMPLE = ROOT / "examples" / "django_library"
EXAMPLE_SEED = """
import django; django.setup()
from django.contrib.auth.models import User
from library.models import Book
ada = User.objects.create_user("ada", password="lovelace")
Book.objects.create(title="Notes", owner=ada)
Book.objects.create(title="Sketch of the Analytical Engine", owner=ada)
User.objects.create_user("bob", password="babbage")
"""


def test_the_django_guides_project_is_examples_django_library_and_serves_its_users(tmp_path: Path) -> None:
    """The Django guide's whole project (docs/topics/django.md) is examples/django_library/, file for
    file, and serves each signed-in user their own books under real gunicorn."""
    from spec.docs.blocks import python_blocks

    blocks = {fragment: code for _, fragment, code in python_blocks("docs/topics/django.md") if fragment and fragment.startswith("django-")}
    files = {
        "django-settings": "settings.py",
        "django-urls": "urls.py",
        "django-models": "library/models.py",
        "django-mcp": "library/mcp.py",
        "django-rest": "library/rest.py",
    }
    assert blocks == {fragment: (EXAMPLE / path).read_text(encoding="utf-8") for fragment, path in files.items()}

    env = {"LIBRARY_DB": str(tmp_path / "db.sqlite3")}
    full = {**os.environ, **env, "PYTHONPATH": str(ROOT), "DJANGO_SETTINGS_MODULE": "settings"}
    for command in ([sys.executable, "manage.py", "migrate", "--run-syncdb", "-v", "0"], [sys.executable, "-c", EXAMPLE_SEED]):
        completed = subprocess.run(command, cwd=EXAMPLE, env=full, capture_output=True, text=True, timeout=120)
        assert completed.returncode == 0, completed.stderr[-3000:]
    with ServerProcess([*GUNICORN, "-b", "127.0.0.1:{port}", "wsgi:application"], cwd=EXAMPLE, path="/mcp/", env=env) as process:
        titles = {}
        for user, password in (("ada", "lovelace"), ("bob", "babbage")):
            with requests.Session() as browser:
                assert browser.post(process.base + "/login", data={"username": user, "password": password}, timeout=TIMEOUT).text == "signed in"
                cookies = dict(browser.cookies.items())
            headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()), "X-CSRFToken": cookies["csrftoken"]}
            with Client(transport=HTTP(url=process.url, headers=headers, timeout=TIMEOUT)) as ours:
                ours.connect()
                titles[user] = ours.call_tool("my_books")["result"]["content"]
    assert titles == {"ada": texts("Notes", "Sketch of the Analytical Engine"), "bob": []}
