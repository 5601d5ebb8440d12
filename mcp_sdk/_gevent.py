"""Whether gevent's monkey-patching made this process's threads greenlets (the ``mcp_sdk[gevent]`` extra).

Under ``gunicorn -k gevent`` (or any program that calls ``gevent.monkey.patch_all()``), the
``threading``, ``queue``, ``socket``, ``select`` and ``time`` modules the SDK uses are gevent's: its
threads are greenlets, its locks and queues switch greenlets instead of blocking the process. The
SDK runs unchanged; only what an open connection costs differs (a greenlet, not a thread).

gevent is never imported here: a process that has not imported it cannot be patched by it.
https://www.gevent.org/api/gevent.monkey.html#gevent.monkey.is_module_patched
"""

from __future__ import annotations

import importlib
import sys


def green_threads() -> bool:
    """Whether ``threading`` is patched by gevent: threads are then greenlets of one OS thread.

    :return: False when gevent was not imported, or imported without patching ``threading``.
    """
    if "gevent" not in sys.modules:
        return False
    monkey = importlib.import_module("gevent.monkey")  # gevent is loaded: this only reads its state
    return bool(monkey.is_module_patched("threading"))


__all__ = ["green_threads"]
