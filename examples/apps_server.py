"""An MCP Apps server: a tool whose result a host renders as a small HTML view.

    python examples/apps_server.py        # Streamable HTTP at http://127.0.0.1:8000/mcp

``color_swatch`` links to the view ``ui://swatch/view`` (``_meta.ui.resourceUri``).
A host that declared ``capabilities.extensions["io.modelcontextprotocol/ui"]``
reads that resource (``text/html;profile=mcp-app``), renders it in a sandboxed
iframe and hands it the tool's result (``ui/notifications/tool-result``); the
view draws the swatch from ``structuredContent``. Other clients get plain text.
``randomize_swatch`` is app-only (``visibility: ["app"]``): the view's button
calls it, the model never sees it.
"""

from __future__ import annotations

import argparse
import random
import typing as t

from werkzeug.exceptions import NotFound
from werkzeug.middleware.dispatcher import DispatcherMiddleware

from mcp_sdk import Server, Tool
from mcp_sdk.mcp_apps import UIResource, client_supports_apps, tool_meta
from mcp_sdk.server.transports import StreamableHTTPTransport

VIEW_URI = "ui://swatch/view"

VIEW_HTML = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Swatch</title>
<style>
  body { font: 14px system-ui, sans-serif; margin: 0; padding: 12px; }
  #swatch { width: 96px; height: 96px; border-radius: 8px; border: 1px solid #0003; }
</style></head>
<body>
  <div id="swatch"></div><p id="label">Waiting for the tool result...</p>
  <button id="again">Random colour</button>
  <script>
    let nextId = 1;
    const pending = new Map();
    function request(method, params) {
      const id = nextId++;
      window.parent.postMessage({ jsonrpc: "2.0", id, method, params }, "*");
      return new Promise((resolve) => pending.set(id, resolve));
    }
    function show(result) {
      const color = result && result.structuredContent && result.structuredContent.color;
      if (!color) return;
      document.getElementById("swatch").style.background = color;
      document.getElementById("label").textContent = color;
    }
    window.addEventListener("message", (event) => {
      const message = event.data || {};
      if (message.id !== undefined && pending.has(message.id)) {
        pending.get(message.id)(message.result);
        pending.delete(message.id);
      } else if (message.method === "ui/notifications/tool-result") {
        show(message.params);
      }
    });
    document.getElementById("again").onclick = async () =>
      show(await request("tools/call", { name: "randomize_swatch", arguments: {} }));
    request("ui/initialize", {
      appInfo: { name: "swatch-view", version: "1.0.0" },
      appCapabilities: {},
      protocolVersion: "2026-01-26",
    }).then(() => window.parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/initialized" }, "*"));
  </script>
</body>
</html>
"""

SWATCH_VIEW = UIResource(
    uri=VIEW_URI,
    name="swatch_view",
    title="Colour swatch",
    description="Shows a colour swatch",
    html=VIEW_HTML,
    csp={},  # no network access at all
    prefers_border=True,
)



def swatch(color: str, server_context: t.Any) -> Tool.Response:
    text = f"The colour {color}."
    if not client_supports_apps(server_context):
        return Tool.Response([{"type": "text", "text": text}])
    # The text stays for the model; the view draws from structuredContent.
    return Tool.Response([{"type": "text", "text": text}], structured_content={"color": color})


class ColorSwatch(Tool):
    tool_name = "color_swatch"
    description = "Shows a colour (#rrggbb) as a swatch"
    input_schema = {"properties": {"color": {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"}}, "required": ["color"]}
    meta = tool_meta(VIEW_URI)

    @classmethod
    def call(cls, color: str, server_context: t.Any = None) -> Tool.Response:
        return swatch(color.lower(), server_context)


class RandomizeSwatch(Tool):
    tool_name = "randomize_swatch"
    description = "Picks a random colour for the swatch view"
    meta = tool_meta(VIEW_URI, visibility=["app"])

    @classmethod
    def call(cls, server_context: t.Any = None) -> Tool.Response:
        return swatch(f"#{random.randrange(0x1000000):06x}", server_context)


def build_server() -> Server:
    return Server(name="apps_example", version="1.0.0", tools=[ColorSwatch, RandomizeSwatch], resources=[SWATCH_VIEW])


def build_app() -> tuple[StreamableHTTPTransport, t.Any]:
    """The transport, and a WSGI app serving it at ``/mcp``."""
    transport = StreamableHTTPTransport(build_server())
    return transport, DispatcherMiddleware(NotFound(), {"/mcp": transport})


def main() -> None:
    from werkzeug.serving import run_simple

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    options = parser.parse_args()
    transport, app = build_app()
    try:
        run_simple("127.0.0.1", options.port, app, threaded=True)
    finally:
        transport.close()


if __name__ == "__main__":
    main()
