"""Middleware: an ordered chain around each request's handler (``server.add_middleware``).

See :mod:`.chain` for what a middleware is. The built-ins, each in its own module:

- :class:`~.timing.Timing`: logs each request's method, target, caller, outcome and duration;
- :class:`~.rate_limit.RateLimit`: a token bucket per principal (-32029 with a retry hint);
- :class:`~.response_cache.ResponseCache`: caches list and ``resources/read`` results per
  principal, dropped on every change of what is served (and feeding 2026-07-28 ``ttlMs``);
- :class:`~.error_mapping.ErrorMapping`: exception classes to JSON-RPC errors;
- :class:`~.tracing.Tracing`: an OpenTelemetry span per request (the ``[otel]`` extra, imported
  only when a ``Tracing`` is created).
"""

from __future__ import annotations

from .chain import CallNext, Middleware, MiddlewareChain, MiddlewareFunction
from .error_mapping import ErrorMapping
from .rate_limit import RATE_LIMITED, RateLimit, RateLimitedError
from .response_cache import ResponseCache
from .timing import Timing
from .tracing import Tracing

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
