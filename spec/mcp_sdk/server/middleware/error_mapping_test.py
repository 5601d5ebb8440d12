"""``ErrorMapping`` over real HTTP, both eras: a class mapped to a bare code answers with the code's
own message, never the exception's text (``int()`` and pydantic quote the value they refused: here
a database URL and its password); the text shows only for an ``MCPError`` or a class in ``expose``."""

from __future__ import annotations

import typing as t

import pydantic
import pytest

from mcp_sdk import Server
from mcp_sdk.errors import MCPError
from mcp_sdk.server.middleware import ErrorMapping
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.http_client import Client, request
from spec.support.http_server import LiveServer
from spec.support.modern_http import ModernHTTP

SECRET_URL = "postgres://app:hunter2-SECRET@db.internal:5432/payroll"


class Settings(pydantic.BaseModel):
    pool_size: int


class RowMissing(LookupError):
    """The application's own error: its text is written for callers."""


class StoreOffline(MCPError):
    """An SDK-family error: its text is the SDK's words."""


def build() -> Server:
    server = Server(name="mapped", version="1.0.0")
    settings = {"DATABASE_URL": SECRET_URL}

    @server.resources_read_handler
    def read(params: dict[str, t.Any]) -> list[dict[str, t.Any]]:
        uri = params["uri"]
        if uri == "db://pool":
            int(settings["DATABASE_URL"])  # the bug: the wrong setting; ValueError quotes it
        if uri == "db://settings":
            Settings.model_validate({"pool_size": settings["DATABASE_URL"]})  # pydantic quotes the input too
        if uri == "db://row/7":
            raise RowMissing("No row 7 in the ledger")
        if uri == "db://offline":
            raise StoreOffline("The ledger store is offline")
        return [{"uri": uri, "text": "ok"}]

    server.add_middleware(ErrorMapping({ValueError: -32602, LookupError: -32002, MCPError: -32001}, expose=[RowMissing]))
    return server


@pytest.fixture
def url() -> t.Iterator[str]:
    server = build()
    transport = StreamableHTTPTransport(server)
    with LiveServer(transport, closeables=[transport]) as live:
        yield live.url


def legacy_error(url: str, uri: str) -> dict[str, t.Any]:
    with Client(url) as client:
        client.initialize()
        (response,) = client.call(request("resources/read", {"uri": uri}, id=9))
        return t.cast("dict[str, t.Any]", response)


def modern_error(url: str, uri: str) -> dict[str, t.Any]:
    with ModernHTTP(url) as client:
        return t.cast("dict[str, t.Any]", client.response("resources/read", {"uri": uri})["error"])


class TestErrorMappingOverHTTP:
    def test_a_bare_code_answers_the_codes_own_message_not_the_secret_the_exception_quotes(self, url: str) -> None:
        for uri in ("db://pool", "db://settings"):
            assert legacy_error(url, uri) == {"jsonrpc": "2.0", "id": 9, "error": {"code": -32602, "message": "Invalid params"}}
            assert modern_error(url, uri) == {"code": -32602, "message": "Invalid params"}

    def test_an_exposed_class_and_an_mcp_error_keep_their_text(self, url: str) -> None:
        assert legacy_error(url, "db://row/7")["error"] == {"code": -32002, "message": "No row 7 in the ledger"}
        assert modern_error(url, "db://row/7") == {"code": -32002, "message": "No row 7 in the ledger"}
        assert legacy_error(url, "db://offline")["error"] == {"code": -32001, "message": "The ledger store is offline"}
        assert modern_error(url, "db://offline") == {"code": -32001, "message": "The ledger store is offline"}


def test_expose_takes_exception_classes_only() -> None:
    with pytest.raises(TypeError, match="ErrorMapping expose= takes exception classes, not 'ValueError'"):
        ErrorMapping({ValueError: -32602}, expose=["ValueError"])  # type: ignore[list-item]


def test_a_code_of_ones_own_without_a_standard_message_says_error() -> None:
    server = Server(name="mapped")

    @server.prompt
    def greet() -> str:
        """Fails."""
        raise KeyError("api_key=sk-live-123")

    server.add_middleware(ErrorMapping({KeyError: -32050}))
    response = server.handle({"jsonrpc": "2.0", "id": 1, "method": "prompts/get", "params": {"name": "greet"}})
    assert response == {"jsonrpc": "2.0", "id": 1, "error": {"code": -32050, "message": "Error"}}
