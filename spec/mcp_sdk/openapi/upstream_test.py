"""What a call to the API may do and show: redirects only within the API's origin (another origin
is another port of 127.0.0.1), an answer no larger than ``max_response_bytes``, a call no longer
than ``timeout`` however slowly the API answers, and no credential of the session (query key, user
info, header, cookie) in any result, error or log line. The API is the app of
spec/support/openapi_hostile_api.py."""

from __future__ import annotations

import base64
import json
import logging
import typing as t
from urllib.parse import urlencode

import pytest
import requests

from mcp_sdk import Server
from mcp_sdk.openapi import SEMANTIC_ROUTE_MAPS
from spec.support.openapi_api import serving
from spec.support.openapi_hostile_api import BLOB, DOCUMENT, HostileAPI, call_tool

SECRETS = ("QUERY-KEY-SECRET", "BASIC-PASS", "HEADER-SECRET", "SESSION-COOKIE-SECRET")
NOT_FOLLOWED = "not followed, so the credentials meant for the API stay with it"


def text_result(text: str, error: bool = True) -> dict[str, t.Any]:
    return {"content": [{"type": "text", "text": text}], "isError": error}


def credentialed_session() -> requests.Session:
    session = requests.Session()
    session.params = {"api_key": "QUERY-KEY-SECRET"}
    session.headers["X-API-Key"] = "HEADER-SECRET"
    session.cookies.set("session", "SESSION-COOKIE-SECRET")
    return session


def test_no_credential_in_results_errors_or_logs(
    api: tuple[HostileAPI, str], elsewhere: tuple[HostileAPI, str], caplog: pytest.LogCaptureFixture
) -> None:
    app, base = api
    other = elsewhere[1]
    caplog.set_level(logging.DEBUG, logger="mcp_sdk")
    with_user = base.replace("http://", "http://svc:BASIC-PASS@")
    server = Server.from_openapi(DOCUMENT, base_url=with_user, session=credentialed_session(), timeout=1)
    with serving(HostileAPI()) as gone:
        pass
    unreachable = Server.from_openapi(DOCUMENT, base_url=gone.replace("http://", "http://svc:BASIC-PASS@"), session=credentialed_session())
    answers = [
        call_tool(server, "download", {"city": "Paris"}),
        call_tool(server, "echo", {"pref": "x\r\nX-Evil: 1"}),
        call_tool(server, "drip", {}),
        call_tool(server, "redirect", {"to": other + "/echo?stolen=1", "status": 307}),
        call_tool(unreachable, "download", {"city": "Paris"}),
    ]
    assert answers[0]["result"] == {
        "content": [{"type": "resource", "resource": {
            "uri": base + "/download", "mimeType": "application/octet-stream", "blob": base64.b64encode(BLOB).decode(),
        }}],
        "isError": False,
    }
    assert answers[1]["result"] == text_result('{"echo": "ok"}', error=False) | {"structuredContent": {"echo": "ok"}}
    assert answers[2]["result"] == text_result("GET /drip timed out after 1 s")
    assert answers[3]["result"] == text_result(f"POST /redirect: the API redirected to another origin ({other}/echo); {NOT_FOLLOWED}")
    assert answers[4]["result"] == text_result("GET /download failed: ConnectionError")
    wire = json.dumps(answers)
    assert [secret for secret in SECRETS if secret in wire] == []
    assert [r.getMessage() for r in caplog.records if r.name.startswith("mcp_sdk")] == []
    assert elsewhere[0].requests == []
    # the API itself got them all, as the session says
    assert {r.headers["X-API-Key"] for r in app.requests} == {"HEADER-SECRET"}
    assert app.requests[0].query == "api_key=QUERY-KEY-SECRET&city=Paris"


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_to_another_origin_is_not_followed(
    api: tuple[HostileAPI, str], elsewhere: tuple[HostileAPI, str], status: int
) -> None:
    app, base = api
    other_app, other = elsewhere
    server = Server.from_openapi(DOCUMENT, base_url=base, session=credentialed_session())
    port = other.rsplit(":", 1)[1]
    targets = [other + "/echo", f"//127.0.0.1:{port}/echo", f"http://localhost:{port}/echo", base.replace("http://", "https://") + "/echo"]
    for target in targets:
        shown = target if target.startswith("http") else "http:" + target
        assert call_tool(server, "redirect", {"to": target, "status": status, "note": "a body"})["result"] == text_result(
            f"POST /redirect: the API redirected to another origin ({shown}); {NOT_FOLLOWED}"
        )
    # a redirect to the API itself that redirects on: the second hop is refused too
    hop = "/redirect?" + urlencode({"to": other + "/echo", "status": status})
    assert call_tool(server, "redirect", {"to": hop, "status": status, "note": "a body"})["result"] == text_result(
        f"POST /redirect: the API redirected to another origin ({other}/echo); {NOT_FOLLOWED}"
    )
    assert other_app.requests == []
    assert len(app.requests) == len(targets) + 2


