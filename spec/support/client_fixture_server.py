"""The server the client specs talk to, over stdio (``python -m spec.support.client_fixture_server``)
or mounted in the Streamable HTTP transport (:func:`build_server`).

Its tools exercise every client feature: server-to-client requests, progress,
logs, cancellation, structured content, a crash. ``page_size=2`` makes every
list paginate.
"""

from __future__ import annotations

import json
import os
import sys
import time
import typing as t

from mcp_sdk import Prompt, Resource, ResourceTemplate, Server, Tool

ELICITATION_SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "default": "John Doe"},
        "age": {"type": "integer", "default": 30},
        "score": {"type": "number", "default": 95.5},
        "status": {"type": "string", "enum": ["active", "inactive"], "default": "active"},
        "verified": {"type": "boolean", "default": True},
        "nickname": {"type": "string"},
    },
    "required": [],
}


def build_server() -> Server:
    """A fresh fixture server."""
    server = Server(
        name="client_fixture",
        version="1.0.0",
        title="Client Fixture",
        instructions="Use the echo tool.",
        page_size=2,
        resources=[
            Resource(uri="fixture://a", name="a", mime_type="text/plain"),
            Resource(uri="fixture://b", name="b", mime_type="text/plain"),
            Resource(uri="fixture://c", name="c", mime_type="text/plain"),
        ],
        resource_templates=[ResourceTemplate(uri_template="fixture://items/{id}", name="item")],
    )

    @server.resources_read_handler
    def read(params: dict[str, t.Any]) -> t.Any:
        return [{"uri": params["uri"], "mimeType": "text/plain", "text": f"content of {params['uri']}"}]

    @server.completion_handler
    def complete(params: dict[str, t.Any]) -> t.Any:
        value = params["argument"]["value"]
        return {"values": [f"{value}1", f"{value}2"], "hasMore": False}

    @server.define_prompt(name="greet", description="Greets", arguments=[Prompt.Argument(name="name", required=True)])
    def greet(args: dict[str, t.Any]) -> t.Any:
        from mcp_sdk import Content

        return Prompt.Result(messages=[Prompt.Message(role="user", content=Content.Text(f"Hello {args['name']}"))])

    @server.define_tool(name="echo", description="Echoes", input_schema={"properties": {"message": {"type": "string"}}})
    def echo(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        meta = server_context.get("_meta") if server_context is not None else None
        text = f"echo: {args.get('message', '')}"
        if meta:
            text += f" meta={json.dumps(meta, sort_keys=True)}"
        return Tool.Response([{"type": "text", "text": text}])

    @server.define_tool(name="sample", input_schema={"properties": {"prompt": {"type": "string"}}})
    def sample(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        result = server_context.create_sampling_message(
            messages=[{"role": "user", "content": {"type": "text", "text": args.get("prompt", "hi")}}],
            max_tokens=50,
            timeout=10,
        )
        return Tool.Response([{"type": "text", "text": f"model said: {result['content']['text']}"}])

    @server.define_tool(name="elicit")
    def elicit(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        result = server_context.create_form_elicitation(message="Who are you?", requested_schema=ELICITATION_SCHEMA, timeout=10)
        return Tool.Response([{"type": "text", "text": json.dumps(result, sort_keys=True)}])

    @server.define_tool(name="roots")
    def roots(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        found = server_context.list_roots(timeout=10)
        return Tool.Response([{"type": "text", "text": " ".join(root["uri"] for root in found["roots"])}])

    @server.define_tool(name="ping_client")
    def ping_client(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        return Tool.Response([{"type": "text", "text": json.dumps(server_context.ping(timeout=10))}])

    @server.define_tool(name="slow", input_schema={"properties": {"seconds": {"type": "number"}}})
    def slow(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        deadline = time.monotonic() + args.get("seconds", 10)
        while time.monotonic() < deadline:
            if server_context.cancelled():
                print(f"cancelled: {server_context.cancellation.reason}", file=sys.stderr, flush=True)
                server_context.raise_if_cancelled()
            time.sleep(0.01)
        return Tool.Response([{"type": "text", "text": "slept"}])

    @server.define_tool(name="progress", input_schema={"properties": {"steps": {"type": "integer"}}})
    def progress(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        steps = args.get("steps", 3)
        for step in range(1, steps + 1):
            server_context.report_progress(step, total=steps, message=f"step {step}")
        return Tool.Response([{"type": "text", "text": "done"}])

    @server.define_tool(name="log")
    def log(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        server_context.notify_log_message(data={"said": "hello"}, level="info", logger="fixture")
        return Tool.Response([{"type": "text", "text": "logged"}])

    @server.define_tool(
        name="structured",
        input_schema={"properties": {"valid": {"type": "boolean"}}},
        output_schema={"properties": {"count": {"type": "integer"}}, "required": ["count"]},
    )
    def structured(args: dict[str, t.Any]) -> t.Any:
        data = {"count": 3} if args.get("valid", True) else {"count": "three"}
        return Tool.Response([{"type": "text", "text": json.dumps(data)}], structured_content=data)

    @server.define_tool(name="stderr", input_schema={"properties": {"text": {"type": "string"}, "repeat": {"type": "integer"}}})
    def stderr(args: dict[str, t.Any]) -> t.Any:
        for _ in range(args.get("repeat", 1)):
            print(args.get("text", ""), file=sys.stderr)
        sys.stderr.flush()
        return Tool.Response([{"type": "text", "text": "written"}])

    @server.define_tool(name="crash")
    def crash(args: dict[str, t.Any]) -> t.Any:
        print("fixture: crashing on purpose", file=sys.stderr, flush=True)
        os._exit(3)

    @server.define_tool(name="fail")
    def fail(args: dict[str, t.Any]) -> t.Any:
        return Tool.Response([{"type": "text", "text": "it went wrong"}], error=True)

    return server


if __name__ == "__main__":
    from mcp_sdk.server.transports import StdioTransport

    print("fixture: started", file=sys.stderr, flush=True)
    StdioTransport(build_server()).open()
