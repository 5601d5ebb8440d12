"""Our client in each mode against the official Python SDK's ``MCPServer`` (both eras), over stdio and HTTP.

The server runs as a real subprocess; MRTR rounds go through our registered handlers.
"""

from __future__ import annotations

import threading
import typing as t

import pytest

from mcp_sdk import Client
from spec.support.official_servers import official_http, official_http_transport, official_stdio


@pytest.fixture(scope="module")
def http_url() -> t.Iterator[str]:
    with official_http() as url:
        yield url


def make_client(kind: str, http_url: str) -> Client:
    transport = official_stdio() if kind == "stdio" else official_http_transport(http_url)
    client = Client(transport=transport, timeout=30.0)
    client.on_elicitation(lambda params: {"action": "accept", "content": {"name": "Ada"}})
    client.on_sampling(lambda params: {"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"})
    client.on_roots(lambda params: [{"uri": "file:///tmp", "name": "tmp"}])
    return client


def text(client: Client, name: str, **arguments: t.Any) -> str:
    return str(client.call_tool(name=name, arguments=arguments)["result"]["content"][0]["text"])


@pytest.mark.parametrize("kind", ["stdio", "http"])
@pytest.mark.parametrize("mode,version", [("auto", "2026-07-28"), ("modern", "2026-07-28"), ("legacy", "2025-11-25")])
def test_each_mode_speaks_its_era(kind: str, mode: str, version: str, http_url: str) -> None:
    with make_client(kind, http_url) as client:
        client.connect(mode=mode)
        assert client.protocol_version == version
        assert client.era == ("legacy" if mode == "legacy" else "modern")
        assert client.server_info == {"name": "official_fixture", "version": "2.3.0"}
        assert client.instructions == "An official-SDK server for the client specs."
        assert [tool.name for tool in client.tools()][:5] == ["echo", "confirm", "sample", "count_roots", "hand_rolled"]
        assert text(client, "echo", message="yo") == "yo"
        # The same handlers answer server requests (2025) and input_required rounds (2026).
        assert text(client, "confirm") == "hello Ada"
        assert text(client, "sample") == "model said hi"
        assert text(client, "count_roots") == "1 roots"
        assert client.read_resource("fixture://greeting") == [
            {"uri": "fixture://greeting", "mimeType": "text/plain", "text": "hi there"}
        ]
        messages = client.get_prompt("greet", {"name": "Bob"})["messages"]
        assert messages == [{"role": "user", "content": {"type": "text", "text": "Say hello to Bob"}}]


@pytest.mark.parametrize("kind", ["stdio", "http"])
def test_request_state_survives_two_rounds_byte_for_byte(kind: str, http_url: str) -> None:
    # The server seals its state; a single changed byte fails its integrity check.
    with make_client(kind, http_url) as client:
        client.connect(mode="modern")
        assert text(client, "hand_rolled") == "done after round-2"


@pytest.mark.parametrize("kind", ["stdio", "http"])
def test_listen_delivers_resource_updates_until_closed(kind: str, http_url: str) -> None:
    with make_client(kind, http_url) as client:
        client.connect(mode="modern")
        updates: list[tuple[str, dict[str, t.Any]]] = []
        arrived = threading.Event()

        def on_update(method: str, params: dict[str, t.Any]) -> None:
            updates.append((method, params))
            arrived.set()

        subscription = client.listen(resource_uris=["fixture://greeting"], tools=True, callback=on_update)
        assert subscription.acknowledged == {"toolsListChanged": True, "resourceSubscriptions": ["fixture://greeting"]}
        assert text(client, "touch") == "touched"
        assert arrived.wait(30)
        method, params = updates[0]
        assert method == "notifications/resources/updated" and params["uri"] == "fixture://greeting"
        assert params["_meta"]["io.modelcontextprotocol/subscriptionId"] == subscription.request_id
        subscription.close()
        assert not subscription.active
        assert text(client, "echo", message="still here") == "still here"
