"""Children that Ctrl-C (SIGINT) can stop, even when pytest itself runs as a background job.

A shell starts a background job (``pytest ... &``) with SIGINT ignored, every child inherits
that, and Python then installs no KeyboardInterrupt handler: a test sending SIGINT would wait
forever. :func:`python_command` restores the default handler in the child before anything runs,
as a terminal would have it.
"""

from __future__ import annotations

import sys

# Run in the child as ``python -c _BOOTSTRAP SCRIPT ARGS...`` or ``... -m MODULE ARGS...``.
_BOOTSTRAP = """
import os, runpy, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
del sys.argv[0]
if sys.argv[0] == "-m":
    del sys.argv[0]
    runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
else:
    sys.path[0] = os.path.dirname(os.path.abspath(sys.argv[0]))  # as `python SCRIPT` has it
    runpy.run_path(sys.argv[0], run_name="__main__")
"""


def python_command(*args: str) -> list[str]:
    """``[python, *args]`` (a script and its arguments, or ``-m module ...``), SIGINT's default handler restored."""
    return [sys.executable, "-c", _BOOTSTRAP, *args]


__all__ = ["python_command"]
