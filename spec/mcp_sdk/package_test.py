"""The mcp_sdk package: its exports, and staying cheap to import."""

from __future__ import annotations

import importlib
import subprocess
import sys

import mcp_sdk


def test_common_names_are_exported():
    for name in ("Tool", "Prompt", "Resource", "ResourceTemplate", "Server", "Content", "Configuration", "ServerContext", "MCPError"):
        assert name in mcp_sdk.__all__
        assert getattr(mcp_sdk, name) is not None


def test_nested_classes_are_attributes():
    assert mcp_sdk.Tool.Response is mcp_sdk.tool.Response
    assert mcp_sdk.Prompt.Argument is mcp_sdk.prompt.Argument
    assert mcp_sdk.Prompt.Message is mcp_sdk.prompt.Message
    assert mcp_sdk.Prompt.Result is mcp_sdk.prompt.Result


def test_configuration_is_the_function_and_the_module_stays_importable():
    configuration_module = importlib.import_module("mcp_sdk.configuration")

    assert mcp_sdk.configuration() is configuration_module._default
    assert configuration_module.Configuration is mcp_sdk.Configuration
    assert mcp_sdk.configure() is mcp_sdk.configuration()


def test_the_version():
    assert mcp_sdk.__version__ == mcp_sdk.version.VERSION


def test_importing_the_package_does_not_import_the_http_stack():
    code = "import sys, mcp_sdk; print(sorted(m for m in ('werkzeug', 'requests') if m in sys.modules))"
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=30).stdout
    assert output.strip() == "[]"


def test_a_stdio_server_answers_its_first_request_without_what_it_does_not_use():
    # What a stdio server that answers with plain dicts never needs: loaded on first use, so its start stays short.
    code = """
import io, sys
from mcp_sdk import Server, Tool
from mcp_sdk.server.transports import StdioTransport
server = Server(name="s", version="1")
server.define_tool(name="echo", input_schema={"properties": {"m": {"type": "string"}}}, handler=lambda args: Tool.Response([]))
requests = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\\n'
out = io.BytesIO()
StdioTransport(server, stdin=io.BytesIO(requests), stdout=out).open()
assert b'"serverInfo"' in out.getvalue(), out.getvalue()
heavy = ("werkzeug", "requests", "cattrs", "hmac", "secrets", "datetime", "mcp_sdk.server.auth.bearer",
         "mcp_sdk.server.auth.jwt_verifier", "mcp_sdk.server.request_state", "mcp_sdk.client")
print(sorted(name for name in heavy if name in sys.modules))
"""
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=30).stdout
    assert output.strip() == "[]"
