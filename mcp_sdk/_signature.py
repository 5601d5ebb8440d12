"""Inspect a handler's signature once, when it is registered, never per call."""

from __future__ import annotations

import inspect
import typing as t


class Signature:
    """What a handler accepts: ``server_context`` (opt-in, as Ruby's keyword) and which keywords."""

    __slots__ = ("accepts_server_context", "keywords", "var_keyword")

    def __init__(self, function: t.Callable[..., t.Any]) -> None:
        try:
            parameters = inspect.signature(function).parameters.values()
        except (TypeError, ValueError):  # builtins without a signature: be permissive
            self.accepts_server_context = False
            self.keywords: frozenset[str] = frozenset()
            self.var_keyword = True
            return
        self.var_keyword = any(p.kind is p.VAR_KEYWORD for p in parameters)
        self.keywords = frozenset(
            p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        )
        self.accepts_server_context = "server_context" in self.keywords or self.var_keyword

    def keyword_arguments(self, arguments: t.Mapping[str, t.Any]) -> dict[str, t.Any]:
        """``arguments`` minus the keys the function cannot take (all of them with ``**kwargs``)."""
        if self.var_keyword:
            return dict(arguments)
        return {key: value for key, value in arguments.items() if key in self.keywords and key != "server_context"}
