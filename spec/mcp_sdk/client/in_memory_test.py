"""``Client(transport=InMemory(server))``: the whole protocol in-process (issue 12)."""

from __future__ import annotations

import threading
import typing as t

import pytest

from mcp_sdk import Cancellation, CancelledError, Client, Server, TransportError
from mcp_sdk.client import InMemory
from spec.support.server_helpers import TIMEOUT


def weather_server() -> Server:
    server = Server(name="weather", version="1.0.0")

    @server.tool
    def get_alerts(state: str) -> str:
        """Get weather alerts for a US state."""
        return f"No alerts for {state}"

    @server.tool
    def summarize(text: str, server_context: t.Any = None) -> str:
        server_context.report_progress(1, total=2, message="asking")
        answer = server_context.create_sampling_message(
            messages=[{"role": "user", "content": {"type": "text", "text": text}}], max_tokens=10
        )
        return answer["content"]["text"]

    return server


def test_a_client_talks_to_a_server_in_process():
    with Client(transport=InMemory(weather_server())) as client:
        client.connect()
        assert client.server_info is not None and client.server_info["name"] == "weather"
        assert [tool.name for tool in client.tools()] == ["get_alerts", "summarize"]
        response = client.call_tool(name="get_alerts", arguments={"state": "CA"})
        result = response["result"]
        assert (result["content"], result["isError"]) == ([{"type": "text", "text": "No alerts for CA"}], False)
        invalid = client.call_tool(name="get_alerts", arguments={})
        assert invalid["result"]["isError"] is True


def test_progress_and_sampling_cross_the_in_memory_connection():
    client = Client(transport=InMemory(weather_server()))
    progress: list[dict[str, t.Any]] = []
    client.on_progress(progress.append)

    @client.on_sampling
    def sample(params: dict[str, t.Any]) -> dict[str, t.Any]:
        text = params["messages"][0]["content"]["text"]
        return {"role": "assistant", "content": {"type": "text", "text": text.upper()}, "model": "m"}

    client.connect()
    response = client.call_tool(name="summarize", arguments={"text": "hello"}, progress_token="p")
    assert response["result"]["content"] == [{"type": "text", "text": "HELLO"}]
    # On 2026-07-28 the sampling ask ends the first run and the retry runs the tool again
    # (MRTR), so the progress before the ask is reported once per run.
    assert progress and all(p == {"progressToken": "p", "progress": 1, "total": 2, "message": "asking"} for p in progress)
    client.close()


def test_cancelling_a_call_cancels_the_tool():
    server = Server(name="s")
    started, stopped = threading.Event(), threading.Event()

    @server.tool
    def wait(server_context: t.Any = None) -> str:
        started.set()
        for _ in range(int(TIMEOUT * 100)):  # bounded: the test fails rather than hangs
            if server_context.cancelled():
                break
            threading.Event().wait(0.01)
        stopped.set()
        return "cancelled"

    client = Client(transport=InMemory(server))
    client.connect()
    cancellation = Cancellation()
    threading.Thread(target=lambda: (started.wait(TIMEOUT), cancellation.cancel("enough")), name="canceller").start()
    with pytest.raises(CancelledError):
        client.call_tool(name="wait", cancellation=cancellation)
    assert stopped.wait(TIMEOUT)
    client.close()
    with pytest.raises(TransportError, match="in-memory transport is closed"):
        client.ping()
