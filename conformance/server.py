#!/usr/bin/env python3
"""The server the MCP conformance suite tests: every tool, prompt and resource its scenarios ask for.

    python conformance/server.py --port 9292      # serves http://127.0.0.1:9292/mcp until killed

Built on mcp_sdk's public API only, served by werkzeug's threaded development server (a
real WSGI server). ``conformance/SCENARIOS.md`` says what each scenario expects; the names,
texts and schemas below are the ones the suite (``@modelcontextprotocol/conformance``
0.1.16 and 0.2.0-alpha.12) looks for.

Only ``/mcp`` reaches the transport; other paths get 404. DNS-rebinding protection (the
``dns-rebinding-protection`` scenario) is the transport's own: a server on a loopback address
accepts only loopback ``Host`` and ``Origin`` values.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import os
import re
import signal
import struct
import sys
import threading
import time
import typing as t
import wave
import zlib

# Run as `python conformance/server.py`: make the repository's mcp_sdk importable.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import mcp_sdk
from mcp_sdk import Content, Prompt, Resource, ResourceTemplate, Server, Tool
from mcp_sdk.server.tasks import TASKS_EXTENSION
from mcp_sdk.server.transports import StreamableHTTPTransport
from werkzeug.serving import make_server
from werkzeug.wrappers import Response

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mrtr_tools import MRTR_TOOLS, prompt_with_input  # noqa: E402
from tasks_tools import TASK_TOOLS  # noqa: E402


# --------------------------------------------------------------------------- media


def _png_1x1_red() -> str:
    """A valid 1x1 red RGB PNG, base64."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)  # 1x1, 8-bit, RGB
    pixels = zlib.compress(b"\x00\xff\x00\x00")  # filter byte 0, then one red pixel
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    return base64.b64encode(png).decode("ascii")


