"""``python -m mcp_sdk``: the ``mcp-sdk`` command line (see :mod:`mcp_sdk.cli`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
