from __future__ import annotations

import importlib.util
import pathlib

import requests

from mcp_sdk.client.oauth import Provider

EXAMPLE = pathlib.Path(__file__).parents[4] / "examples" / "oauth_client.py"


def load_example():
    spec = importlib.util.spec_from_file_location("oauth_client_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_callback_listener_captures_the_redirect():
    example = load_example()
    listener = example.CallbackListener(0)
    listener.start()
    try:
        provider = example.build_provider(listener, scope="mcp:read")
        assert isinstance(provider, Provider)
        assert provider.redirect_uri == listener.redirect_uri
        with requests.Session() as session:
            page = session.get(listener.redirect_uri, params={"code": "c1", "state": "s1"})
            page.close()
        assert page.status_code == 200
        assert listener.wait(timeout=5) == ("c1", "s1", None)
    finally:
        listener.close()


def test_example_signs_in_and_lists_tools_end_to_end(capsys, monkeypatch):
    """The example against a real mcp_sdk server behind bearer auth, with the fixture as AS."""
    import json

    from werkzeug.wrappers import Request, Response

    from mcp_sdk import Server
    from mcp_sdk.server.transports import StreamableHTTPTransport
    from spec.support.client_servers import wsgi_server
    from spec.support.oauth_fixture import FixtureServer, Registry

    registry = Registry()
    auth = FixtureServer(authorization_server=True, registry=registry)
    server = Server(name="protected", version="1.0.0")

    @server.define_tool(name="whoami", description="Says hello", input_schema={"type": "object"})
    def whoami(args, server_context=None):
        return {"content": [{"type": "text", "text": "hello"}]}

    transport = StreamableHTTPTransport(server)

    def protected(environ, start_response):
        request = Request(environ)
        resource = request.host_url.rstrip("/") + "/mcp"
        if request.path == "/.well-known/oauth-protected-resource/mcp":
            document = {"resource": resource, "authorization_servers": [auth.issuer]}
            return Response(json.dumps(document), content_type="application/json")(environ, start_response)
        header = request.headers.get("Authorization", "")
        if not (header.startswith("Bearer ") and header[7:] in registry.access_tokens):
            challenge = f'Bearer resource_metadata="{request.host_url}.well-known/oauth-protected-resource/mcp"'
            return Response("{}", status=401, headers={"WWW-Authenticate": challenge})(environ, start_response)
        return transport(environ, start_response)

    example = load_example()

    def browser(url):
        # The "user" approves: follow the AS redirect to the example's loopback listener.
        with requests.Session() as session:
            session.get(url, timeout=10).close()

    monkeypatch.setattr(example, "open_in_browser", browser)
    try:
        with wsgi_server(protected) as url:
            example.main([url, "--port", "0"])
    finally:
        transport.close()
        auth.close()

    assert capsys.readouterr().out.splitlines() == ["- whoami: Says hello"]
    assert auth.paths() == ["GET /.well-known/oauth-authorization-server", "POST /register", "GET /authorize", "POST /token"]
