"""Many sessions on a transport with every default, on real servers (issue 17, items 1 and 2).

Each session opens its GET stream and makes a streamed tool call with progress and logs, all at
once, with our :class:`~mcp_sdk.Client` and the official Python client (``mcp``), against waitress
with its default threads (4) and gunicorn ``gthread`` with 8. Far more streams than threads: the
transport holds what it can and closes the rest after a ``retry`` (SEP-1699 polling); the clients
resume with ``Last-Event-ID``. No 503, every notification reaches its own session exactly once,
in order. The big numbers are in ``bench/http_bench.py``.
"""

from __future__ import annotations

import concurrent.futures
import typing as t
import warnings

import anyio
import mcp_types as types
import pytest
from mcp import Client as OfficialClient
from mcp.shared.exceptions import MCPDeprecationWarning as OfficialDeprecationWarning

from mcp_sdk import Client
from mcp_sdk.client.http import HTTP
from spec.support.http_client import TIMEOUT
from spec.support.http_server import PYTHON, ServerProcess

#: Sessions of each client kind at once.
SESSIONS = 20
STEPS = 6
#: Seconds between steps: the tool runs ~1.5 s, past the hold of most of its streams.
DELAY = 0.25

SERVERS = {
    "waitress": [PYTHON, "-m", "spec.support.polling_app", "{port}"],
    "gunicorn": [PYTHON, "-m", "gunicorn", "-k", "gthread", "--threads", "8", "-w", "1", "--graceful-timeout", "1",
                 "-b", "127.0.0.1:{port}", "spec.support.polling_app:app"],
}


def expected(tag: str) -> list[str]:
    return [f"{tag}:{step}" for step in range(1, STEPS + 1)]


def ours(url: str, tag: str) -> tuple[list[str], list[str], str]:
    progress: list[str] = []
    logs: list[str] = []
    client = Client(HTTP(url, timeout=TIMEOUT))
    client.on_progress(lambda params: progress.append(params["message"]))
    client.on_log_message(lambda params: logs.append(params["data"]))
    try:
        client.connect(mode="legacy")
        client.set_logging_level("info")
        response = client.call_tool("chatter", {"steps": STEPS, "delay": DELAY, "tag": tag}, progress_token=tag)
        return progress, logs, response["result"]["content"][0]["text"]
    finally:
        client.close()


def official(url: str, tags: list[str]) -> dict[str, tuple[list[str], list[str], str]]:
    seen: dict[str, tuple[list[str], list[str], str]] = {}

    async def one(tag: str) -> None:
        progress: list[str] = []
        logs: list[str] = []

        async def on_log(params: types.LoggingMessageNotificationParams) -> None:
            logs.append(t.cast(str, params.data))

        async def on_progress(value: float, total: float | None, message: str | None) -> None:
            progress.append(t.cast(str, message))

        async with OfficialClient(url, mode="legacy", logging_callback=on_log, read_timeout_seconds=TIMEOUT) as client:
            with warnings.catch_warnings():  # the official client deprecates logging/setLevel (SEP-2577)
                warnings.simplefilter("ignore", OfficialDeprecationWarning)
                await client.set_logging_level("info")
            result = await client.call_tool(
                "chatter", {"steps": STEPS, "delay": DELAY, "tag": tag}, progress_callback=on_progress
            )
            seen[tag] = (progress, logs, result.content[0].text)  # type: ignore[union-attr]

    async def main() -> None:
        async with anyio.create_task_group() as group:
            for tag in tags:
                group.start_soon(one, tag)

    anyio.run(main)
    return seen


@pytest.mark.parametrize("kind", list(SERVERS))
def test_many_sessions_with_defaults_are_all_served_exactly_once(kind: str) -> None:
    with ServerProcess(SERVERS[kind]) as served:
        tags = [f"ours{n}" for n in range(SESSIONS)]
        official_tags = [f"official{n}" for n in range(SESSIONS)]
        with concurrent.futures.ThreadPoolExecutor(SESSIONS + 1, thread_name_prefix="polling-spec") as pool:
            theirs = pool.submit(official, served.url, official_tags)
            mine = {tag: pool.submit(ours, served.url, tag) for tag in tags}
            seen = {tag: future.result(timeout=120) for tag, future in mine.items()}
            seen.update(theirs.result(timeout=120))
        assert seen == {tag: (expected(tag), expected(tag), f"{tag} done") for tag in tags + official_tags}
