"""Middleware: an ordered chain around each request's handler (``server.add_middleware``).

See :mod:`.chain` for what a middleware is. The built-ins, each in its own module:

- :class:`~.timing.Timing`: logs each request's method, target, caller, outcome and duration;
- :class:`~.rate_limit.RateLimit`: a token bucket per principal or client address (-32029 with a
  retry hint), in this process or shared through Redis;
- :class:`~.response_cache.ResponseCache`: caches list and ``resources/read`` results per
  caller (principal, scopes, claims) and whatever else can change them, dropped on every change
  of what is served (and feeding 2026-07-28 ``ttlMs``);
- :class:`~.error_mapping.ErrorMapping`: exception classes to JSON-RPC errors;
- :class:`~.tracing.Tracing`: an OpenTelemetry span per request (the ``[otel]`` extra, imported
  only when a ``Tracing`` is created).

The built-ins' modules load on first use (``from mcp_sdk.server.middleware import RateLimit``
imports :mod:`.rate_limit` then): a server that uses none of them, as most do, starts without them.
"""

from __future__ import annotations

import typing as t

from ..._lazy_names import lazy_names
from .chain import CallNext, Middleware, MiddlewareChain, MiddlewareFunction

if t.TYPE_CHECKING:
    from .error_mapping import ErrorMapping as ErrorMapping
    from .rate_limit import RATE_LIMITED as RATE_LIMITED
    from .rate_limit import RateLimit as RateLimit
    from .rate_limit import RateLimitedError as RateLimitedError
    from .response_cache import ResponseCache as ResponseCache
    from .timing import Timing as Timing
    from .tracing import Tracing as Tracing

#: The built-ins, by name, and the module of each.
_BUILT_INS = {
    "ErrorMapping": "error_mapping",
    "RATE_LIMITED": "rate_limit",
    "RateLimit": "rate_limit",
    "RateLimitedError": "rate_limit",
    "ResponseCache": "response_cache",
    "Timing": "timing",
    "Tracing": "tracing",
}

__getattr__ = lazy_names(__name__, _BUILT_INS, globals())


__all__ = [
    "CallNext",
    "ErrorMapping",
    "Middleware",
    "MiddlewareChain",
    "MiddlewareFunction",
    "RATE_LIMITED",
    "RateLimit",
    "RateLimitedError",
    "ResponseCache",
    "Timing",
    "Tracing",
]
