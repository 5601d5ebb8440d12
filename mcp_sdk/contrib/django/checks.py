"""System checks (``manage.py check``, and before ``runserver`` and ``migrate``): mistakes in
mounting the endpoint, named with their fix."""

from __future__ import annotations

import typing as t

#: Where a check names the fix.
FIX = 'path("mcp/", include("mcp_sdk.contrib.django.urls")), or path("mcp/", mcp_view(server)) for a server of your own (from mcp_sdk.contrib.django import mcp_view)'


def register() -> None:
    """Register the checks (the app's ``ready`` does)."""
    from django.core import checks  # type: ignore[import-untyped]

    checks.register(transport_as_view, checks.Tags.urls)
    checks.register(setting, "mcp_sdk")


def transport_as_view(app_configs: t.Any = None, **kwargs: t.Any) -> list[t.Any]:
    """``mcp_sdk.E001`` for each URL pattern whose view is a ``StreamableHTTPTransport`` itself
    (``path("mcp", transport)`` answers "CSRF cookie not set", ``csrf_exempt(transport)`` a
    ``TypeError`` about ``start_response``: a transport is a WSGI app, not a view)."""
    from django.core.checks import Error  # type: ignore[import-untyped]
    from django.urls import get_resolver  # type: ignore[import-untyped]

    from ...server.transports.streamable_http import StreamableHTTPTransport

    errors = []
    for route, callback in _views(get_resolver().url_patterns, ""):
        view = getattr(callback, "__wrapped__", callback)
        if isinstance(view, StreamableHTTPTransport):
            errors.append(
                Error(
                    f"URL pattern '{route}' serves a StreamableHTTPTransport as a Django view; a transport is a WSGI "
                    "application (environ, start_response), not a view (request).",
                    hint=f"Route it through mcp_sdk.contrib.django: {FIX}.",
                    id="mcp_sdk.E001",
                )
            )
    return errors


def setting(app_configs: t.Any = None, **kwargs: t.Any) -> list[t.Any]:
    """``mcp_sdk.E002`` when ``MCP_SDK`` is wrong: an unknown key, a ``SERVER`` that names no
    ``Server``, or no ``SERVER`` while the URLconf routes ``mcp_sdk.contrib.django.urls``."""
    from django.core.checks import Error
    from django.core.exceptions import ImproperlyConfigured  # type: ignore[import-untyped]
    from django.urls import get_resolver

    from .conf import configured, configured_server, mcp_settings

    try:
        if mcp_settings()["SERVER"] or any(getattr(view, "mcp_endpoint", None) is configured for _, view in _views(get_resolver().url_patterns, "")):
            configured_server()
    except (ImproperlyConfigured, ImportError) as error:
        return [Error(str(error), id="mcp_sdk.E002")]
    return []


def _views(patterns: t.Iterable[t.Any], prefix: str) -> t.Iterator[tuple[str, t.Any]]:
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if hasattr(pattern, "url_patterns"):
            yield from _views(pattern.url_patterns, route)
        else:
            yield route, pattern.callback


__all__ = ["FIX", "register", "setting", "transport_as_view"]
