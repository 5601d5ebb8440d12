"""Exception classes to JSON-RPC errors (FastMCP's ``ErrorHandlingMiddleware``, as a table)."""

from __future__ import annotations

import typing as t

from ...errors import RequestHandlerError
from .chain import CallNext, Middleware

if t.TYPE_CHECKING:
    from ..request import Request

#: What an exception class maps to: a code (the message is the exception's text), a
#: (code, message) pair, or a function of the exception returning the error to raise.
Mapping = t.Union[int, t.Tuple[int, str], t.Callable[[BaseException], RequestHandlerError]]


class ErrorMapping(Middleware):
    """Answers the exceptions a handler raises with the JSON-RPC errors ``mapping`` names.

    The first class in ``mapping`` that the exception is an instance of wins; other
    exceptions pass on (an unmapped one is reported and answered -32603 as before).
    A tool's own exceptions are already ``isError`` results (the specification's tool
    errors), so this applies to prompts, resource reads, completions and custom methods.

    :param mapping: exception class -> code, (code, message), or ``fn(error) -> RequestHandlerError``.
    :param report: also give mapped exceptions to the server's ``exception_reporter``.
    """

    def __init__(self, mapping: t.Mapping[type[BaseException], Mapping], *, report: bool = False) -> None:
        for error_class in mapping:
            if not (isinstance(error_class, type) and issubclass(error_class, BaseException)):
                raise TypeError(f"ErrorMapping keys must be exception classes, not {error_class!r}")
        self.mapping = dict(mapping)
        self.report = report

    def __call__(self, request: Request, call_next: CallNext) -> t.Any:
        try:
            return call_next(request)
        except RequestHandlerError:
            raise
        except Exception as error:
            for error_class, target in self.mapping.items():
                if isinstance(error, error_class):
                    if self.report:
                        request.session.server.report_exception(error, {"request": request.message})
                    raise _error(target, error) from error
            raise


def _error(target: Mapping, error: BaseException) -> RequestHandlerError:
    if isinstance(target, int):
        return RequestHandlerError(str(error) or type(error).__name__, code=target)
    if isinstance(target, tuple):
        return RequestHandlerError(target[1], code=target[0])
    return target(error)


__all__ = ["ErrorMapping", "Mapping"]
