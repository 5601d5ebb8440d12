"""Finding 15: one silent server slowed every listing of all servers by its full timeout, every
time. Now listings ask every server at once under one deadline, and a server that misses it sits
out the next listings (and calls fail at once) for a backoff that doubles, until it answers."""

from __future__ import annotations

import logging
import pathlib
import threading
import typing as t

import pytest

from mcp_sdk import Client, RequestTimeoutError
from mcp_sdk.client import ServerUnavailableError, Stdio
from mcp_sdk.client.multi import MultiServerClient
from mcp_sdk.client.multi_backoff import Backoff
from spec.support import multi_servers
from spec.support.waiting import WAIT, wait_until

OURS_TOOLS = ["ours_example_tool", "ours_count", "ours_shout_tool"]


def silent(log: pathlib.Path) -> Client:
    """A real stdio server that connects (2025-11-25) and never answers ``tools/list``; ``log`` gets what it reads."""
    return Client(Stdio(**_stdio(multi_servers.recorder_stdio(str(log), MCP_SPEC_SILENT="tools/list"))), timeout=WAIT)


def ours() -> Client:
    return Client(Stdio(**_stdio(multi_servers.ours_stdio())), timeout=WAIT)


def _stdio(entry: dict[str, t.Any]) -> dict[str, t.Any]:
    return {"command": entry["command"], "args": entry["args"], "env": entry["env"], "cwd": entry.get("cwd")}


def tools_lists(log: pathlib.Path) -> int:
    """How many ``tools/list`` requests the silent server read."""
    return sum(b'"method": "tools/list"' in line or b'"method":"tools/list"' in line for line in log.read_bytes().splitlines())


def multi_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.name == "mcp_sdk.client.multi"]


def test_a_silent_server_is_asked_once_then_sits_out(tmp_path: pathlib.Path, caplog: pytest.LogCaptureFixture) -> None:
    log = tmp_path / "silent.log"
    with MultiServerClient({"silent": silent(log), "ours": ours()}, mode="legacy", list_timeout=2.0) as servers, \
            caplog.at_level(logging.WARNING, logger="mcp_sdk.client.multi"):
        assert servers.connect() == {}
        assert [tool.name for tool in servers.tools()] == OURS_TOOLS  # waits the deadline once
        assert [tool.name for tool in servers.tools()] == OURS_TOOLS  # does not ask it again
        assert tools_lists(log) == 1

        assert list(servers.sitting_out) == ["silent"]
        assert isinstance(servers.sitting_out["silent"], RequestTimeoutError)
        assert str(servers.sitting_out["silent"]) == "no tools listed within 2.0 s"
        assert multi_warnings(caplog) == [
            "MCP server 'silent' listed no tools within 2.0 s: left out, and out of listings and calls for 5 s"
        ]
        with pytest.raises(ServerUnavailableError) as raised:
            servers.call_tool("silent_anything", {})
        assert raised.value.server == "silent" and raised.value.cause is servers.sitting_out["silent"]
        assert servers.failures == {} and servers.connected == ["silent", "ours"]  # out for now, not for good
        assert servers.call_tool("ours_shout_tool", {"message": "hi"})["result"]["content"][0]["text"] == "HI"


def test_a_silent_server_is_tried_again_after_its_backoff_which_then_doubles(tmp_path: pathlib.Path,
                                                                           caplog: pytest.LogCaptureFixture) -> None:
    log = tmp_path / "silent.log"
    with MultiServerClient({"silent": silent(log), "ours": ours()}, mode="legacy", list_timeout=2.0, backoff=0.25) as servers, \
            caplog.at_level(logging.WARNING, logger="mcp_sdk.client.multi"):
        assert servers.connect() == {}
        assert [tool.name for tool in servers.tools()] == OURS_TOOLS
        assert wait_until(lambda: "silent" not in servers.sitting_out)
        assert [tool.name for tool in servers.tools()] == OURS_TOOLS
        assert tools_lists(log) == 2
        assert multi_warnings(caplog) == [
            "MCP server 'silent' listed no tools within 2.0 s: left out, and out of listings and calls for 0.25 s",
            "MCP server 'silent' listed no tools within 2.0 s: left out, and out of listings and calls for 0.5 s",
        ]


def test_a_callers_shorter_deadline_puts_no_server_out(tmp_path: pathlib.Path, caplog: pytest.LogCaptureFixture) -> None:
    log = tmp_path / "silent.log"
    with MultiServerClient({"silent": silent(log), "ours": ours()}, mode="legacy", list_timeout=WAIT) as servers, \
            caplog.at_level(logging.WARNING, logger="mcp_sdk.client.multi"):
        assert servers.connect() == {}
        assert [tool.name for tool in servers.tools(timeout=2.0)] == OURS_TOOLS
        assert servers.sitting_out == {}
        assert multi_warnings(caplog) == ["MCP server 'silent' listed no tools within 2.0 s: left out of this listing"]


def test_listings_ask_every_server_at_once(tmp_path: pathlib.Path) -> None:
    logs = [tmp_path / "one.log", tmp_path / "two.log"]
    servers = MultiServerClient({"one": silent(logs[0]), "two": silent(logs[1])}, mode="legacy", list_timeout=WAIT)
    with servers:
        assert servers.connect() == {}
        listing = threading.Thread(target=servers.tools, name="spec-listing", daemon=True)
        listing.start()
        # One after the other, "two" would be asked only when "one" ran out of time.
        assert wait_until(lambda: all(tools_lists(log) == 1 for log in logs), timeout=WAIT / 3)
        names = {thread.name for thread in threading.enumerate()}
        assert {"mcp-multi-tools-one", "mcp-multi-tools-two"} <= names
    listing.join(WAIT)  # closing the servers failed their listings
    assert not listing.is_alive()


def test_one_answer_in_time_ends_the_backoff() -> None:
    backoff = Backoff(initial=5.0, maximum=12.0)
    timeout = RequestTimeoutError("no tools listed within 1 s")
    assert backoff.due("s") and backoff.sitting_out("s") is None
    assert backoff.timed_out("s", timeout) == 5.0
    assert not backoff.due("s") and backoff.sitting_out("s") is timeout
    assert backoff.timed_out("s", timeout) <= 5.0  # found silent again while sitting out: the wait stands
    backoff.answered("s")
    assert backoff.due("s") and backoff.sitting() == {}
    assert backoff.timed_out("s", timeout) == 5.0  # starts over from the initial wait
    with pytest.raises(ValueError, match="^backoff needs 0 <= initial <= maximum, not 3 and 2$"):
        Backoff(3, 2)


def test_the_wait_doubles_up_to_its_ceiling() -> None:
    backoff = Backoff(initial=0.01, maximum=0.03)
    timeout = RequestTimeoutError("no tools listed within 1 s")
    delays = []
    for _ in range(4):
        delays.append(backoff.timed_out("s", timeout))
        assert wait_until(lambda: backoff.due("s"))
    assert delays == [0.01, 0.02, 0.03, 0.03]
