"""Where the CLI looks for modules: the standard library and installed packages first.

Imports nothing but :mod:`os` and :mod:`sys`, so it runs before anything it protects is imported.
"""

from __future__ import annotations

import os
import sys


def search_current_directory_last() -> None:
    """Let the standard library and installed packages come before the current directory.

    ``python -m mcp_sdk`` puts the current directory first on :data:`sys.path`, so a ``queue.py``
    or ``secrets.py`` there would replace the standard library's module for the SDK itself.
    It moves to the end instead; the ``mcp-sdk`` script, which does not search the
    current directory at all, gets it at the end too, so ``mcp-sdk run module:server`` finds
    ``module`` there with either.
    """
    here = os.getcwd()
    if sys.path and sys.path[0] in ("", here):
        sys.path.append(sys.path.pop(0))
    elif "" not in sys.path and here not in sys.path:
        sys.path.append(here)


__all__ = ["search_current_directory_last"]
