"""``Server.proxy`` keeps its callers apart (review findings 1 and 8): a proxy served over HTTP on
127.0.0.1 in front of a stdio remote (spec/support/lingering_server.py), two callers, Alice and Bob.

- Alice cancels her ``audit``; the remote, for which cancellation is advisory, goes on and logs her
  record, asks for a sampling about it and elicits her bank password. Bob, the only caller then in
  flight, gets none of it, and none of his answers reach her work: the remote's asks fail.
- Alice answers the remote's elicitation with her API key; Bob's next call does not act with it.
- The remote sessions one caller can make the proxy open are bounded, and closed when the caller's
  session ends or sits idle.
"""

from __future__ import annotations

import os
import sys
import threading
import typing as t
from pathlib import Path

import pytest

from mcp_sdk import CancelledError, Client, Server
from mcp_sdk.cancellation import Cancellation
from mcp_sdk.client import HTTP, Stdio
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.http_server import ROOT, LiveServer
from spec.support.waiting import WAIT, wait_until

MODERN = "modern"  # our Client speaks 2026-07-28
REMOTE = ROOT / "spec" / "support" / "lingering_server.py"


class Caller:
    """One client of the proxy, over HTTP, answering and recording whatever the proxy sends it."""

    def __init__(self, name: str, url: str, mode: str) -> None:
        self.name = name
        self.client = Client(HTTP(url), timeout=WAIT)
        self.logs: list[t.Any] = []
        self.asked: list[tuple[str, str]] = []
        self.in_flight = threading.Event()
        self.client.on_sampling(self._sample)
        self.client.on_elicitation(self._elicit)
        self.client.on_log_message(lambda params: self.logs.append(params["data"]))
        self.client.on_progress(lambda params: self.in_flight.set())
        self.client.connect(mode=mode)
        self.client.log_level = "debug"

    def _sample(self, params: dict[str, t.Any]) -> dict[str, t.Any]:
        self.asked.append(("sampling", params["messages"][0]["content"]["text"]))
        return {"role": "assistant", "content": {"type": "text", "text": f"{self.name}'s summary"}, "model": "m"}

    def _elicit(self, params: dict[str, t.Any]) -> dict[str, t.Any]:
        self.asked.append(("elicitation", params["message"]))
        field = next(iter(params["requestedSchema"]["properties"]))
        secret = "ALICE-API-KEY" if self.name == "alice" and field == "api_key" else f"{self.name}'s {field}"
        return {"action": "accept", "content": {field: secret}}

    def call_in_flight(self, name: str, arguments: dict[str, t.Any], stop: Cancellation) -> threading.Thread:
        """Call ``name`` on a thread until ``stop`` cancels it; returns once the call is in flight (its first progress)."""
        self.in_flight.clear()

        def call() -> None:
            with pytest.raises(CancelledError):
                self.client.call_tool(name, arguments, progress_token=f"{self.name}-{name}", cancellation=stop)

        thread = threading.Thread(target=call, name=f"proxy-isolation-{self.name}", daemon=True)
        thread.start()
        assert self.in_flight.wait(WAIT), f"{self.name}'s {name} never started"
        return thread


def acts(caller: Caller) -> bool:
    """Whether ``caller``'s call of ``act`` went through (False: the proxy had no remote session to spare)."""
    try:
        response = caller.client.call_tool("act")
    except Client.ServerError as error:
        assert "max_remote_sessions" in error.message
        return False
    assert response["result"]["content"] == [{"type": "text", "text": "acting with api_key=None"}]
    return True


