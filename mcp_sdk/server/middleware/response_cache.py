"""Caching of list and ``resources/read`` results (FastMCP's ``ResponseCachingMiddleware``).

An entry is kept for ``ttl`` seconds under a key of everything that can change its answer
(:mod:`.cache_key`: method and params, protocol version and era, the caller with its scopes and
claims, the client's capabilities, what the server serves), so it only ever answers a
request that would have been answered the same. It is dropped as soon as what it shows may
have changed: on
``list_changed`` of its kind, on ``resources/updated`` of its URI (both carried by the
server's subscription bus, so a change on another Redis worker counts too), and on
any change to the server's registry (added, removed, enabled, disabled, filtered).
On a 2026-07-28 request, the result carries as ``ttlMs`` the time the entry has left.
"""

from __future__ import annotations

import threading
import time
import typing as t

from ... import methods
from ... import protocol_version as versions
from .cache_key import CacheKey, cache_key
from .chain import CallNext, Middleware

if t.TYPE_CHECKING:
    from ..core import ServerCore
    from ..request import Request
    from ..subscriptions import Event, SubscriptionBus

#: The methods cached by default: the lists and reads.
CACHED_METHODS = frozenset(
    {methods.TOOLS_LIST, methods.PROMPTS_LIST, methods.RESOURCES_LIST, methods.RESOURCES_TEMPLATES_LIST, methods.RESOURCES_READ}
)
#: Which cached methods a list change of a kind makes stale.
_STALE_ON = {
    "tools": frozenset({methods.TOOLS_LIST}),
    "prompts": frozenset({methods.PROMPTS_LIST}),
    "resources": frozenset({methods.RESOURCES_LIST, methods.RESOURCES_TEMPLATES_LIST, methods.RESOURCES_READ}),
}

#: What ``vary(request)`` returns: more of what an answer depends on, as JSON.
Vary = t.Callable[["Request"], t.Any]


