"""A server composed of two others (spec/mcp_sdk/server/composition_test.py): ``weather`` mounted
under the prefix ``weather`` and included (a snapshot) under ``copy``.

``weather`` has its own ``around_request`` and middleware, which write to :data:`TRAIL` (as does the
main server's ``around_request``); its ``get_alerts`` reports progress and logs; its ``grow`` adds the
tool ``forecast`` to ``weather`` and announces it; the main server's ``trail`` tool reads :data:`TRAIL`.
Run as a script, it serves the main server on stdio.
"""

from __future__ import annotations

import sys
import typing as t
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mcp_sdk import Configuration, MCPDeprecationWarning, Server  # noqa: E402
from mcp_sdk.server.request import Request  # noqa: E402
from mcp_sdk.server.middleware.chain import CallNext  # noqa: E402
from mcp_sdk.server.context import ServerContext  # noqa: E402

#: What the hooks saw, in order: (hook, what the request named).
TRAIL: list[str] = []


def named(data: dict[str, t.Any]) -> str:
    return str(data.get("tool_name") or data.get("prompt_name") or data.get("resource_uri") or "")


def build() -> Server:
    """The main server, with ``weather`` mounted and included (a new pair on each call)."""

    def weather_hook(data: dict[str, t.Any], request_handler: t.Callable[[], t.Any]) -> t.Any:
        response = request_handler()
        TRAIL.append(f"weather around_request {data['method']} {named(data)}")
        return response

    def main_hook(data: dict[str, t.Any], request_handler: t.Callable[[], t.Any]) -> t.Any:
        response = request_handler()
        if data["method"] != "tools/call" or data.get("tool_name") != "trail":
            TRAIL.append(f"main around_request {data['method']} {named(data)}")
        return response

    weather = Server(name="weather", version="1.0.0", configuration=Configuration(around_request=weather_hook))

    def weather_middleware(request: Request, call_next: CallNext) -> t.Any:
        TRAIL.append(f"weather middleware {request.method} {request.params.get('name', request.params.get('uri'))}")
        return call_next(request)

    weather.add_middleware(weather_middleware)

    @weather.tool
    def get_alerts(state: str, server_context: ServerContext) -> str:
        """Weather alerts for a US state."""
        server_context.report_progress(1, total=2, message="fetching")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            server_context.notify_log_message(data=f"alerts for {state}", level="info", logger="weather")
        server_context.report_progress(2, total=2, message="done")
        return f"No alerts in {state}"

    @weather.tool
    def grow() -> str:
        """Add the forecast tool and announce it."""

        def forecast(city: str) -> str:
            """Tomorrow's forecast."""
            return f"Sunny in {city}"

        weather.tool(forecast)
        weather.notify_tools_list_changed()
        return "grown"

    @weather.prompt
    def brief(city: str) -> str:
        """A weather brief."""
        return f"Brief me on {city}"

    @weather.resource("weather://alerts/{state}", mime_type="text/plain")
    def alerts(state: str) -> str:
        return f"alerts resource for {state}"

    @weather.resource("data://cities", mime_type="application/json")
    def cities() -> list[str]:
        return ["Boston", "Denver"]

    main = Server(name="main", version="1.0.0", configuration=Configuration(around_request=main_hook))

    @main.tool
    def trail() -> str:
        """What the hooks saw, one a line, then forget it."""
        seen = "\n".join(TRAIL)
        TRAIL.clear()
        return seen

    main.mount(weather, prefix="weather")
    main.include(weather, prefix="copy")
    return main


if __name__ == "__main__":
    from mcp_sdk.server.transports import StdioTransport

    StdioTransport(build()).open()
