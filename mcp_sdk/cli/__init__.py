"""The ``mcp-sdk`` command (also ``python -m mcp_sdk``).

    mcp-sdk run weather.py                  serve weather.py's server over stdio
    mcp-sdk run weather.py:server --http 8000
    mcp-sdk proxy --http 8000 -- npx -y @modelcontextprotocol/server-everything
                                            serve another server (command, file or URL) through a proxy
    mcp-sdk tools weather.py                list the tools of a server file, a command or an URL
    mcp-sdk call weather.py get_alerts state=CA
    mcp-sdk install claude-desktop weather.py [--force] [--dry-run]
    mcp-sdk dev weather.py                  the MCP Inspector against it (Node.js 22)

Errors are one line on stderr and exit status 1.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import typing as t

from ..errors import MCPError
from . import output
from .command_error import CLIError
from .search_path import search_current_directory_last

PROGRAM = "mcp-sdk"


def main(argv: t.Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); return the exit status.

    :param argv: the arguments after the program's name (default ``sys.argv[1:]``).
    :returns: the command's exit status (0 on success), 1 after an error (printed as one line on stderr),
        130 on Ctrl-C.
    :raises SystemExit: arguments the parser refuses (status 2, with argparse's usage message).
    """
    search_current_directory_last()
    parser = build_parser()
    arguments = parser.parse_args(argv)
    try:
        return int(arguments.command(arguments) or 0)
    except KeyboardInterrupt:
        return 130
    except (CLIError, MCPError, OSError, ValueError) as error:
        message = " ".join(str(error).split()) or type(error).__name__
        print(f"{PROGRAM}: error: {message}", file=sys.stderr)
        return 1


def _run(arguments: argparse.Namespace) -> int:
    from .loading import load_server
    from .serving import serve_http, serve_stdio

    server = load_server(arguments.file)
    if arguments.http is not None:
        serve_http(server, arguments.host, arguments.http)
    else:
        serve_stdio(server)
    return 0


def _proxy(arguments: argparse.Namespace) -> int:
    import shlex

    from ..server import Server
    from .connect import unconnected_client_for
    from .serving import serve_http, serve_stdio

    words = arguments.target
    client = unconnected_client_for(words[0] if len(words) == 1 else shlex.join(words), arguments.timeout)
    try:
        server = Server.proxy(client, name=arguments.name)
        if arguments.http is not None:
            serve_http(server, arguments.host, arguments.http)
        else:
            serve_stdio(server)
    finally:
        client.close()
    return 0


def _list(arguments: argparse.Namespace) -> int:
    from .connect import client_for

    with client_for(arguments.target, arguments.timeout) as client:
        if arguments.what == "tools":
            tools = [tool.to_dict() for tool in client.tools()]
            print(output.as_json(tools) if arguments.json else output.describe_tools(tools))
        elif arguments.what == "prompts":
            prompts = client.prompts()
            print(output.as_json(prompts) if arguments.json else output.describe_prompts(prompts))
        else:
            resources, templates = client.resources(), client.resource_templates()
            if arguments.json:
                print(output.as_json({"resources": resources, "resourceTemplates": templates}))
            else:
                print(output.describe_resources(resources, templates))
    return 0


def _call(arguments: argparse.Namespace) -> int:
    from .connect import client_for

    with client_for(arguments.target, arguments.timeout) as client:
        tools = {tool.name: tool for tool in client.tools()}
        tool = tools.get(arguments.tool)
        if tool is None:
            raise CLIError(f"no tool {arguments.tool!r}; the server has: {', '.join(sorted(tools)) or 'none'}")
        values = parse_arguments(arguments.arguments, tool.input_schema)
        response = client.call_tool(tool=tool, arguments=values)
    result = response["result"]
    print(output.as_json(result) if arguments.json else output.describe_result(result))
    return 1 if result.get("isError") else 0


def _install(arguments: argparse.Namespace) -> int:
    from .install import install

    print(install(arguments.file, arguments.name, arguments.config, arguments.dry_run, arguments.force))
    return 0


def _dev(arguments: argparse.Namespace) -> int:
    from .serving import inspector_command

    command = inspector_command(arguments.file)
    print(f"Starting the MCP Inspector: {' '.join(command)}", file=sys.stderr, flush=True)
    return subprocess.call(command)