class ResponseCache(Middleware):
    """Answers repeated list and read requests from memory (see the module docstring).

    Entries are per caller: the authenticated principal with its scopes and claims (a token
    with fewer scopes never gets what one with more was answered). Lists are the SDK's own
    answers, so callers without authentication share them. A ``resources/read`` is your
    handler's answer, which may depend on what the cache cannot see (the host's login cookie,
    a header): one by a caller without authentication over HTTP is cached only when the
    resource's ``cache_scope`` (or the server's) is ``"public"``, or when ``vary`` is given.

    :param ttl: seconds an entry is served (> 0).
    :param methods: the methods cached (a subset of :data:`CACHED_METHODS`).
    :param max_entries: entries kept at most (the oldest go first).
    :param vary: ``fn(request)``: what else your answers depend on (a header, a cookie's
        user), as a JSON value that joins the key; a value that is not JSON is not cached.
    :param clock: seconds, monotonic (for tests).
    :raises ValueError: ``ttl`` not positive, or a method that is not a list or read.
    """

    def __init__(
        self,
        ttl: float = 60.0,
        methods: t.Iterable[str] = CACHED_METHODS,
        *,
        max_entries: int = 1000,
        vary: Vary | None = None,
        clock: t.Callable[[], float] = time.monotonic,
    ) -> None:
        if not ttl > 0:
            raise ValueError(f"ttl must be positive, not {ttl!r}")
        cached = frozenset(methods)
        if not cached <= CACHED_METHODS:
            raise ValueError(f"only list and read results can be cached, not {sorted(cached - CACHED_METHODS)}")
        self.ttl = float(ttl)
        self.methods = cached
        self.max_entries = max_entries
        self.vary = vary
        self._clock = clock
        self._lock = threading.Lock()
        self._entries: dict[CacheKey, tuple[float, t.Any]] = {}  # key -> (expires at, result); insertion ordered
        self._epoch = 0  # bumped on each invalidation: a result computed across one is not stored
        self._server: ServerCore | None = None
        self._bus: SubscriptionBus | None = None
        self._unsubscribe: t.Callable[[], None] | None = None
        self._generation = -1

    def bind(self, server: ServerCore) -> None:
        self._server = server

    def __call__(self, request: Request, call_next: CallNext) -> t.Any:
        method = request.method
        if method not in self.methods or not self._may_cache(request):
            return call_next(request)
        generation = self._follow_changes()
        key = cache_key(request, generation, self.vary(request) if self.vary is not None else None)
        if key is None:
            return call_next(request)
        now = self._clock()
        with self._lock:
            entry = self._entries.get(key)
            epoch = self._epoch
        if entry is not None and entry[0] > now:
            request.data["cache"] = "hit"
            return self._answer(request, entry[1], entry[0] - now)
        result = call_next(request)
        if type(result) is not dict:  # an ask for input (MRTR), a task: never cached
            return result
        expires = self._clock() + self.ttl
        with self._lock:
            if epoch == self._epoch:
                self._entries.pop(key, None)
                self._entries[key] = (expires, result)
                while len(self._entries) > self.max_entries:
                    del self._entries[next(iter(self._entries))]
        request.data["cache"] = "miss"
        return self._answer(request, result, self.ttl)

    def clear(self) -> None:
        """Drop every entry."""
        self._drop(None, None)

    def close(self) -> None:
        """Stop following the server's changes (the entries are dropped)."""
        with self._lock:
            unsubscribe, self._unsubscribe, self._bus = self._unsubscribe, None, None
        if unsubscribe is not None:
            unsubscribe()
        self.clear()

    def _answer(self, request: Request, result: dict[str, t.Any], left: float) -> dict[str, t.Any]:
        if not versions.is_modern(request.session.version):
            return result
        return {**result, "ttlMs": max(0, int(left * 1000))}  # a copy: the entry itself is shared

    def _may_cache(self, request: Request) -> bool:
        """Whether ``request``'s answer can be told apart from other callers' (see the class docstring)."""
        if request.method != methods.RESOURCES_READ or request.principal is not None or self.vary is not None:
            return True
        if request.http_request is None:  # stdio, or in-process: one client
            return True
        return self._scope(request.params) == "public"

    def _scope(self, params: t.Any) -> str | None:
        """The ``cacheScope`` of a read's answer: its resource's, else the server's."""
        server = self._server
        uri = params.get("uri") if type(params) is dict else None
        if server is None or type(uri) is not str:
            return None
        resource = server.registry.resource(uri)
        return (resource.cache_scope if resource is not None else None) or server.cache_scope

    def _follow_changes(self) -> int:
        """Subscribe to the server's bus (a transport may replace it, with Redis's) and drop
        everything when its registry changed; returns the registry's generation."""
        server = self._server
        if server is None:
            return -1
        bus = server.subscriptions
        if bus is not self._bus:
            with self._lock:  # one thread subscribes to a new bus; the others see it taken
                renew = bus is not self._bus
                stale = self._unsubscribe if renew else None
                if renew:
                    self._unsubscribe, self._bus = None, bus
            if renew:
                if stale is not None:
                    stale()
                unsubscribe = bus.subscribe(self._changed)  # outside the lock: a Redis bus may connect
                with self._lock:
                    self._unsubscribe = unsubscribe
                self._drop(None, None)
        generation = server.registry.generation
        if generation != self._generation:
            self._generation = generation
            self._drop(None, None)
        return generation

    def _changed(self, event: Event) -> None:
        kind, uri = event
        if kind == "resource" and uri is not None:
            self._drop(frozenset({methods.RESOURCES_READ}), uri)
        elif kind in _STALE_ON:
            self._drop(_STALE_ON[kind], None)

    def _drop(self, stale_methods: frozenset[str] | None, uri: str | None) -> None:
        with self._lock:
            self._epoch += 1
            if stale_methods is None:
                self._entries.clear()
                return
            for key in [key for key in self._entries if key.method in stale_methods and (uri is None or key.uri == uri)]:
                del self._entries[key]


__all__ = ["CACHED_METHODS", "ResponseCache", "Vary"]
