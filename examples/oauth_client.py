"""Connect to an OAuth-protected MCP server, signing in through the browser.

    python examples/oauth_client.py https://mcp.example.com/mcp [--port 3030] [--scope "mcp:read"]

The first request gets a 401; the SDK discovers the authorization server,
registers this client (Dynamic Client Registration, or a Client ID Metadata
Document with --client-id-metadata-document-url), and calls ``redirect_handler``
with the authorization URL. This script prints it and opens the browser; a small
listener on ``http://127.0.0.1:<port>/callback`` captures the ``code`` and
``state`` the authorization server redirects back with. Tokens live in memory
only (pass your own ``storage=`` to keep them).
"""

from __future__ import annotations

import argparse
import queue
import threading
import typing as t
import webbrowser

from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response

from mcp_sdk.client.oauth import Provider


class CallbackListener:
    """A one-shot loopback HTTP listener for the OAuth redirect (RFC 8252 section 7.3)."""

    def __init__(self, port: int, path: str = "/callback") -> None:
        self.path = path
        self._answers: queue.Queue[tuple[str | None, str | None, str | None]] = queue.Queue()
        self._server = make_server("127.0.0.1", port, self._app, threaded=True)
        self.redirect_uri = f"http://127.0.0.1:{self._server.server_port}{path}"
        self._thread: threading.Thread | None = None

    def _app(self, environ: dict[str, t.Any], start_response: t.Any) -> t.Iterable[bytes]:
        request = Request(environ)
        if request.path != self.path:
            return Response("Not found", status=404)(environ, start_response)
        args = request.args
        if "error" in args:
            text = f"Authorization failed: {args.get('error')}. You can close this tab."
        else:
            text = "Signed in. You can close this tab and return to the terminal."
        self._answers.put((args.get("code"), args.get("state"), args.get("iss")))
        return Response(text, content_type="text/plain; charset=utf-8")(environ, start_response)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        self._thread.start()

    def wait(self, timeout: float = 300.0) -> tuple[str | None, str | None, str | None]:
        """``(code, state, iss)`` from the redirect; raises ``queue.Empty`` on timeout."""
        return self._answers.get(timeout=timeout)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def open_in_browser(url: str) -> None:
    print("Open this URL to sign in (trying your browser now):")
    print(url)
    webbrowser.open(url)


def build_provider(
    listener: CallbackListener,
    scope: str | None = None,
    client_id_metadata_document_url: str | None = None,
) -> Provider:
    """A Provider whose redirect goes to the browser and whose callback reads the listener."""
    return Provider(
        client_metadata={
            "client_name": "mcp_sdk example client",
            "redirect_uris": [listener.redirect_uri],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
        },
        redirect_uri=listener.redirect_uri,
        redirect_handler=open_in_browser,
        # The third element lets the SDK check RFC 9207's ``iss`` when the server sends it.
        callback_handler=listener.wait,
        scope=scope,
        client_id_metadata_document_url=client_id_metadata_document_url,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the MCP server URL (HTTPS, or http://localhost for development)")
    parser.add_argument("--port", type=int, default=3030, help="loopback port for the OAuth callback (0: any)")
    parser.add_argument("--scope", help="scopes to ask for when the server does not say")
    parser.add_argument("--client-id-metadata-document-url", help="HTTPS URL of this client's metadata document")
    args = parser.parse_args(argv)

    # Imported here: the HTTP transport is only needed when actually connecting.
    from mcp_sdk import Client
    from mcp_sdk.client import HTTP

    listener = CallbackListener(args.port)
    listener.start()
    try:
        provider = build_provider(listener, args.scope, args.client_id_metadata_document_url)
        transport = HTTP(url=args.url, oauth=provider)
        client = Client(transport=transport)
        try:
            client.connect()
            for tool in client.tools():
                print(f"- {tool.name}: {tool.description or ''}")
        finally:
            transport.close()
    finally:
        listener.close()


if __name__ == "__main__":
    main()
