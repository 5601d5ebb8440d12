"""Cancellation: a thread-safe, one-way flag with callbacks."""

from __future__ import annotations

import threading

import pytest

from mcp_sdk import Cancellation, CancelledError
from spec.support.server_helpers import TIMEOUT, in_background


def test_a_new_token_is_not_cancelled():
    token = Cancellation()
    assert token.cancelled() is False
    token.raise_if_cancelled()
    assert token.reason is None
    assert "active" in repr(token)


def test_cancel_once():
    token = Cancellation()
    assert token.cancel("user") is True
    assert token.cancel("again") is False
    assert (token.cancelled(), token.reason) == (True, "user")
    assert "cancelled" in repr(token)


def test_raise_if_cancelled_raises_with_the_reason():
    token = Cancellation()
    token.cancel("stop")
    with pytest.raises(CancelledError) as raised:
        token.raise_if_cancelled()
    assert raised.value.reason == "stop"


def test_callbacks_run_once_on_cancel():
    token = Cancellation()
    calls = []
    token.add_callback(calls.append)
    token.cancel()
    token.cancel()
    assert calls == [token]


def test_a_callback_added_after_cancel_runs_at_once():
    token = Cancellation()
    token.cancel()
    calls = []
    unregister = token.add_callback(calls.append)
    assert calls == [token]
    unregister()


def test_an_unregistered_callback_does_not_run():
    token = Cancellation()
    calls = []
    unregister = token.add_callback(calls.append)
    unregister()
    unregister()
    token.cancel()
    assert calls == []


def test_wait_returns_when_cancelled_from_another_thread():
    token = Cancellation()
    waiting = threading.Event()

    def wait():
        waiting.set()
        return token.wait(TIMEOUT)

    result = in_background(wait)
    assert waiting.wait(TIMEOUT)
    token.cancel()
    assert result.result(TIMEOUT) is True


def test_wait_times_out_uncancelled():
    assert Cancellation().wait(0.01) is False


def test_cancel_from_many_threads_wins_once():
    token = Cancellation()
    calls = []
    token.add_callback(calls.append)
    results = [in_background(token.cancel) for _ in range(8)]
    assert sorted(r.result(TIMEOUT) for r in results) == [False] * 7 + [True]
    assert len(calls) == 1