def parse_arguments(pairs: t.Sequence[str], schema: t.Mapping[str, t.Any]) -> dict[str, t.Any]:
    """``["state=CA", "days=3"]`` -> ``{"state": "CA", "days": 3}``: JSON values, except where the
    schema says ``string`` (or the text is not JSON).

    :raises CLIError: an item without ``=``.
    :param pairs: ``key=value`` items, as typed on the command line.
    :param schema: the tool's input schema (its ``properties`` say which values stay strings).
    :returns: the arguments dict.
    """
    properties = schema.get("properties") or {}
    values: dict[str, t.Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key:
            raise CLIError(f"arguments are key=value, not {pair!r}")
        declared = properties.get(key, {}).get("type") if isinstance(properties.get(key), dict) else None
        if declared == "string":
            values[key] = text
            continue
        try:
            values[key] = json.loads(text)
        except ValueError:
            values[key] = text
    return values


def build_parser() -> argparse.ArgumentParser:
    """The ``mcp-sdk`` command's argument parser, every subcommand with its options.

    :returns: a new parser; ``parse_args(argv)`` checks a command line without running it.
    """
    parser = argparse.ArgumentParser(prog=PROGRAM, description="Run, inspect and install MCP servers built with mcp_sdk.")
    commands = parser.add_subparsers(metavar="COMMAND", required=True)

    run = commands.add_parser("run", help="serve FILE[:server] over stdio, or HTTP with --http PORT")
    run.add_argument("file", metavar="FILE[:server]")
    run.add_argument("--http", type=int, metavar="PORT", help="serve Streamable HTTP on this port instead of stdio")
    run.add_argument("--host", default="127.0.0.1", help="with --http: the address to listen on (default 127.0.0.1)")
    run.set_defaults(command=_run)

    proxy = commands.add_parser("proxy", help="serve another server through a proxy: proxy [--http PORT] -- TARGET")
    proxy.add_argument("target", metavar="TARGET", nargs="+", help="an URL, a server file, or a command line (after --)")
    proxy.add_argument("--http", type=int, metavar="PORT", help="serve Streamable HTTP on this port instead of stdio")
    proxy.add_argument("--host", default="127.0.0.1", help="with --http: the address to listen on (default 127.0.0.1)")
    proxy.add_argument("--name", default="mcp-sdk-proxy", help="the proxy's server name (default mcp-sdk-proxy)")
    proxy.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for each answer of the remote server")
    proxy.set_defaults(command=_proxy)

    target_help = "an URL (http://...), a server file (FILE.py[:server]) or a command line ('node server.js')"
    for what in ("tools", "prompts", "resources"):
        listing = commands.add_parser(what, help=f"list a server's {what}")
        listing.add_argument("target", metavar="TARGET", help=target_help)
        listing.add_argument("--json", action="store_true", help="print JSON")
        listing.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for each answer")
        listing.set_defaults(command=_list, what=what)

    call = commands.add_parser("call", help="call a tool: call TARGET TOOL key=value ...")
    call.add_argument("target", metavar="TARGET", help=target_help)
    call.add_argument("tool", metavar="TOOL")
    call.add_argument("arguments", metavar="key=value", nargs="*", help="values are JSON, or text where the schema says string")
    call.add_argument("--json", action="store_true", help="print the whole result as JSON")
    call.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for each answer")
    call.set_defaults(command=_call)

    install = commands.add_parser("install", help="register a server file with a desktop host")
    hosts = install.add_subparsers(metavar="HOST", required=True)
    claude = hosts.add_parser("claude-desktop", help="add FILE to Claude Desktop's mcpServers")
    claude.add_argument("file", metavar="FILE[:server]")
    claude.add_argument("--name", help="the entry's name (default: the file's name)")
    claude.add_argument("--config", help="the configuration file (default: Claude Desktop's own)")
    claude.add_argument("--dry-run", action="store_true", help="print the entry instead of writing it")
    claude.add_argument("--force", action="store_true", help="replace an entry of the same name")
    claude.set_defaults(command=_install)

    dev = commands.add_parser("dev", help="open the MCP Inspector on FILE (needs Node.js 22 and npx)")
    dev.add_argument("file", metavar="FILE[:server]")
    dev.set_defaults(command=_dev)
    return parser


__all__ = ["build_parser", "main", "parse_arguments"]
