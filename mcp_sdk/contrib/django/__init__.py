"""Serve an MCP server from a Django project: a Django app for ``INSTALLED_APPS``.

.. code-block:: python

    INSTALLED_APPS = [..., "mcp_sdk.contrib.django"]
    MCP_SDK = {"SERVER": "myapp.mcp.server", "TRANSPORT": {"wsgi_threads": 32}}
    urlpatterns = [path("mcp/", include("mcp_sdk.contrib.django.urls"))]

The endpoint is a Django view (middleware, sessions and ``request.user`` apply to it); tools run
with Django's connection handling around them and ``server_context.request`` is the
``HttpRequest``; ``mcp.py`` modules of installed apps are imported at start-up (as ``admin.py``),
so apps register tools on :data:`server`; ``python manage.py mcp stdio|tools|call`` serve, list
and call the same server. See :mod:`.conf` for the settings. :func:`tools_from_viewset` and
:func:`tools_from_api_view` expose Django REST framework views as tools (:mod:`.rest_tools`).
"""

from __future__ import annotations

import typing as t

from ..._lazy_names import lazy_names
from ...errors import MissingExtraError

try:
    import django as _django  # type: ignore[import-untyped]  # noqa: F401  (only to say which extra is missing)
except ImportError:
    raise MissingExtraError("mcp_sdk.contrib.django needs Django: pip install 'mcp_sdk[django]'") from None

if t.TYPE_CHECKING:
    from ...server import Server
    from .conf import configured_server as configured_server
    from .conf import configured_transport as configured_transport
    from .rest_tools import tools_from_api_view as tools_from_api_view
    from .rest_tools import tools_from_viewset as tools_from_viewset
    from .views import mcp_view as mcp_view
    from .views import protected_resource_view as protected_resource_view

    #: The :class:`~mcp_sdk.Server` the ``MCP_SDK["SERVER"]`` setting names (a dotted path, such as
    #: ``"myapp.mcp.server"``), imported on first access of the attribute: the object
    #: :func:`configured_server` returns, on which apps register tools from their ``mcp.py``
    #: modules. Reading it needs Django's settings; a missing setting raises ``ImproperlyConfigured``.
    server: Server

_LAZY = {
    "mcp_view": "views",
    "protected_resource_view": "views",
    "configured_server": "conf",
    "configured_transport": "conf",
    "tools_from_viewset": "rest_tools",
    "tools_from_api_view": "rest_tools",
}
_lazy = lazy_names(__name__, _LAZY, globals())


def __getattr__(name: str) -> t.Any:
    # Lazy: INSTALLED_APPS imports this package before settings and the app registry are ready.
    if name == "server":  # never kept: it follows the MCP_SDK["SERVER"] setting
        from .conf import configured_server

        return configured_server()
    return _lazy(name)


__all__ = [
    "configured_server",
    "configured_transport",
    "mcp_view",
    "protected_resource_view",
    "server",
    "tools_from_api_view",
    "tools_from_viewset",
]
