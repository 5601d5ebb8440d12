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
