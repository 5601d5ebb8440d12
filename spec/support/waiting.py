"""Polling for a condition another thread or process brings about, with a bound."""

from __future__ import annotations

import time
import typing as t

#: Generous bound on any wait (the machine is shared and slow at times).
WAIT = 30.0


def wait_until(condition: t.Callable[[], bool], timeout: float = WAIT, interval: float = 0.02) -> bool:
    """Poll ``condition`` every ``interval`` seconds until it holds or ``timeout`` seconds pass.

    :return: whether it held (its value at the deadline).
    """
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return condition()
        time.sleep(interval)
    return True


__all__ = ["WAIT", "wait_until"]