def alive(pid: int) -> bool:
    """Whether the process ``pid`` runs (the proxy reaps the remote processes it ends)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def journal_lines(journal: Path) -> list[str]:
    return journal.read_text().splitlines() if journal.exists() else []


class Proxied:
    """A proxy of the lingering remote (stdio, 2025), served over HTTP on 127.0.0.1."""

    def __init__(self, journal: Path, **options: t.Any) -> None:
        self.catalog = Client(Stdio(command=sys.executable, args=[str(REMOTE), str(journal)]), timeout=WAIT)
        self.transport = StreamableHTTPTransport(Server.proxy(self.catalog, mode="legacy", name="proxy", **options))
        self.live = LiveServer(self.transport, closeables=[self.transport])
        self.callers: list[Caller] = []

    def caller(self, name: str, mode: str) -> Caller:
        caller = Caller(name, self.live.url, mode)
        self.callers.append(caller)
        return caller

    def __enter__(self) -> Proxied:
        return self

    def __exit__(self, *exc_info: t.Any) -> None:
        for caller in self.callers:
            caller.client.close()
        self.live.stop()
        self.catalog.close()


@pytest.mark.parametrize("mode", ["legacy", MODERN])
def test_what_the_remote_does_after_alice_cancels_never_reaches_bob(mode: str, tmp_path: Path) -> None:
    journal = tmp_path / "journal"
    with Proxied(journal) as proxied:
        alice, bob = proxied.caller("alice", mode), proxied.caller("bob", mode)
        bob_stop, alice_stop = Cancellation(), Cancellation()
        bob_call = bob.call_in_flight("hold", {}, bob_stop)
        alice_call = alice.call_in_flight("audit", {"owner": "alice"}, alice_stop)
        alice_stop.cancel("alice changed her mind")
        alice_call.join(WAIT)
        assert wait_until(lambda: any(line.startswith("audit of alice goes on") for line in journal_lines(journal)))
        pid = int(next(line for line in journal_lines(journal) if line.startswith("audit of alice goes on")).split()[6])
        journal.with_suffix(".go").touch()
        # Bob stays in flight until Alice's remote has done what it does after her cancellation (or
        # its process was ended: the proxy closes a remote session whose call was abandoned).
        assert wait_until(lambda: "audit of alice done" in journal_lines(journal) or not alive(pid))
        bob_stop.cancel("done")
        bob_call.join(WAIT)

        assert (bob.logs, bob.asked) == ([], [])
        assert alice.asked == []  # her call was over: nobody is asked on its behalf
        assert [line for line in journal_lines(journal) if "answered" in line or "bob" in line] == []


@pytest.mark.parametrize("mode", ["legacy", MODERN])
def test_alices_api_key_given_to_the_remote_never_serves_bob(mode: str, tmp_path: Path) -> None:
    with Proxied(tmp_path / "journal") as proxied:
        alice, bob = proxied.caller("alice", mode), proxied.caller("bob", mode)
        assert alice.client.call_tool("login")["result"]["content"] == [{"type": "text", "text": "logged in"}]
        assert alice.asked == [("elicitation", "Your API key?")]
        assert bob.client.call_tool("act")["result"]["content"] == [{"type": "text", "text": "acting with api_key=None"}]
        if mode == "legacy":  # a 2025 session keeps its remote session: Alice's own next call still has her key
            expected = "acting with api_key=ALICE-API-KEY"
            assert alice.client.call_tool("act")["result"]["content"] == [{"type": "text", "text": expected}]


def test_remote_sessions_are_bounded_and_closed_with_their_callers(tmp_path: Path) -> None:
    """At most ``max_remote_sessions`` open: past it, with every one carrying a call, a call fails at
    once with a clear error; a caller's remote session (here, a process) ends when the caller's
    session ends, or after it sits idle."""
    journal = tmp_path / "journal"
    with Proxied(journal, max_remote_sessions=2, remote_session_idle_timeout=3.0) as proxied:
        first, second, third = (proxied.caller(name, "legacy") for name in ("first", "second", "third"))
        first_stop, second_stop = Cancellation(), Cancellation()
        holds = [first.call_in_flight("hold", {}, first_stop), second.call_in_flight("hold", {}, second_stop)]
        with pytest.raises(Client.ServerError) as refused:
            third.client.call_tool("act")
        assert (refused.value.code, refused.value.message) == (
            -32603,
            "The proxy has 2 sessions with the remote server open, each carrying a call (max_remote_sessions); try again later",
        )
        first_stop.cancel("done")
        second_stop.cancel("done")
        for hold in holds:
            hold.join(WAIT)

        def opened() -> list[str]:
            return [line for line in journal_lines(journal) if line.startswith("open ")]

        def closed() -> list[str]:
            return [line for line in journal_lines(journal) if line.startswith("closed ")]

        # A cancelled call's remote session takes no more calls and closes (the catalog stays open).
        assert wait_until(lambda: len(closed()) == 2) and len(opened()) == 3
        # The slots are free once the proxy has reaped the processes, a moment after they wrote their last line.
        assert wait_until(lambda: acts(first), interval=0.1) and acts(second)
        first.client.close()  # ends its HTTP session: its remote process ends too
        assert wait_until(lambda: len(closed()) == 3)
        # Idle past remote_session_idle_timeout: second's process ends; a new call opens a new one.
        assert wait_until(lambda: len(closed()) == 4)
        assert second.client.call_tool("act")["result"]["content"] == [{"type": "text", "text": "acting with api_key=None"}]
        assert len(opened()) == 6


def test_sessions_one_client_opened_and_left_do_not_lock_others_out(tmp_path: Path) -> None:
    """At the bound, a newcomer's call closes the remote session left idle longest instead of being
    refused until the idle ones expire; the caller it belonged to gets a new one on its next call."""
    journal = tmp_path / "journal"
    with Proxied(journal, max_remote_sessions=2) as proxied:
        hogs = [proxied.caller(f"hog{number}", "legacy") for number in range(2)]
        for hog in hogs:
            assert acts(hog)  # both slots taken, both idle now
        newcomer = proxied.caller("newcomer", "legacy")
        assert acts(newcomer)

        def closed() -> list[str]:
            return [line for line in journal_lines(journal) if line.startswith("closed ")]

        assert len(closed()) == 1  # hog0's, the idle one of longest: closed before the newcomer's opened
        assert acts(hogs[0])  # a new remote session for hog0, in hog1's room (idle longest now)
        assert len(closed()) == 2
