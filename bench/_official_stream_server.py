"""The official Python SDK's server (``mcp``) for ``bench/stream_bench.py --server official``: its
low-level ``Server`` with its Streamable HTTP app and every default, under uvicorn, one process.

    python bench/_official_stream_server.py PORT

As ``_stream_server.py``: a client that sends ``resources/subscribe`` is told
``notifications/resources/updated`` (``bench://clock?t=<time.time()>``) every 2 s, on its GET stream.
"""

from __future__ import annotations

import sys
import time
import typing as t

import anyio
import mcp_types as types
import uvicorn
from mcp.server.lowlevel import Server

PERIOD = 2.0
subscribers: list[t.Any] = []


async def subscribe(context: t.Any, params: types.SubscribeRequestParams) -> types.EmptyResult:
    subscribers.append(context.session)
    return types.EmptyResult()


async def tell_subscribers() -> None:
    while True:
        await anyio.sleep(PERIOD)
        uri = f"bench://clock?t={time.time():.6f}"
        for session in list(subscribers):
            try:
                await session.send_resource_updated(uri)
            except Exception:  # noqa: BLE001 - a session that ended
                subscribers.remove(session)


async def main(port: int) -> None:
    app = Server("stream-bench-official", on_subscribe_resource=subscribe).streamable_http_app(streamable_http_path="/mcp")
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", backlog=4096)
    async with anyio.create_task_group() as group:
        group.start_soon(tell_subscribers)
        await uvicorn.Server(config).serve()
        group.cancel_scope.cancel()


if __name__ == "__main__":
    anyio.run(main, int(sys.argv[1]))
