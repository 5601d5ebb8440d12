"""Deployment mistakes get answers that say what to do, not hangs (issue 12)."""

from __future__ import annotations

import json
import logging
import typing as t

import pytest
from werkzeug.test import Client as WSGIClient

from mcp_sdk import Configuration, Server
from mcp_sdk.server.transports import StreamableHTTPTransport
from mcp_sdk.server.transports.streamable_http.sessions.deployment import ENDED, ISSUED_ELSEWHERE, SINGLE_THREADED
from spec.support.http_client import ACCEPT_BOTH, initialize_message
from spec.support.server_helpers import Recorder, call_tool, initialize, request


def sampling_server(reporter: Recorder) -> Server:
    server = Server(name="s", configuration=Configuration(exception_reporter=reporter))

    @server.tool
    def ask(server_context: t.Any = None) -> str:
        answer = server_context.create_sampling_message(
            messages=[{"role": "user", "content": {"type": "text", "text": "hi"}}], max_tokens=5
        )
        return str(answer)

    return server


def test_a_single_threaded_wsgi_server_serves_posts_but_refuses_what_would_hang(caplog: pytest.LogCaptureFixture) -> None:
    reporter = Recorder()
    with StreamableHTTPTransport(sampling_server(reporter)) as transport:
        http = WSGIClient(transport)  # wsgi.multithread is false, as under gunicorn's sync worker
        headers = {"Accept": ACCEPT_BOTH, "Content-Type": "application/json"}
        params = initialize_message()["params"]
        params["capabilities"] = {"sampling": {}}
        answer = http.post("/mcp", data=json.dumps({**initialize_message(), "params": params}), headers=headers)
        headers["Mcp-Session-Id"] = answer.headers["Mcp-Session-Id"]
        http.post("/mcp", data=json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}), headers=headers)

        with caplog.at_level(logging.WARNING, logger="mcp_sdk.server"):
            stream = http.get("/mcp", headers={**headers, "Accept": "text/event-stream"})
            assert (stream.status_code, stream.headers["Allow"]) == (405, "POST, DELETE")
            assert stream.json == {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": SINGLE_THREADED}}
            http.get("/mcp", headers={**headers, "Accept": "text/event-stream"})
        (logged,) = [r.getMessage() for r in caplog.records if "single-threaded" in r.getMessage()]
        assert "gunicorn with -k gthread --threads 32 -w 1" in logged

        # The tool's sampling request fails at once (its answer would need a second thread).
        called = http.post("/mcp", data=json.dumps(call_tool("ask", id=3)), headers=headers)
        body = called.get_data(as_text=True)
        assert '"isError":true' in body.replace(" ", "")
    (error,) = reporter.errors
    assert "single-threaded" in str(error) and "gthread" in str(error)


def test_an_unknown_session_id_names_several_processes_and_an_ended_one_says_so() -> None:
    with StreamableHTTPTransport(Server(name="s")) as transport:
        http = WSGIClient(transport)
        headers = {"Accept": ACCEPT_BOTH, "Content-Type": "application/json"}
        ping = json.dumps(request("ping"))
        foreign = http.post("/mcp", data=ping, headers={**headers, "Mcp-Session-Id": "from-another-process"})
        assert (foreign.status_code, foreign.json["error"]["message"]) == (404, ISSUED_ELSEWHERE)
        assert "several server processes (gunicorn -w N) are the likely cause" in ISSUED_ELSEWHERE
        session_id = http.post("/mcp", data=json.dumps(initialize_message()), headers=headers).headers["Mcp-Session-Id"]
        assert http.delete("/mcp", headers={**headers, "Mcp-Session-Id": session_id}).status_code == 204
        ended = http.post("/mcp", data=ping, headers={**headers, "Mcp-Session-Id": session_id})
        assert (ended.status_code, ended.json["error"]["message"]) == (404, ENDED)


def test_a_tool_needing_a_capability_the_client_lacks_gets_a_readable_error() -> None:
    reporter = Recorder()
    server = sampling_server(reporter)
    initialize(server)  # no sampling capability
    result = server.handle(call_tool("ask"))["result"]
    assert result == {
        "content": [
            {
                "type": "text",
                "text": "Client does not support sampling (needed for sampling/createMessage): "
                "this tool needs a capability the client did not declare",
            }
        ],
        "isError": True,
    }
    assert len(reporter.errors) == 1


def test_the_several_processes_messages_name_redis_url_word_for_word() -> None:
    """Issue 18 item 4: what ``gunicorn -w N`` without shared state gets, as text (the specs above
    compare with the constants; this pins their words)."""
    from mcp_sdk.server.request_state import SEALED_ELSEWHERE
    from mcp_sdk.server.transports.streamable_http.sessions.deployment import SEVERAL_PROCESSES

    assert (ISSUED_ELSEWHERE, SEVERAL_PROCESSES, SEALED_ELSEWHERE) == (
        "Not Found: unknown session. Sessions live in the memory of the process that created them: several server "
        "processes (gunicorn -w N) are the likely cause. Run one process with threads (gunicorn -w 1 -k gthread), "
        "share sessions on Redis (redis_url=), or pass stateless=True",
        "the WSGI server runs several processes (wsgi.multiprocess) but each signs 2026-07-28 requestState with its "
        "own random key, so a multi round-trip request retried on another process is refused: set "
        "Configuration(request_state_keys=[...]) the same in every process, or share them on Redis (redis_url=)",
        "Invalid params: requestState was sealed by another server process, whose key this process does not have: "
        "give every process the same keys (Configuration(request_state_keys=[...])) or share them on Redis "
        "(StreamableHTTPTransport(redis_url=...))",
    )
