"""``ResponseCache`` over real HTTP, both eras: a cached answer never reaches a caller who would have
been answered differently. The same user with fewer scopes, another tenant claim, an anonymous
caller the host tells apart by its own login: each gets its own answer; what is the same for all
(lists of anonymous callers, a public resource, a ``vary`` the operator gives) is still shared."""

from __future__ import annotations

import contextlib
import typing as t

import pytest

from mcp_sdk import Resource, Server, Tool
from mcp_sdk.server.auth import Principal
from mcp_sdk.server.middleware import ResponseCache
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.http_client import Client, request
from spec.support.http_server import LiveServer
from spec.support.modern_http import ModernHTTP

PAYROLL = "report://payroll"


class RunPayroll(Tool):
    """Runs the payroll (admins only)."""

    tool_name = "run_payroll"
    required_scopes = ("admin",)
    input_schema = {"properties": {}}

    @classmethod
    def call(cls) -> str:
        return "done"


def signed_in(environ: dict[str, t.Any]) -> Principal | None:
    """The host's login (as Django's permissions become scopes): X-Test-User, X-Test-Scopes, X-Test-Tenant."""
    user = environ.get("HTTP_X_TEST_USER")
    if not user:
        return None
    claims = {"sub": user, "tenant": environ.get("HTTP_X_TEST_TENANT", "acme"), "jti": environ.get("HTTP_X_TEST_JTI", "1")}
    return Principal(subject=user, client_id="app", issuer="https://issuer", scopes=environ.get("HTTP_X_TEST_SCOPES", ""), claims=claims)


def build(cache: ResponseCache) -> tuple[Server, list[str]]:
    server = Server(name="cached", version="1.0.0", tools=[RunPayroll])
    server.add_resource(Resource(uri=PAYROLL, name="payroll"))
    server.add_resource(Resource(uri="report://tenant", name="tenant"))
    server.add_resource(Resource(uri="page://greeting", name="greeting"))
    server.add_resource(Resource(uri="page://news", name="news", cache_scope="public"))
    reads: list[str] = []

    @server.resources_read_handler
    def read(params: dict[str, t.Any], server_context: t.Any) -> list[dict[str, t.Any]]:
        uri = params["uri"]
        reads.append(uri)
        auth = server_context.auth
        if uri == PAYROLL:  # the handler's own check: admins see the figures
            text = "SALARIES-SECRET" if auth.has_scopes(["admin"]) else "salaries: ask an admin"
        elif uri == "report://tenant":
            text = f"ledger of {auth.claims['tenant']}"
        elif uri == "page://greeting":  # the host's own login (a cookie, say), which the SDK cannot see
            text = f"hello {server_context.request.headers.get('X-Host-User', 'stranger')}"
        else:
            text = f"news {len(reads)}"
        return [{"uri": uri, "text": text}]

    server.add_middleware(cache)
    return server, reads


@contextlib.contextmanager
def serving(cache: ResponseCache, authenticate: t.Any = None) -> t.Iterator[tuple[str, list[str]]]:
    """The server over a live HTTP transport: its URL, and the URIs its read handler was asked for."""
    server, reads = build(cache)
    transport = StreamableHTTPTransport(server, authenticate=authenticate)
    with LiveServer(transport, closeables=[transport]) as live:
        yield live.url, reads


@pytest.fixture
def served() -> t.Iterator[tuple[str, list[str]]]:
    """Callers signed in by the host (``authenticate=``)."""
    with serving(ResponseCache(ttl=600.0), signed_in) as found:
        yield found


@pytest.fixture
def anonymous() -> t.Iterator[tuple[str, list[str]]]:
    """No authentication: the host's login, if any, is its own business (a cookie the SDK cannot see)."""
    with serving(ResponseCache(ttl=600.0)) as found:
        yield found


def headers(user: str | None, scopes: str = "", **more: str) -> dict[str, str]:
    found = {"X-Test-User": user, "X-Test-Scopes": scopes} if user else {}
    return {**found, **more}


