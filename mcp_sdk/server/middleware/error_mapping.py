"""Exception classes to JSON-RPC errors (FastMCP's ``ErrorHandlingMiddleware``, as a table)."""

from __future__ import annotations

import typing as t

from ... import error_codes
from ...errors import MCPError, RequestHandlerError
from .chain import CallNext, Middleware

if t.TYPE_CHECKING:
    from ..request import Request

#: What an exception class maps to: a code (the message is the code's standard one, or the
#: exception's text when it is safe to show), a (code, message) pair, or a function of the
#: exception returning the error to raise.
Mapping = t.Union[int, t.Tuple[int, str], t.Callable[[BaseException], RequestHandlerError]]


class ErrorMapping(Middleware):
    """Answers the exceptions a handler raises with the JSON-RPC errors ``mapping`` names.

    The first class in ``mapping`` that the exception is an instance of wins; other
    exceptions pass on (an unmapped one is reported and answered -32603 as without this middleware).
    A tool's own exceptions are already ``isError`` results (the specification's tool
    errors), so this applies to prompts, resource reads, completions and custom methods.

    A class mapped to a bare code is answered with that code and the SDK's own message for
    it (``"Invalid params"`` for -32602, ``"Error"`` for a code of your own): an exception's
    text often carries what the caller must not see (``int()`` and pydantic quote the value
    they refused, a database driver its URL). The exception's text is the message only for
    an :class:`~mcp_sdk.MCPError` (the SDK's own words) or an instance of a class in ``expose``.

    :param mapping: exception class -> code, (code, message), or ``fn(error) -> RequestHandlerError``.
    :param report: also give mapped exceptions to the server's ``exception_reporter``.
    :param expose: exception classes whose text is safe to show the caller (yours, say).
    :raises TypeError: a key of ``mapping`` or an entry of ``expose`` is not an exception class.
    """

    def __init__(
        self,
        mapping: t.Mapping[type[BaseException], Mapping],
        *,
        report: bool = False,
        expose: t.Iterable[type[BaseException]] = (),
    ) -> None:
        for error_class in mapping:
            if not _is_exception_class(error_class):
                raise TypeError(f"ErrorMapping keys must be exception classes, not {error_class!r}")
        exposed = tuple(expose)
        for error_class in exposed:
            if not _is_exception_class(error_class):
                raise TypeError(f"ErrorMapping expose= takes exception classes, not {error_class!r}")
        self.mapping = dict(mapping)
        self.report = report
        #: The classes whose text a bare-code mapping shows (besides :class:`~mcp_sdk.MCPError`).
        self.expose: tuple[type[BaseException], ...] = (MCPError, *exposed)

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
                    raise self._error(target, error) from error
            raise

    def _error(self, target: Mapping, error: BaseException) -> RequestHandlerError:
        if isinstance(target, int):
            shown = str(error) if isinstance(error, self.expose) else ""
            return RequestHandlerError(shown or error_codes.MESSAGES.get(target, "Error"), code=target)
        if isinstance(target, tuple):
            return RequestHandlerError(target[1], code=target[0])
        return target(error)


def _is_exception_class(value: t.Any) -> bool:
    return isinstance(value, type) and issubclass(value, BaseException)


__all__ = ["ErrorMapping", "Mapping"]
