"""What a cached answer depends on: the key of a :class:`~.response_cache.ResponseCache` entry.

Two requests share an entry only when everything the SDK knows that can change the answer
is the same:

- the method and its params, ``_meta`` included but for the fields that differ on every
  request and change nothing answered (progress token, trace context, the envelope's log level);
- the protocol version and the era it is served in (2025 session or 2026-07-28 request);
- the caller: issuer, subject, client, granted scopes, audiences, and every other claim of
  its token but those that change with each token of the same grant (:data:`PER_TOKEN_CLAIMS`);
  a handler may answer by a role or tenant claim as well as by a scope;
- the client: the capabilities and ``clientInfo`` it declared (a session's, or the envelope's);
- what the server serves: its registry's generation (items, enabled and disabled ones, tag
  filters, mounted servers);
- whatever else the operator says the answers vary by (``ResponseCache(vary=fn)``).

The whole is hashed (SHA-256): a key's size does not grow with what a client sends.
"""

from __future__ import annotations

import hashlib
import json
import typing as t

if t.TYPE_CHECKING:
    from ..auth import Principal
    from ..request import Request

#: Claims that differ between two tokens of the same grant and change no answer.
PER_TOKEN_CLAIMS = frozenset({"exp", "iat", "nbf", "jti", "auth_time"})
#: ``_meta`` fields that differ on every request and change no answer.
PER_REQUEST_META = frozenset(
    {"progressToken", "traceparent", "tracestate", "baggage", "io.modelcontextprotocol/logLevel"}
)


class CacheKey(t.NamedTuple):
    """A cache entry's key: the method and URI in the clear (a change drops entries by them),
    the rest as a digest."""

    method: str
    #: The ``uri`` param of a ``resources/read`` (None for a list).
    uri: str | None
    digest: bytes


def cache_key(request: Request, generation: int, varies_by: t.Any = None) -> CacheKey | None:
    """The key of ``request``'s answer, or None when it cannot be told apart safely (params
    that are not an object, a claim or ``varies_by`` that is not JSON): then it is not cached.

    :param request: the request.
    :param generation: the registry's generation read before the request is answered.
    :param varies_by: the operator's ``vary(request)`` value (JSON), None without one.
    """
    params = request.params
    if params is None:
        params = {}
    if type(params) is not dict:
        return None
    session = request.session
    meta = params.get("_meta")
    if type(meta) is dict:
        meta = {name: value for name, value in meta.items() if name not in PER_REQUEST_META}
    parts = [
        request.method,
        {name: value for name, value in params.items() if name != "_meta"},
        meta,
        session.version,
        session.serves_modern,
        _caller(request.principal),
        session.client_capabilities,
        session.client_info,
        generation,
        varies_by,
    ]
    try:
        text = json.dumps(parts, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        return None
    uri = params.get("uri")
    return CacheKey(request.method, uri if type(uri) is str else None, hashlib.sha256(text.encode()).digest())


def _caller(principal: Principal | None) -> t.Any:
    if principal is None:
        return None
    claims = {name: value for name, value in principal.claims.items() if name not in PER_TOKEN_CLAIMS}
    return [*principal.key, sorted(principal.scopes), list(principal.audience), claims]


__all__ = ["PER_REQUEST_META", "PER_TOKEN_CLAIMS", "CacheKey", "cache_key"]