def test_redirects_within_the_origin_are_followed(api: tuple[HostileAPI, str]) -> None:
    app, base = api
    session = credentialed_session()
    session.max_redirects = 3
    server = Server.from_openapi(DOCUMENT, base_url=base, session=session)
    assert call_tool(server, "redirect", {"to": "/echo", "status": 307, "note": "kept"})["result"] == (
        text_result('{"echo": "ok"}', error=False) | {"structuredContent": {"echo": "ok"}}
    )
    assert call_tool(server, "redirect", {"to": base + "/download", "status": 303, "note": "dropped"})["result"]["isError"] is False
    looping = "/redirect?" + urlencode({"to": "/redirect?to=/echo", "status": 307})
    assert call_tool(server, "redirect", {"to": "/redirect?" + urlencode({"to": looping, "status": 307}), "status": 307})["result"] == (
        text_result("POST /redirect failed: more than 3 redirects")
    )
    seen = [(r.method, r.path, r.headers.get("X-API-Key"), r.body) for r in app.requests]
    assert seen[:4] == [
        ("POST", "/redirect", "HEADER-SECRET", {"note": "kept"}),
        ("POST", "/echo", "HEADER-SECRET", {"note": "kept"}),  # 307: same method, same body
        ("POST", "/redirect", "HEADER-SECRET", {"note": "dropped"}),
        ("GET", "/download", "HEADER-SECRET", None),  # 303: a GET without the body
    ]
    assert [r.path for r in app.requests[4:]] == ["/redirect"] * 4


def test_an_answer_over_the_size_cap_is_refused(api: tuple[HostileAPI, str]) -> None:
    app, base = api
    cap = 1024 * 1024
    server = Server.from_openapi(DOCUMENT, base_url=base, max_response_bytes=cap, route_maps=SEMANTIC_ROUTE_MAPS)
    too_large = text_result(f"GET /big: the answer is larger than {cap} bytes (max_response_bytes); not read")
    assert call_tool(server, "big", {"size": 64 * cap})["result"] == too_large  # no Content-Length: read up to the cap
    assert call_tool(server, "big", {"size": cap + 1, "declared": True})["result"] == too_large  # refused by its Content-Length
    assert call_tool(server, "big", {"size": 64 * cap, "gzip": True})["result"] == too_large  # 64 KiB on the wire, 64 MiB decoded
    exact = call_tool(server, "big", {"size": cap})["result"]
    assert base64.b64decode(exact["content"][0]["resource"]["blob"]) == b"x" * cap
    # an error answer's body: only what the message shows is read
    assert call_tool(server, "big", {"size": 64 * cap, "status": 500})["result"] == text_result("HTTP 500 INTERNAL SERVER ERROR: " + "x" * 500 + "…")


def test_a_resource_read_over_the_cap_or_deadline_is_an_error(api: tuple[HostileAPI, str]) -> None:
    app, base = api
    small = Server.from_openapi(DOCUMENT, base_url=base, max_response_bytes=4, route_maps=SEMANTIC_ROUTE_MAPS)
    hasty = Server.from_openapi(DOCUMENT, base_url=base, timeout=1, route_maps=SEMANTIC_ROUTE_MAPS)
    assert [resource.uri for resource in small.resources] == ["resource://download", "resource://drip"]
    for server, uri, message in [
        (small, "resource://download", "GET /download: the answer is larger than 4 bytes (max_response_bytes); not read"),
        (hasty, "resource://drip", "GET /drip timed out after 1 s"),
    ]:
        answer = server.handle({"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": uri}})
        assert answer is not None and answer["error"] == {"code": -32603, "message": message}


def test_a_dripping_answer_ends_at_the_deadline(api: tuple[HostileAPI, str]) -> None:
    app, base = api
    server = Server.from_openapi(DOCUMENT, base_url=base, timeout=1)
    # the app sends a byte every 0.25 s for 10 s: each read is within the timeout, the call is not
    assert call_tool(server, "drip", {})["result"] == text_result("GET /drip timed out after 1 s")
    app.release()
    assert [(r.method, r.path) for r in app.requests] == [("GET", "/drip")]


@pytest.mark.parametrize(
    ("options", "message"),
    [({"timeout": 0}, "timeout must be a positive number of seconds, not 0"),
     ({"timeout": float("nan")}, "timeout must be a positive number of seconds, not nan"),
     ({"max_response_bytes": 0}, "max_response_bytes must be a positive integer, not 0"),
     ({"max_response_bytes": 1.5}, "max_response_bytes must be a positive integer, not 1.5")],
)
def test_settings_must_be_positive(options: dict[str, t.Any], message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}$"):
        Server.from_openapi(DOCUMENT, base_url="http://127.0.0.1:9", **options)
