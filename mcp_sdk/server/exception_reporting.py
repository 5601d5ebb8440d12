"""Where a server's errors go: the configured ``exception_reporter``, else its log."""

from __future__ import annotations

import logging
import typing as t

logger = logging.getLogger("mcp_sdk.server")

#: ``reporter(error, context)``: the ``exception_reporter`` of :class:`~mcp_sdk.Configuration`.
Reporter = t.Callable[[BaseException, t.Dict[str, t.Any]], t.Any]


def report(reporter: Reporter | None, error: BaseException, context: dict[str, t.Any]) -> None:
    """Give ``error`` to ``reporter``; log it when there is none, or when the reporter fails.

    :param reporter: the configured ``exception_reporter`` (None: log ``error``).
    :param error: the exception.
    :param context: where it happened; its first key names it in the log.
    """
    if reporter is None:
        logger.error("MCP server error (%s)", next(iter(context), "unknown"), exc_info=error)
        return
    try:
        reporter(error, context)
    except Exception:
        logger.exception("exception_reporter failed")


__all__ = ["Reporter", "report"]
