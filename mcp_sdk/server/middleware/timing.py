"""Timing and logging of each request (FastMCP's ``TimingMiddleware`` and ``LoggingMiddleware``)."""

from __future__ import annotations

import logging
import time
import typing as t

from .chain import CallNext, Middleware

if t.TYPE_CHECKING:
    from ..request import Request

#: Where :class:`Timing` logs by default.
REQUEST_LOGGER = logging.getLogger("mcp_sdk.server.requests")


class Timing(Middleware):
    """Logs one line per request: method, target (tool, prompt or URI), caller, outcome and
    milliseconds; and calls ``record(request, seconds, error)`` when given (metrics).

    ``error`` is None for a result, else the exception that ended the request (a
    :class:`~mcp_sdk.errors.RequestHandlerError` is an error response; a tool's own
    failure is an ``isError`` result and counts as a result).

    :param logger: where to log (default ``mcp_sdk.server.requests``); None: do not log.
    :param level: the level of the lines.
    :param record: ``fn(request, seconds, error)``, called after each request.
    """

    def __init__(
        self,
        logger: logging.Logger | None = REQUEST_LOGGER,
        level: int = logging.INFO,
        record: t.Callable[[Request, float, BaseException | None], None] | None = None,
    ) -> None:
        self.logger = logger
        self.level = level
        self.record = record

    def __call__(self, request: Request, call_next: CallNext) -> t.Any:
        started = time.perf_counter()
        error: BaseException | None = None
        try:
            return call_next(request)
        except BaseException as raised:
            error = raised
            raise
        finally:
            seconds = time.perf_counter() - started
            logger = self.logger
            if logger is not None and logger.isEnabledFor(self.level):
                logger.log(
                    self.level,
                    "%s%s by %s: %s in %.1f ms",
                    request.method,
                    _target(request),
                    _caller(request),
                    "ok" if error is None else type(error).__name__,
                    seconds * 1000,
                )
            if self.record is not None:
                self.record(request, seconds, error)


def _target(request: Request) -> str:
    params = request.params
    if type(params) is not dict:
        return ""
    target = params.get("name", params.get("uri"))
    return f" {target}" if type(target) is str else ""


def _caller(request: Request) -> str:
    principal = request.principal
    if principal is not None:
        return str(principal.subject or principal.client_id or "principal")
    return f"session {request.session.session_id}" if request.session.session_id else "anonymous"


__all__ = ["REQUEST_LOGGER", "Timing"]