def _wav_silence() -> str:
    """A valid, very short mono 16-bit 8 kHz WAV of silence, base64."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as audio:
        audio.setnchannels(1)
        audio.setsampwidth(2)
        audio.setframerate(8000)
        audio.writeframes(b"\x00\x00" * 80)  # 10 ms
    return base64.b64encode(buffer.getvalue()).decode("ascii")


PNG = _png_1x1_red()
WAV = _wav_silence()

NO_ARGUMENTS: dict[str, t.Any] = {"type": "object", "properties": {}}


# --------------------------------------------------------------------------- tools


class SimpleText(Tool):
    tool_name = "test_simple_text"
    description = "Returns a simple text response"
    input_schema = NO_ARGUMENTS

    @classmethod
    def call(cls) -> Tool.Response:
        return Tool.Response([Content.Text("This is a simple text response for testing.")])


class ImageContent(Tool):
    tool_name = "test_image_content"
    description = "Returns image content (a 1x1 red PNG)"
    input_schema = NO_ARGUMENTS

    @classmethod
    def call(cls) -> Tool.Response:
        return Tool.Response([Content.Image(PNG, "image/png")])


class AudioContent(Tool):
    tool_name = "test_audio_content"
    description = "Returns audio content (a short WAV)"
    input_schema = NO_ARGUMENTS

    @classmethod
    def call(cls) -> Tool.Response:
        return Tool.Response([Content.Audio(WAV, "audio/wav")])


class EmbeddedResourceContent(Tool):
    tool_name = "test_embedded_resource"
    description = "Returns an embedded text resource"
    input_schema = NO_ARGUMENTS

    @classmethod
    def call(cls) -> Tool.Response:
        resource = Resource.TextContents(
            text="This is an embedded resource content.", uri="test://embedded-resource", mime_type="text/plain"
        )
        return Tool.Response([Content.EmbeddedResource(resource)])


class MultipleContentTypes(Tool):
    tool_name = "test_multiple_content_types"
    description = "Returns text, image and embedded resource content together"
    input_schema = NO_ARGUMENTS

    @classmethod
    def call(cls) -> Tool.Response:
        resource = Resource.TextContents(
            text='{"test":"data","value":123}', uri="test://mixed-content-resource", mime_type="application/json"
        )
        return Tool.Response(
            [
                Content.Text("Multiple content types test:"),
                Content.Image(PNG, "image/png"),
                Content.EmbeddedResource(resource),
            ]
        )


class ToolWithLogging(Tool):
    tool_name = "test_tool_with_logging"
    description = "Sends three info log messages, 50 ms apart, while it runs"
    input_schema = NO_ARGUMENTS

    MESSAGES = ("Tool execution started", "Tool processing data", "Tool execution completed")

    @classmethod
    def call(cls, server_context: t.Any = None) -> Tool.Response:
        for index, message in enumerate(cls.MESSAGES):
            if index:
                time.sleep(0.05)  # the scenario wants notifications spread over the call
            server_context.notify_log_message(data=message, level="info", logger="conformance")
        return Tool.Response([Content.Text(f"Logging complete ({len(cls.MESSAGES)} messages sent)")])


class ErrorHandling(Tool):
    tool_name = "test_error_handling"
    description = "Always fails, as a tool result with isError: true"
    input_schema = NO_ARGUMENTS

    @classmethod
    def call(cls) -> Tool.Response:
        return Tool.Response([Content.Text("This tool intentionally returns an error for testing")], error=True)


class ToolWithProgress(Tool):
    tool_name = "test_tool_with_progress"
    description = "Reports progress 0, 50 and 100 of 100, 50 ms apart"
    input_schema = NO_ARGUMENTS

    @classmethod
    def call(cls, server_context: t.Any = None) -> Tool.Response:
        # report_progress sends nothing when the request carried no progressToken.
        for index, progress in enumerate((0, 50, 100)):
            if index:
                time.sleep(0.05)
            server_context.report_progress(progress, total=100, message=f"{progress}% done")
        return Tool.Response([Content.Text("Progress complete")])


class Sampling(Tool):
    tool_name = "test_sampling"
    description = "Asks the client's LLM (sampling/createMessage) and returns its answer"
    input_schema = {
        "type": "object",
        "properties": {"prompt": {"type": "string", "description": "The prompt to send to the LLM"}},
        "required": ["prompt"],
    }

    @classmethod
    def call(cls, prompt: str, server_context: t.Any = None) -> Tool.Response:
        result = server_context.create_sampling_message(
            messages=[{"role": "user", "content": {"type": "text", "text": prompt}}],
            max_tokens=100,
        )
        return Tool.Response([Content.Text(f"LLM response: {_sampled_text(result)}")])


def _sampled_text(result: t.Any) -> str:
    content = result.get("content") if isinstance(result, dict) else None
    if isinstance(content, list):  # sampling with tools answers a list of blocks
        content = next((block for block in content if isinstance(block, dict) and block.get("type") == "text"), None)
    if isinstance(content, dict):
        return str(content.get("text", ""))
    return ""


def _elicitation_summary(result: t.Any) -> str:
    result = result if isinstance(result, dict) else {}
    return f"action={result.get('action')}, content={json.dumps(result.get('content'))}"


class Elicitation(Tool):
    tool_name = "test_elicitation"
    description = "Asks the user (elicitation/create) for a username and an email"
    input_schema = {
        "type": "object",
        "properties": {"message": {"type": "string", "description": "The message to show the user"}},
        "required": ["message"],
    }

    REQUESTED_SCHEMA = {
        "type": "object",
        "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "description": "User's email address"},
        },
        "required": ["username", "email"],
    }

    @classmethod
    def call(cls, message: str, server_context: t.Any = None) -> Tool.Response:
        result = server_context.create_form_elicitation(message=message, requested_schema=cls.REQUESTED_SCHEMA)
        return Tool.Response([Content.Text(f"User response: {_elicitation_summary(result)}")])


class ElicitationSep1034Defaults(Tool):
    tool_name = "test_elicitation_sep1034_defaults"
    description = "Elicitation whose schema has a default for every primitive type (SEP-1034)"
    input_schema = NO_ARGUMENTS

    REQUESTED_SCHEMA = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "User name", "default": "John Doe"},
            "age": {"type": "integer", "description": "User age", "default": 30},
            "score": {"type": "number", "description": "User score", "default": 95.5},
            "status": {
                "type": "string",
                "description": "User status",
                "enum": ["active", "inactive", "pending"],
                "default": "active",
            },
            "verified": {"type": "boolean", "description": "Verification status", "default": True},
        },
        "required": [],
    }

    @classmethod
    def call(cls, server_context: t.Any = None) -> Tool.Response:
        result = server_context.create_form_elicitation(
            message="Please review and update the form fields with defaults",
            requested_schema=cls.REQUESTED_SCHEMA,
        )
        return Tool.Response([Content.Text(f"Elicitation completed: {_elicitation_summary(result)}")])


class ElicitationSep1330Enums(Tool):
    tool_name = "test_elicitation_sep1330_enums"
    description = "Elicitation with the five enum schema shapes (SEP-1330)"
    input_schema = NO_ARGUMENTS

    REQUESTED_SCHEMA = {
        "type": "object",
        "properties": {
            "untitledSingle": {
                "type": "string",
                "description": "Pick one (untitled)",
                "enum": ["option1", "option2", "option3"],
            },
            "titledSingle": {
                "type": "string",
                "description": "Pick one (titled)",
                "oneOf": [
                    {"const": "value1", "title": "First Option"},
                    {"const": "value2", "title": "Second Option"},
                    {"const": "value3", "title": "Third Option"},
                ],
            },
            "legacyEnum": {
                "type": "string",
                "description": "Pick one (legacy enumNames)",
                "enum": ["opt1", "opt2", "opt3"],
                "enumNames": ["Option One", "Option Two", "Option Three"],
            },
            "untitledMulti": {
                "type": "array",
                "description": "Pick several (untitled)",
                "items": {"type": "string", "enum": ["option1", "option2", "option3"]},
            },
            "titledMulti": {
                "type": "array",
                "description": "Pick several (titled)",
                "items": {
                    "anyOf": [
                        {"const": "value1", "title": "First Choice"},
                        {"const": "value2", "title": "Second Choice"},
                        {"const": "value3", "title": "Third Choice"},
                    ]
                },
            },
        },
        "required": [],
    }

    @classmethod
    def call(cls, server_context: t.Any = None) -> Tool.Response:
        result = server_context.create_form_elicitation(
            message="Please choose from the enum fields", requested_schema=cls.REQUESTED_SCHEMA
        )
        return Tool.Response([Content.Text(f"Elicitation completed: {_elicitation_summary(result)}")])


class JsonSchema202012(Tool):
    tool_name = "json_schema_2020_12_tool"
    description = "Tool with JSON Schema 2020-12 features"
    # Listed exactly as written: the scenario checks $schema, $defs and additionalProperties.
    input_schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "type": "object",
                "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
            }
        },
        "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
        "additionalProperties": False,
    }

    @classmethod
    def call(cls, **arguments: t.Any) -> Tool.Response:
        arguments.pop("server_context", None)
        return Tool.Response([Content.Text(f"Processed with JSON Schema 2020-12: {json.dumps(arguments)}")])


class Reconnection(Tool):
    tool_name = "test_reconnection"
    description = "Closes its SSE stream before answering, so the client must resume with Last-Event-ID (SEP-1699)"
    input_schema = NO_ARGUMENTS

    @classmethod
    def call(cls, server_context: t.Any = None) -> Tool.Response:
        # server_context.close_sse_stream() is not in shared/API.md: the SDK offers it for
        # SEP-1699 polling. Without it the answer simply comes on the open stream, which the
        # server-sse-polling scenario accepts (its resume check is then only INFO).
        close_sse_stream = getattr(server_context, "close_sse_stream", None)
        if callable(close_sse_stream) and close_sse_stream():
            time.sleep(0.1)  # answer after the client has seen the stream end
        return Tool.Response([Content.Text("Reconnection test completed successfully")])


# ---- fixtures of @modelcontextprotocol/conformance 0.2.0-alpha.12 (2026-07-28 scenarios);
# /work/notes/alpha-scenarios.md says what each scenario sends. The list-change triggers are
# defined in build_server(), which they need.


class LoggingTool(Tool):
    tool_name = "test_logging_tool"
    description = "Logs one info message; a 2026-07-28 request without _meta logLevel must not see it"
    input_schema = NO_ARGUMENTS

    @classmethod
    def call(cls, server_context: t.Any = None) -> Tool.Response:
        server_context.notify_log_message(data="test_logging_tool ran", level="info", logger="conformance")
        return Tool.Response([Content.Text("Logged one info message")])


class MissingCapability(Tool):
    tool_name = "test_missing_capability"
    description = "Needs the client's sampling capability (server-stateless expects -32021 without it)"
    input_schema = NO_ARGUMENTS

    @classmethod
    def call(cls, server_context: t.Any = None) -> Tool.Response:
        result = server_context.create_sampling_message(
            messages=[{"role": "user", "content": {"type": "text", "text": "Say hello"}}], max_tokens=20
        )
        return Tool.Response([Content.Text(f"LLM response: {_sampled_text(result)}")])


class StreamingElicitation(Tool):
    tool_name = "test_streaming_elicitation"
    description = "Asks the user for a name (form elicitation) before answering"
    input_schema = NO_ARGUMENTS

    REQUESTED_SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}

    @classmethod
    def call(cls, server_context: t.Any = None) -> Tool.Response:
        result = server_context.create_form_elicitation(message="What is your name?",
                                                        requested_schema=cls.REQUESTED_SCHEMA)
        return Tool.Response([Content.Text(f"User response: {_elicitation_summary(result)}")])


class HeaderParameter(Tool):
    tool_name = "test_header_parameter"
    description = "Echoes its region argument, which clients mirror into the Mcp-Param-Region header (SEP-2243)"
    input_schema = {
        "type": "object",
        "properties": {"region": {"type": "string", "description": "Any text", "x-mcp-header": "Region"}},
        "required": ["region"],
    }

    @classmethod
    def call(cls, region: str, server_context: t.Any = None) -> Tool.Response:
        return Tool.Response([Content.Text(f"region={region}")])


TOOLS = [
    SimpleText,
    ImageContent,
    AudioContent,
    EmbeddedResourceContent,
    MultipleContentTypes,
    ToolWithLogging,
    ErrorHandling,
    ToolWithProgress,
    Sampling,
    Elicitation,
    ElicitationSep1034Defaults,
    ElicitationSep1330Enums,
    JsonSchema202012,
    Reconnection,
    LoggingTool,
    MissingCapability,
    StreamingElicitation,
    HeaderParameter,
    *MRTR_TOOLS,
    *TASK_TOOLS,
]

#: How many tools/prompts the list-change triggers add at most (they cannot remove one).
MAX_DYNAMIC = 20


# --------------------------------------------------------------------------- resources

STATIC_TEXT = "test://static-text"
STATIC_BINARY = "test://static-binary"
WATCHED = "test://watched-resource"
TEMPLATE = re.compile(r"\Atest://template/([^/]+)/data\Z")

RESOURCES = [
    Resource(uri=STATIC_TEXT, name="static-text", description="A static text resource", mime_type="text/plain"),
    Resource(uri=STATIC_BINARY, name="static-binary", description="A static binary resource (PNG)", mime_type="image/png"),
    Resource(uri=WATCHED, name="watched-resource", description="A resource to subscribe to", mime_type="text/plain"),
]

RESOURCE_TEMPLATES = [
    ResourceTemplate(
        uri_template="test://template/{id}/data",
        name="template-data",
        description="JSON data for an id",
        mime_type="application/json",
    )
]

CAPABILITIES = {
    "tools": {"listChanged": True},
    "prompts": {"listChanged": True},
    "resources": {"subscribe": True, "listChanged": True},
    "logging": {},
    "completions": {},
    "extensions": {TASKS_EXTENSION: {}},
}

# Completion candidates by (ref type, prompt name or template URI, argument name).
COMPLETIONS: dict[tuple[str, str, str], tuple[str, ...]] = {
    ("ref/prompt", "test_prompt_with_arguments", "arg1"): ("paris", "park", "party", "testValue1"),
    ("ref/prompt", "test_prompt_with_arguments", "arg2"): ("testValue2", "world"),
    ("ref/resource", "test://template/{id}/data", "id"): ("123", "456", "789"),
}


def build_server() -> Server:
    server = Server(
        name="mcp-sdk-conformance-server",
        title="mcp_sdk conformance server",
        version=getattr(mcp_sdk, "__version__", "0.0.0"),
        instructions="Fixtures for the MCP conformance suite.",
        tools=TOOLS,
        resources=RESOURCES,
        resource_templates=RESOURCE_TEMPLATES,
        capabilities=CAPABILITIES,
    )

    # ---- list-change triggers (server-stateless): each call adds a tool or prompt and notifies

    added = {"tools": 0, "prompts": 0}
    added_lock = threading.Lock()

    def next_dynamic(kind: str) -> int | None:
        with added_lock:
            if added[kind] >= MAX_DYNAMIC:
                return None
            added[kind] += 1
            return added[kind]

    @server.define_tool(name="test_trigger_tool_change", description="Adds a tool and notifies tools/list_changed",
                        input_schema=NO_ARGUMENTS)
    def trigger_tool_change(args: dict[str, t.Any], server_context: t.Any = None) -> Tool.Response:
        number = next_dynamic("tools")
        if number is not None:
            server.define_tool(name=f"test_dynamic_tool_{number}", description="Added by test_trigger_tool_change",
                               input_schema=NO_ARGUMENTS,
                               handler=lambda args, server_context=None: Tool.Response([Content.Text("dynamic")]))
        server.notify_tools_list_changed()
        return Tool.Response([Content.Text("Tool list changed")])

    @server.define_tool(name="test_trigger_prompt_change",
                        description="Adds a prompt and notifies prompts/list_changed", input_schema=NO_ARGUMENTS)
    def trigger_prompt_change(args: dict[str, t.Any], server_context: t.Any = None) -> Tool.Response:
        number = next_dynamic("prompts")
        if number is not None:
            server.define_prompt(
                name=f"test_dynamic_prompt_{number}", description="Added by test_trigger_prompt_change",
                handler=lambda args, server_context=None: Prompt.Result(
                    description="dynamic", messages=[Prompt.Message(role="user", content=Content.Text("dynamic"))]),
            )
        server.notify_prompts_list_changed()
        return Tool.Response([Content.Text("Prompt list changed")])

    # ---- prompts

    server.define_prompt(
        name="test_input_required_result_prompt",
        description="Asks for context through an InputRequiredResult before building the prompt",
        handler=prompt_with_input,
    )

    @server.define_prompt(name="test_simple_prompt", description="A simple prompt without arguments")
    def simple_prompt(args: dict[str, t.Any], server_context: t.Any = None) -> Prompt.Result:
        return Prompt.Result(
            description="A simple prompt",
            messages=[Prompt.Message(role="user", content=Content.Text("This is a simple prompt for testing."))],
        )

    @server.define_prompt(
        name="test_prompt_with_arguments",
        description="A prompt with two required arguments",
        arguments=[
            Prompt.Argument(name="arg1", description="First test argument", required=True),
            Prompt.Argument(name="arg2", description="Second test argument", required=True),
        ],
    )
    def prompt_with_arguments(args: dict[str, t.Any], server_context: t.Any = None) -> Prompt.Result:
        text = f"Prompt with arguments: arg1='{args.get('arg1', '')}', arg2='{args.get('arg2', '')}'"
        return Prompt.Result(
            description="A prompt with arguments",
            messages=[Prompt.Message(role="user", content=Content.Text(text))],
        )

    @server.define_prompt(
        name="test_prompt_with_embedded_resource",
        description="A prompt that embeds a resource",
        arguments=[Prompt.Argument(name="resourceUri", description="URI of the resource to embed", required=True)],
    )
    def prompt_with_embedded_resource(args: dict[str, t.Any], server_context: t.Any = None) -> Prompt.Result:
        resource = {
            "uri": args.get("resourceUri") or "test://example-resource",
            "mimeType": "text/plain",
            "text": "Embedded resource content for testing.",
        }
        return Prompt.Result(
            description="A prompt with an embedded resource",
            messages=[
                Prompt.Message(role="user", content={"type": "resource", "resource": resource}),
                Prompt.Message(role="user", content=Content.Text("Please process the embedded resource above.")),
            ],
        )

    @server.define_prompt(name="test_prompt_with_image", description="A prompt that carries an image")
    def prompt_with_image(args: dict[str, t.Any], server_context: t.Any = None) -> Prompt.Result:
        return Prompt.Result(
            description="A prompt with an image",
            messages=[
                Prompt.Message(role="user", content=Content.Image(PNG, "image/png")),
                Prompt.Message(role="user", content=Content.Text("Please analyze the image above.")),
            ],
        )

    # ---- resources

    @server.resources_read_handler
    def read_resource(params: dict[str, t.Any], server_context: t.Any = None) -> list[dict[str, t.Any]]:
        uri = str(params.get("uri", ""))
        if uri == STATIC_TEXT:
            return [{"uri": uri, "mimeType": "text/plain", "text": "This is the content of the static text resource."}]
        if uri == STATIC_BINARY:
            return [{"uri": uri, "mimeType": "image/png", "blob": PNG}]
        if uri == WATCHED:
            return [{"uri": uri, "mimeType": "text/plain", "text": "The watched resource's current content."}]
        match = TEMPLATE.match(uri)
        if match:
            item = match.group(1)
            data = {"id": item, "templateTest": True, "data": f"Data for ID: {item}"}
            return [{"uri": uri, "mimeType": "application/json", "text": json.dumps(data, separators=(",", ":"))}]
        raise Server.ResourceNotFoundError(uri, params)

    subscriptions: set[str] = set()
    lock = threading.Lock()

    @server.resources_subscribe_handler
    def subscribe(params: dict[str, t.Any], server_context: t.Any = None) -> dict[str, t.Any]:
        with lock:
            subscriptions.add(str(params.get("uri", "")))
        return {}

    @server.resources_unsubscribe_handler
    def unsubscribe(params: dict[str, t.Any], server_context: t.Any = None) -> dict[str, t.Any]:
        with lock:
            subscriptions.discard(str(params.get("uri", "")))
        return {}

    # ---- completion

    @server.completion_handler
    def complete(params: dict[str, t.Any], server_context: t.Any = None) -> dict[str, t.Any]:
        ref = params.get("ref") or {}
        argument = params.get("argument") or {}
        key = (str(ref.get("type", "")), str(ref.get("name") or ref.get("uri") or ""), str(argument.get("name", "")))
        prefix = str(argument.get("value") or "")
        values = [value for value in COMPLETIONS.get(key, ()) if value.startswith(prefix)]
        return {"completion": {"values": values[:100], "total": len(values), "hasMore": len(values) > 100}}

    return server


# --------------------------------------------------------------------------- WSGI

WSGIApp = t.Callable[[dict[str, t.Any], t.Callable[..., t.Any]], t.Iterable[bytes]]

def _json_error(status: int, message: str) -> Response:
    body = {"jsonrpc": "2.0", "error": {"code": -32000, "message": message}, "id": None}
    return Response(json.dumps(body), status=status, mimetype="application/json")


def mcp_path_only(app: WSGIApp, path: str = "/mcp") -> WSGIApp:
    """Route ``path`` to ``app``; 404 for everything else."""

    def routed(environ: dict[str, t.Any], start_response: t.Callable[..., t.Any]) -> t.Iterable[bytes]:
        if environ.get("PATH_INFO", "") != path:
            return _json_error(404, f"Not found: the MCP endpoint is {path}")(environ, start_response)
        return app(environ, start_response)

    return routed


def build_app(*, stateless: bool = False, json_response: bool = False) -> WSGIApp:
    # werkzeug's threaded server (below) has a thread per connection: size the stream caps for plenty.
    transport = StreamableHTTPTransport(
        build_server(), stateless=stateless, enable_json_response=json_response, wsgi_threads=32
    )
    return mcp_path_only(transport)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="MCP conformance server for mcp_sdk")
    parser.add_argument("--port", type=int, default=9292, help="port on 127.0.0.1 (default 9292)")
    parser.add_argument("--stateless", action="store_true", help="StreamableHTTPTransport(stateless=True)")
    parser.add_argument("--json-response", action="store_true",
                        help="StreamableHTTPTransport(enable_json_response=True)")
    args = parser.parse_args(argv)

    app = build_app(stateless=args.stateless, json_response=args.json_response)
    httpd = make_server("127.0.0.1", args.port, app, threaded=True)
    # SIGTERM (how run.py stops us) unwinds like Ctrl-C, so the socket is closed.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    print(f"MCP conformance server on http://127.0.0.1:{args.port}/mcp", flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()


if __name__ == "__main__":
    main()
