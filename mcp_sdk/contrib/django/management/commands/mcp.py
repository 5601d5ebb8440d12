"""``python manage.py mcp stdio|tools|call``: the configured server from the command line."""

from __future__ import annotations

import sys
import typing as t

from django.core.management.base import BaseCommand, CommandError  # type: ignore[import-untyped]


class Command(BaseCommand):  # type: ignore[misc]
    """``mcp stdio`` serves ``MCP_SDK["SERVER"]`` over stdin and stdout (for desktop hosts);
    ``mcp tools`` lists its tools (name, a tab, the first line of the description);
    ``mcp call NAME key=value ...`` calls one in this process and prints its result (exit status 1
    when the result is an error). Tools run with the project loaded, Django's connection handling
    around them; there is no HTTP request (``server_context.request`` is None)."""

    help = "The project's MCP server (mcp_sdk): serve it over stdio, list its tools, call one."

    def add_arguments(self, parser: t.Any) -> None:
        commands = parser.add_subparsers(dest="action", required=True, metavar="{stdio,tools,call}")
        commands.add_parser("stdio", help="serve the server over stdin and stdout")
        commands.add_parser("tools", help="list the tools: name, a tab, the first line of the description")
        call = commands.add_parser("call", help="call a tool: call NAME key=value ...")
        call.add_argument("tool", metavar="NAME")
        call.add_argument("arguments", metavar="key=value", nargs="*", help="values are JSON, or text where the schema says string")
        call.add_argument("--json", action="store_true", help="print the whole result as JSON")

    def handle(self, *args: t.Any, **options: t.Any) -> None:
        from ...cli import stdio, tools

        from ...conf import configured_server

        server = configured_server()
        if options["action"] == "stdio":
            stdio(server)
        elif options["action"] == "tools":
            self.stdout.write(tools(server), ending="")
        else:
            self.call(server, options["tool"], options["arguments"], options["json"])

    def call(self, server: t.Any, name: str, pairs: list[str], as_json: bool) -> None:
        from .....cli import output
        from .....cli.command_error import CLIError
        from ...cli import call

        try:
            result = call(server, name, pairs)
        except CLIError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(output.as_json(result) if as_json else output.describe_result(result))
        if result.get("isError"):
            sys.exit(1)
