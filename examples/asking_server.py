"""A server whose tools ask the client things (sampling, elicitation, roots), for both protocol eras.

    python examples/asking_server.py                 # stdio
    python examples/asking_server.py --port 8000     # Streamable HTTP at http://127.0.0.1:8000/mcp

The tools are written once. A 2025 client (``initialize`` first) gets real
server-to-client requests; a 2026-07-28 client gets ``resultType: "input_required"``
and retries with its answers, and the SDK runs the tool again (so code before an
ask runs once per round: keep side effects after the asks).
"""

from __future__ import annotations

import argparse
import sys
import typing as t

from mcp_sdk import InputRequiredResult, Prompt, Resource, Server
from mcp_sdk.server.input_required import form_elicitation
from mcp_sdk.server.transports import StdioTransport, StreamableHTTPTransport

NAME_SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
CONFIRM_SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}


def build_server() -> Server:
    """The example server (a new one each call: tests start several)."""
    server = Server(
        name="asking_example",
        version="1.0.0",
        resources=[
            Resource(uri="example://readme", name="readme", mime_type="text/plain"),
            Resource(uri="example://clock", name="clock", mime_type="text/plain", ttl_ms=1000, cache_scope="private"),
        ],
    )

    @server.resources_read_handler
    def read(params: dict[str, t.Any]) -> list[dict[str, t.Any]]:
        return [{"uri": params["uri"], "mimeType": "text/plain", "text": f"contents of {params['uri']}"}]

    @server.define_tool(name="echo", input_schema={"properties": {"message": {"type": "string"}}, "required": ["message"]})
    def echo(args: dict[str, t.Any]) -> t.Any:
        return f"echo: {args['message']}"

    @server.define_tool(name="greet", description="Asks the user for their name (form elicitation)")
    def greet(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        answer = server_context.create_form_elicitation("What is your name?", NAME_SCHEMA)
        if answer.get("action") != "accept":
            return f"no name ({answer.get('action')})"
        return f"Hello, {answer['content']['name']}!"

    @server.define_tool(
        name="ask_llm",
        description="Asks the client's model a question (sampling)",
        input_schema={"properties": {"question": {"type": "string"}}, "required": ["question"]},
    )
    def ask_llm(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        result = server_context.create_sampling_message(
            messages=[{"role": "user", "content": {"type": "text", "text": args["question"]}}], max_tokens=100
        )
        return f"model said: {result['content']['text']}"

    @server.define_tool(name="show_roots", description="Lists the client's roots")
    def show_roots(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        found = server_context.list_roots()
        return "roots: " + ", ".join(root["uri"] for root in found["roots"])

    @server.define_tool(name="plan", description="Asks a name, then the model, then the roots (three rounds)")
    def plan(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        name = server_context.create_form_elicitation("What is your name?", NAME_SCHEMA)["content"]["name"]
        said = server_context.create_sampling_message(
            messages=[{"role": "user", "content": {"type": "text", "text": f"Plan a day for {name}"}}], max_tokens=50
        )["content"]["text"]
        roots = server_context.list_roots()["roots"]
        return f"{name}: {said} ({len(roots)} roots)"

    @server.define_tool(name="confirm", description="Explicit InputRequiredResult with its own request state")
    def confirm(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        answers = server_context.input_responses
        if answers is None or "confirm" not in answers:
            return InputRequiredResult({"confirm": form_elicitation("Proceed?", CONFIRM_SCHEMA)}, request_state="step-1")
        accepted = answers["confirm"].get("content", {}).get("ok") is True
        return f"state {server_context.request_state}: {'confirmed' if accepted else 'declined'}"

    @server.define_tool(name="shout", input_schema={"properties": {"message": {"type": "string"}}, "required": ["message"]})
    def shout(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        server_context.notify_log_message(data={"said": "debug detail"}, level="debug", logger="shout")
        server_context.notify_log_message(data={"said": args["message"]}, level="info", logger="shout")
        return args["message"].upper()

    @server.define_tool(
        name="weather",
        description="Mirrors its region argument into the Mcp-Param-Region header (2026-07-28)",
        input_schema={"properties": {"region": {"type": "string", "x-mcp-header": "Region"}}, "required": ["region"]},
    )
    def weather(args: dict[str, t.Any]) -> t.Any:
        return f"sunny in {args['region']}"

    @server.define_tool(name="touch", input_schema={"properties": {"uri": {"type": "string"}}})
    def touch(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        """Announces a change: the tool list, the prompt list, or (with ``uri``) one resource."""
        if "uri" in args:
            server_context.notify_resources_updated(args["uri"])
        else:
            server.notify_tools_list_changed()
            server.notify_prompts_list_changed()
        return "touched"

    @server.define_prompt(name="introduce", description="Asks who to introduce (form elicitation)")
    def introduce(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        answer = server_context.create_form_elicitation("Who should I introduce?", NAME_SCHEMA)
        name = answer["content"]["name"]
        return Prompt.Result(messages=[{"role": "user", "content": {"type": "text", "text": f"Introduce {name}"}}])

    return server


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, help="serve Streamable HTTP on this port (default: stdio)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--stateless", action="store_true")
    args = parser.parse_args(argv)
    server = build_server()
    if args.port is None:
        StdioTransport(server).open()
        return
    from werkzeug.serving import make_server

    # werkzeug's threaded server gives every connection a thread: let the transport keep 32 SSE streams open.
    transport = StreamableHTTPTransport(server, stateless=args.stateless, wsgi_threads=32)
    httpd = make_server(args.host, args.port, transport, threaded=True)
    print(f"MCP server on http://{args.host}:{httpd.server_port}/mcp", file=sys.stderr, flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        transport.close()
        httpd.server_close()


if __name__ == "__main__":
    main()
