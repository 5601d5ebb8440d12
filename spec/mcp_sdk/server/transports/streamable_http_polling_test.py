"""Many sessions on a transport with every default, on real servers (issue 17, items 1 and 2).

50 sessions of our :class:`~mcp_sdk.Client` and 50 of the official Python client (``mcp``), all
at once, each with its GET stream open and a streamed tool call with progress and logs, against
``StreamableHTTPTransport(server)`` with no setting sized by hand: waitress with its default
threads (4) and with 16, gunicorn ``gthread`` with 8 and 16, a Flask app (``mcp_sdk.contrib.flask``)
and a Django project (``mcp_sdk.contrib.django``) under gunicorn ``gthread``. Far more streams than
threads: the transport holds what it can and closes the rest after a ``retry`` (SEP-1699 polling);
the clients resume with ``Last-Event-ID``. No 503, every notification reaches its own session
(the tool's progress and logs on its answer, a ``resources/updated`` on the GET stream) exactly
once, in order. The TypeScript SDK's client (``@modelcontextprotocol/sdk``, run with Node from the
interop cache) does the same against gunicorn ``gthread`` with 4 threads. The big numbers are in
``bench/stream_bench.py``.
"""

from __future__ import annotations

import concurrent.futures
import json
import subprocess
import time
import typing as t
import warnings

import anyio
import mcp_types as types
import pytest
from mcp import Client as OfficialClient
from mcp.shared.exceptions import MCPDeprecationWarning as OfficialDeprecationWarning

from mcp_sdk import Client
from mcp_sdk.client.http import HTTP
from spec.support.client_interop import CACHE, ROOT, ensure_everything
from spec.support.http_client import TIMEOUT
from spec.support.http_server import ServerProcess
from spec.support.polling_deployments import DEPLOYMENTS, gunicorn

#: The TypeScript SDK's client, as a Node script.
TS_CLIENT = ROOT / "spec" / "support" / "ts_polling_client.js"
#: Sessions of each client kind at once.
SESSIONS = 50
STEPS = 6
#: Seconds between steps: the tool runs ~1.5 s, past the hold of most of its streams.
DELAY = 0.25
#: Seconds a session waits, after its answer, for the resources/updated its GET stream carries.
GET_STREAM_WAIT = 30.0


Seen = t.Tuple[t.List[str], t.List[str], str, t.List[str]]


def expected(tag: str) -> Seen:
    steps = [f"{tag}:{step}" for step in range(1, STEPS + 1)]
    return steps, steps, f"{tag} done", [f"polling://{tag}"]


def wait_for(updates: list[str]) -> None:
    deadline = time.monotonic() + GET_STREAM_WAIT
    while not updates and time.monotonic() < deadline:
        time.sleep(0.05)


def ours(url: str, tag: str) -> Seen:
    progress: list[str] = []
    logs: list[str] = []
    updates: list[str] = []
    client = Client(HTTP(url, timeout=TIMEOUT))
    client.on_progress(lambda params: progress.append(params["message"]))
    client.on_log_message(lambda params: logs.append(params["data"]))
    client.on_notification(lambda method, params: updates.append(params["uri"]) if method == "notifications/resources/updated" else None)
    try:
        client.connect(mode="legacy")
        client.set_logging_level("info")
        response = client.call_tool("chatter", {"steps": STEPS, "delay": DELAY, "tag": tag}, progress_token=tag)
        wait_for(updates)
        return progress, logs, response["result"]["content"][0]["text"], updates
    finally:
        client.close()


def official(url: str, tags: list[str]) -> dict[str, Seen]:
    seen: dict[str, Seen] = {}

    async def one(tag: str) -> None:
        progress: list[str] = []
        logs: list[str] = []
        updates: list[str] = []

        async def on_log(params: types.LoggingMessageNotificationParams) -> None:
            logs.append(t.cast(str, params.data))

        async def on_progress(value: float, total: float | None, message: str | None) -> None:
            progress.append(t.cast(str, message))

        async def on_message(message: t.Any) -> None:
            notification = getattr(message, "root", message)
            if isinstance(notification, types.ResourceUpdatedNotification):
                updates.append(str(notification.params.uri))

        async with OfficialClient(
            url, mode="legacy", logging_callback=on_log, message_handler=on_message, read_timeout_seconds=TIMEOUT
        ) as client:
            with warnings.catch_warnings():  # the official client deprecates logging/setLevel (SEP-2577)
                warnings.simplefilter("ignore", OfficialDeprecationWarning)
                await client.set_logging_level("info")
            result = await client.call_tool(
                "chatter", {"steps": STEPS, "delay": DELAY, "tag": tag}, progress_callback=on_progress
            )
            with anyio.move_on_after(GET_STREAM_WAIT):
                while not updates:
                    await anyio.sleep(0.05)
            seen[tag] = (progress, logs, result.content[0].text, updates)  # type: ignore[union-attr]

    async def main() -> None:
        async with anyio.create_task_group() as group:
            for tag in tags:
                group.start_soon(one, tag)

    anyio.run(main)
    return seen


@pytest.mark.parametrize("deployment", list(DEPLOYMENTS))
def test_many_sessions_with_defaults_are_all_served_exactly_once(deployment: str) -> None:
    command, _, path, env = DEPLOYMENTS[deployment]
    with ServerProcess(command, path=path, env=env) as served:
        tags = [f"ours{n}" for n in range(SESSIONS)]
        official_tags = [f"official{n}" for n in range(SESSIONS)]
        with concurrent.futures.ThreadPoolExecutor(SESSIONS + 1, thread_name_prefix="polling-spec") as pool:
            theirs = pool.submit(official, served.url, official_tags)
            mine = {tag: pool.submit(ours, served.url, tag) for tag in tags}
            seen = {tag: future.result(timeout=180) for tag, future in mine.items()}
            seen.update(theirs.result(timeout=180))
        assert seen == {tag: expected(tag) for tag in tags + official_tags}


#: Sessions of the TypeScript client, and the threads of the gunicorn worker serving them.
TS_SESSIONS = 10
TS_THREADS = 4


def test_the_typescript_client_polls_and_gets_every_notification_once_in_order() -> None:
    node, _ = ensure_everything()
    with ServerProcess(gunicorn(TS_THREADS, "spec.support.polling_app:app")) as served:
        completed = subprocess.run(
            [node, str(TS_CLIENT), str(CACHE), served.url, str(TS_SESSIONS), str(STEPS), str(DELAY)],
            capture_output=True, text=True, timeout=180,
        )
    assert completed.returncode == 0, completed.stderr[-3000:]
    seen = json.loads(completed.stdout)
    tags = [f"ts{n}" for n in range(TS_SESSIONS)]
    assert {tag: (value["progress"], value["logs"], value["result"], value["updates"], value["errors"])
            for tag, value in seen.items()} == {tag: (*expected(tag), []) for tag in tags}
    # Every session resumed a stream the server closed (a GET with Last-Event-ID): it polled.
    assert all(value["resumed"] >= 1 for value in seen.values()), {tag: value["resumed"] for tag, value in seen.items()}