def legacy(url: str, sent: dict[str, str], method: str, params: dict[str, t.Any]) -> dict[str, t.Any]:
    """One request in a fresh 2025 session whose every POST carries ``sent``."""
    with Client(url) as client:
        client.http.headers.update(sent)
        client.initialize()
        (response,) = client.call(request(method, params, id=7))
        return t.cast("dict[str, t.Any]", response)


def modern(url: str, sent: dict[str, str], method: str, params: dict[str, t.Any]) -> dict[str, t.Any]:
    with ModernHTTP(url) as client:
        client.http.headers.update(sent)
        return client.response(method, params)


def tool_names(response: dict[str, t.Any]) -> list[str]:
    return [tool["name"] for tool in response["result"]["tools"]]


def text(response: dict[str, t.Any]) -> str:
    return str(response["result"]["contents"][0]["text"])


@pytest.mark.parametrize("era", [legacy, modern], ids=["2025", "2026-07-28"])
class TestAnswersPerCaller:
    def test_a_token_with_fewer_scopes_never_gets_what_the_admin_token_was_answered(self, served: tuple[str, list[str]], era: t.Any) -> None:
        url, reads = served
        admin, reader = headers("alice", "read admin"), headers("alice", "read")
        assert text(era(url, admin, "resources/read", {"uri": PAYROLL})) == "SALARIES-SECRET"
        assert text(era(url, reader, "resources/read", {"uri": PAYROLL})) == "salaries: ask an admin"
        assert tool_names(era(url, admin, "tools/list", {})) == ["run_payroll"]
        assert tool_names(era(url, reader, "tools/list", {})) == []
        assert text(era(url, admin, "resources/read", {"uri": PAYROLL})) == "SALARIES-SECRET"  # the admin's entry still serves
        assert text(era(url, reader, "resources/read", {"uri": PAYROLL})) == "salaries: ask an admin"
        assert reads == [PAYROLL, PAYROLL]

    def test_another_tenant_claim_of_the_same_user_is_its_own_entry_and_a_new_token_of_the_same_grant_is_not(
        self, served: tuple[str, list[str]], era: t.Any
    ) -> None:
        url, reads = served
        acme, globex = headers("alice", "read", **{"X-Test-Tenant": "acme"}), headers("alice", "read", **{"X-Test-Tenant": "globex"})
        assert text(era(url, acme, "resources/read", {"uri": "report://tenant"})) == "ledger of acme"
        assert text(era(url, globex, "resources/read", {"uri": "report://tenant"})) == "ledger of globex"
        renewed = {**acme, "X-Test-JTI": "2"}  # the next token of the same grant: only jti differs
        assert text(era(url, renewed, "resources/read", {"uri": "report://tenant"})) == "ledger of acme"
        assert reads == ["report://tenant", "report://tenant"]

    def test_anonymous_reads_are_not_shared_unless_public_and_anonymous_lists_are(self, anonymous: tuple[str, list[str]], era: t.Any) -> None:
        url, reads = anonymous
        assert text(era(url, {"X-Host-User": "carol"}, "resources/read", {"uri": "page://greeting"})) == "hello carol"
        assert text(era(url, {"X-Host-User": "dave"}, "resources/read", {"uri": "page://greeting"})) == "hello dave"
        assert text(era(url, {"X-Host-User": "carol"}, "resources/read", {"uri": "page://news"})) == "news 3"
        assert text(era(url, {"X-Host-User": "dave"}, "resources/read", {"uri": "page://news"})) == "news 3"  # public: shared
        assert reads == ["page://greeting", "page://greeting", "page://news"]
        assert tool_names(era(url, {}, "tools/list", {})) == ["run_payroll"]  # no principal: nobody to restrict


def test_vary_names_what_else_an_answer_depends_on() -> None:
    cache = ResponseCache(ttl=600.0, vary=lambda request: request.server_context().request.headers.get("X-Host-User"))
    with serving(cache) as (url, reads):
        answers = [text(modern(url, {"X-Host-User": user}, "resources/read", {"uri": "page://greeting"})) for user in ("carol", "dave", "carol")]
    assert answers == ["hello carol", "hello dave", "hello carol"]
    assert reads == ["page://greeting", "page://greeting"]
