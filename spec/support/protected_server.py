"""A protected MCP server for the auth tests: our transport behind BearerAuth, on 127.0.0.1.

Tools: ``whoami`` (answers ``server_context.auth``) and ``admin_report`` (needs the
``admin`` scope); a prompt and a resource that need ``admin`` too. The Protected
Resource Metadata is mounted beside the MCP endpoint, as a host app would.
"""

from __future__ import annotations

import typing as t

from werkzeug.middleware.dispatcher import DispatcherMiddleware

from mcp_sdk import Prompt, Resource, Server, Tool
from mcp_sdk.server.auth import BearerAuth, protected_resource_metadata
from mcp_sdk.server.transports import StreamableHTTPTransport

from .http_server import LiveServer


class Whoami(Tool):
    tool_name = "whoami"
    description = "Who is calling"

    @classmethod
    def call(cls, server_context: t.Any = None) -> dict[str, t.Any]:
        auth = server_context.auth
        return {"subject": auth.subject, "client_id": auth.client_id, "scopes": sorted(auth.scopes)}


class AdminReport(Tool):
    tool_name = "admin_report"
    required_scopes = ("admin",)

    @classmethod
    def call(cls) -> str:
        return "all is well"


def admin_prompt(args: dict[str, t.Any]) -> dict[str, t.Any]:
    return {"messages": [{"role": "user", "content": {"type": "text", "text": "secret prompt"}}]}


AdminPrompt = Prompt.define("admin_prompt", required_scopes=["admin"], handler=admin_prompt)
PUBLIC_URI = "memo://public"
ADMIN_URI = "memo://admin"


def build_server() -> Server:
    server = Server(
        name="protected",
        tools=[Whoami, AdminReport],
        prompts=[AdminPrompt],
        resources=[Resource(uri=PUBLIC_URI, name="public"), Resource(uri=ADMIN_URI, name="admin", required_scopes=["admin"])],
    )

    @server.resources_read_handler
    def read(params: dict[str, t.Any]) -> list[dict[str, t.Any]]:
        return [{"uri": params["uri"], "text": "contents of " + params["uri"]}]

    return server


class _Late:
    """A WSGI app set once the port (hence the resource URL) is known."""

    app: t.Callable[..., t.Any]

    def __call__(self, environ: dict[str, t.Any], start_response: t.Any) -> t.Any:
        return self.app(environ, start_response)


class ProtectedServer:
    """Serves :func:`build_server` at ``/mcp`` with ``make_auth(resource_url)`` and its metadata.

    :param make_auth: builds the :class:`BearerAuth` for the endpoint URL (None: no bearer auth).
    :param transport_options: more :class:`StreamableHTTPTransport` options (``authenticate=``...).
    """

    def __init__(self, make_auth: t.Callable[[str], BearerAuth] | None, **transport_options: t.Any) -> None:
        late = _Late()
        self.live = LiveServer(late)
        self.url = self.live.url
        self.auth = make_auth(self.url) if make_auth is not None else None
        self.server = build_server()
        self.transport = StreamableHTTPTransport(self.server, auth=self.auth, **transport_options)
        mounts: dict[str, t.Any] = {"/mcp": self.transport}
        if self.auth is not None:
            mounts[self.auth.metadata_path] = protected_resource_metadata(self.auth)
        late.app = DispatcherMiddleware(_not_found, mounts)
        self.live.closeables.append(self.transport)

    def close(self) -> None:
        self.live.stop()


def _not_found(environ: dict[str, t.Any], start_response: t.Any) -> list[bytes]:
    start_response("404 Not Found", [("Content-Type", "text/plain"), ("Content-Length", "9")])
    return [b"Not Found"]
