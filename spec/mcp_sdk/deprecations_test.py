"""``MCPDeprecationWarning`` for what SEP-2577 deprecates as of MCP 2026-07-28 (issue 22, item 7):
Roots, Sampling and Logging keep working, and each call a user makes to them warns, naming the
user's line; in process, through our client in both eras, and for a tool that logs while the
official Python client calls it in both eras (the wire checked against the schemas)."""

from __future__ import annotations

import typing as t
import warnings

import anyio
import pytest

from mcp_sdk import CapabilityError, Client, MCPDeprecationWarning, Server
from mcp_sdk.client import HTTP
from mcp_sdk.server import input_required
from mcp_sdk.server.transports import StreamableHTTPTransport
from mcp_sdk.server.context import ServerContext
from spec.support.client_servers import wsgi_server
from spec.support.wire_tap import WireTap

TIMEOUT = 30.0


def only_warning(caught: t.Any, feature: str) -> None:
    """Exactly one MCPDeprecationWarning, about ``feature``, pointing at this file."""
    (warning,) = [w for w in caught if issubclass(w.category, MCPDeprecationWarning)]
    assert str(warning.message) == {
        "roots": "The roots capability is deprecated as of MCP 2026-07-28 (SEP-2577): pass directories or files via tool parameters, resource URIs, or server configuration.",
        "sampling": "The sampling capability is deprecated as of MCP 2026-07-28 (SEP-2577): integrate directly with LLM provider APIs.",
        "logging": "The logging capability is deprecated as of MCP 2026-07-28 (SEP-2577): log to stderr on stdio, and use OpenTelemetry for observability.",
    }[feature]
    assert warning.filename == __file__


def test_it_is_a_deprecation_warning() -> None:
    assert issubclass(MCPDeprecationWarning, DeprecationWarning)


class TestServer:
    def test_registering_a_roots_list_changed_handler(self) -> None:
        with pytest.warns(MCPDeprecationWarning) as caught:
            Server().roots_list_changed_handler(lambda: None)
        only_warning(caught, "roots")

    def test_logging_to_every_client(self) -> None:
        with pytest.warns(MCPDeprecationWarning) as caught:
            Server().notify_log_message("disk full", "error")
        only_warning(caught, "logging")

    @pytest.mark.parametrize(
        "call, feature",
        [
            (lambda context: context.notify_log_message("step", "info"), "logging"),
            (lambda context: context.list_roots(), "roots"),
            (lambda context: context.create_sampling_message([{"role": "user", "content": {"type": "text", "text": "hi"}}], 5), "sampling"),
        ],
    )
    def test_a_handler_logging_or_asking_for_roots_or_sampling(self, call: t.Callable[[ServerContext], t.Any], feature: str) -> None:
        with pytest.warns(MCPDeprecationWarning) as caught:
            try:
                call(ServerContext(None))
            except CapabilityError:
                pass  # no client here: the warning comes first
        assert caught[0].filename == __file__ and feature in str(caught[0].message)

    def test_asking_for_roots_or_sampling_as_2026_input_requests(self) -> None:
        with pytest.warns(MCPDeprecationWarning) as caught:
            assert input_required.roots() == {"method": "roots/list"}
        only_warning(caught, "roots")
        with pytest.warns(MCPDeprecationWarning) as caught:
            input_required.sampling([], 5)
        only_warning(caught, "sampling")

    def test_what_is_not_deprecated_does_not_warn(self) -> None:
        server = Server()
        with warnings.catch_warnings():
            warnings.simplefilter("error", MCPDeprecationWarning)
            server.notify_tools_list_changed()
            ServerContext(None).report_progress(1)
            input_required.form_elicitation("name?", {"type": "object", "properties": {}})


def logging_server() -> Server:
    server = Server(name="logs")

    @server.tool
    def work(server_context: t.Any = None) -> str:
        server_context.notify_log_message({"step": 1}, "info", logger="work")
        return "done"

    return server


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_our_client_warns_for_set_logging_level_roots_and_sampling_in_both_eras(mode: str) -> None:
    transport = StreamableHTTPTransport(logging_server())
    logged: list[dict[str, t.Any]] = []
    try:
        with wsgi_server(transport) as url, Client(transport=HTTP(url=url, timeout=TIMEOUT)) as client:
            with pytest.warns(MCPDeprecationWarning) as caught:
                client.on_roots(lambda params: [])
            only_warning(caught, "roots")
            with pytest.warns(MCPDeprecationWarning) as caught:
                client.on_sampling(lambda params: {})
            only_warning(caught, "sampling")
            client.on_log_message(logged.append)
            client.connect(mode=mode)
            with pytest.warns(MCPDeprecationWarning) as caught:
                assert client.set_logging_level("info") == {}
            only_warning(caught, "logging")
            with pytest.warns(MCPDeprecationWarning) as caught:
                client.notify_roots_list_changed()
            only_warning(caught, "roots")
            with pytest.warns(MCPDeprecationWarning) as caught:  # the server's tool, in this process
                assert client.call_tool("work", {})["result"]["content"] == [{"type": "text", "text": "done"}]
            only_warning(caught, "logging")
    finally:
        transport.close()
    assert logged == [{"level": "info", "logger": "work", "data": {"step": 1}}]  # deprecated, still working


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_a_tool_that_logs_warns_and_still_logs_to_the_official_client(mode: str) -> None:
    from mcp import Client as OfficialClient
    from mcp.client.streamable_http import streamable_http_client

    transport = StreamableHTTPTransport(logging_server())
    tap = WireTap(transport)
    logged: list[t.Any] = []

    async def on_log(params: t.Any) -> None:
        logged.append((params.level, params.logger, params.data))

    async def main(url: str) -> str:
        async with OfficialClient(streamable_http_client(url), mode=mode, logging_callback=on_log, log_level="info") as official:
            if mode == "legacy":
                with warnings.catch_warnings():  # the official client's own warning, not ours
                    warnings.simplefilter("ignore")
                    await official.set_logging_level("info")
            answer = await official.call_tool("work", {})
            return t.cast(str, answer.content[0].text)  # type: ignore[union-attr]

    try:
        with wsgi_server(tap) as url, pytest.warns(MCPDeprecationWarning) as caught:
            assert anyio.run(main, url) == "done"
    finally:
        transport.close()
    only_warning(caught, "logging")
    assert logged == [("info", "work", {"step": 1})]
    notifications = [answer for exchange in tap.exchanges for answer in exchange.answers if answer.get("method") == "notifications/message"]
    assert [message["params"]["data"] for message in notifications] == [{"step": 1}]
    assert tap.assert_valid() >= 2
