"""The client's cache of results that carry ``ttlMs`` (MCP 2026-07-28, SEP-2549).

A result is fresh for ``ttlMs`` milliseconds after it arrived; until then the
same request (method and params, ``_meta`` aside) is answered from here. A
``"private"`` result is kept per authorization context (a different access
token never sees it); the matching ``list_changed`` or ``resources/updated``
notification drops entries at once.

https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching
"""

from __future__ import annotations

import copy
import json
import threading
import time
import typing as t

from .. import methods

#: The requests whose results may be cached.
CACHEABLE = frozenset(
    {methods.TOOLS_LIST, methods.PROMPTS_LIST, methods.RESOURCES_LIST, methods.RESOURCES_TEMPLATES_LIST,
     methods.RESOURCES_READ}
)
#: Which cached methods each notification makes stale.
_INVALIDATES = {
    methods.NOTIFICATIONS_TOOLS_LIST_CHANGED: (methods.TOOLS_LIST,),
    methods.NOTIFICATIONS_PROMPTS_LIST_CHANGED: (methods.PROMPTS_LIST,),
    methods.NOTIFICATIONS_RESOURCES_LIST_CHANGED: (methods.RESOURCES_LIST, methods.RESOURCES_TEMPLATES_LIST),
}

_Key = t.Tuple[str, str, t.Optional[str]]


class ResultCache:
    """Fresh results by (method, params, auth context); thread-safe, at most ``max_entries`` kept.

    :param auth_context: returns a name for the credentials requests carry now
        (the HTTP transport's ``auth_context``); ``private`` entries are kept per name.
    """

    def __init__(self, max_entries: int = 256, auth_context: t.Callable[[], str | None] | None = None) -> None:
        self.max_entries = max_entries
        self._auth_context = auth_context
        self._lock = threading.Lock()
        self._entries: dict[_Key, tuple[float, dict[str, t.Any]]] = {}

    @staticmethod
    def _params_key(params: t.Mapping[str, t.Any] | None) -> str:
        return json.dumps({k: v for k, v in (params or {}).items() if k != "_meta"}, sort_keys=True, default=str)

    def _auth(self) -> str:
        return "private:" + ((self._auth_context() if self._auth_context is not None else None) or "")

    def get(self, method: str, params: t.Mapping[str, t.Any] | None) -> dict[str, t.Any] | None:
        """A fresh copy of the cached result, or None."""
        if method not in CACHEABLE:
            return None
        auth = self._auth()
        params_key = self._params_key(params)
        now = time.monotonic()
        with self._lock:
            for key in ((method, params_key, None), (method, params_key, auth)):
                entry = self._entries.get(key)
                if entry is not None:
                    if now < entry[0]:
                        return copy.deepcopy(entry[1])
                    del self._entries[key]
        return None

    def put(self, method: str, params: t.Mapping[str, t.Any] | None, result: dict[str, t.Any]) -> None:
        """Keep ``result`` while its ``ttlMs`` lasts (nothing for no, zero or a bad ``ttlMs``)."""
        ttl = result.get("ttlMs")
        if method not in CACHEABLE or type(ttl) not in (int, float) or t.cast(float, ttl) <= 0:
            return
        scope = None if result.get("cacheScope") == "public" else self._auth()
        key = (method, self._params_key(params), scope)
        with self._lock:
            if len(self._entries) >= self.max_entries and key not in self._entries:
                self._evict(time.monotonic())
            self._entries[key] = (time.monotonic() + t.cast(float, ttl) / 1000.0, copy.deepcopy(result))

    def _evict(self, now: float) -> None:
        for key in [key for key, (expires, _) in self._entries.items() if expires <= now]:
            del self._entries[key]
        while len(self._entries) >= self.max_entries:
            del self._entries[min(self._entries, key=lambda k: self._entries[k][0])]

    def invalidate(self, notification: str, params: t.Mapping[str, t.Any] | None = None) -> None:
        """Drop what ``notification`` (a ``list_changed`` or ``resources/updated``) makes stale."""
        stale = _INVALIDATES.get(notification)
        uri = (params or {}).get("uri")
        with self._lock:
            if stale is not None:
                for key in [key for key in self._entries if key[0] in stale]:
                    del self._entries[key]
            elif notification == methods.NOTIFICATIONS_RESOURCES_UPDATED and isinstance(uri, str):
                read_key = self._params_key({"uri": uri})
                for key in [key for key in self._entries if key[0] == methods.RESOURCES_READ and key[1] == read_key]:
                    del self._entries[key]

    def clear(self) -> None:
        """Drop everything."""
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)


__all__ = ["CACHEABLE", "ResultCache"]
