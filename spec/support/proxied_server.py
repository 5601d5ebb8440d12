"""The server behind the proxy in spec/mcp_sdk/server/proxy_test.py, served on stdio when run as a script.

``count`` reports progress and logs; ``greet`` elicits a name; ``haiku`` samples the client's LLM; ``roots`` lists the client's roots;
``wait`` reports progress once, then waits to be cancelled (and records that it was); ``cancelled``
says which calls were cancelled (recorded in the file named by the script's argument, when given, so
that every process of it sees them: a proxy runs one per caller); ``grow`` adds the tool ``forecast`` and announces it. A prompt, a
resource and a resource template complete the set.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mcp_sdk import MCPDeprecationWarning, Server  # noqa: E402
from mcp_sdk.resource import Resource  # noqa: E402
from mcp_sdk.resource_template import ResourceTemplate  # noqa: E402
from mcp_sdk.server.context import ServerContext  # noqa: E402

warnings.simplefilter("ignore", MCPDeprecationWarning)


def build(record: Path | None = None) -> Server:
    """A new remote server; ``record``: the file the cancelled calls are written to (None: kept in memory)."""
    server = Server(name="remote", version="2.0.0", instructions="The remote server.")
    cancelled: list[str] = []

    @server.tool
    def count(to: int, server_context: ServerContext) -> str:
        """Count to a number, reporting progress."""
        for step in range(1, to + 1):
            server_context.report_progress(step, total=to, message=f"step {step}")
        server_context.notify_log_message(data=f"counted to {to}", level="info", logger="remote")
        return f"counted to {to}"

    @server.tool
    def greet(server_context: ServerContext) -> str:
        """Ask the user's name, then greet them."""
        answer = server_context.create_form_elicitation(
            "Your name?", {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
        )
        if answer.get("action") != "accept":
            return f"No name ({answer.get('action')})"
        return f"Hello, {answer['content']['name']}!"

    @server.tool
    def haiku(topic: str, server_context: ServerContext) -> str:
        """A haiku about a topic, by the client's LLM."""
        result = server_context.create_sampling_message(
            [{"role": "user", "content": {"type": "text", "text": f"A haiku about {topic}"}}], max_tokens=50
        )
        return str(result["content"]["text"])

    @server.tool
    def roots(server_context: ServerContext) -> str:
        """The client's roots."""
        return ",".join(root["uri"] for root in server_context.list_roots()["roots"])

    @server.tool
    def wait(server_context: ServerContext) -> str:
        """Wait until cancelled (at most a minute)."""
        server_context.report_progress(0, message="waiting")
        if server_context.cancellation.wait(60):
            cancelled.append("wait")
            if record is not None:
                with record.open("a") as file:
                    file.write("wait\n")
        return "not cancelled"

    @server.tool(name="cancelled")
    def cancelled_calls() -> str:
        """The calls cancelled so far."""
        return ",".join(record.read_text().split() if record is not None and record.exists() else cancelled)

    @server.tool
    def grow() -> str:
        """Add the forecast tool and announce it."""

        def forecast(city: str) -> str:
            """Tomorrow's forecast."""
            return f"Sunny in {city}"

        server.tool(forecast)
        server.notify_tools_list_changed()
        return "grown"

    @server.prompt
    def brief(city: str) -> str:
        """A weather brief."""
        return f"Brief me on {city}"

    server.add_resource(Resource(uri="remote://notes", name="notes", mime_type="text/plain"))
    server.add_resource_template(ResourceTemplate(uri_template="remote://notes/{day}", name="day notes"))

    @server.resources_read_handler
    def read(params: dict[str, str]) -> list[dict[str, str]]:
        return [{"uri": params["uri"], "mimeType": "text/plain", "text": f"notes of {params['uri']}"}]

    return server


if __name__ == "__main__":
    from mcp_sdk.server.transports import StdioTransport

    StdioTransport(build(Path(sys.argv[1]) if len(sys.argv) > 1 else None)).open()
