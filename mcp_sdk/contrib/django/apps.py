"""The app's :class:`~django.apps.AppConfig`: ``mcp.py`` autodiscovery and the system checks."""

from __future__ import annotations

from django.apps import AppConfig  # type: ignore[import-untyped]


class MCPConfig(AppConfig):  # type: ignore[misc]
    """``mcp_sdk.contrib.django`` in ``INSTALLED_APPS``.

    :meth:`ready` imports the ``mcp`` module of every installed app that has one (as the admin
    does with ``admin.py``), so apps register their tools on the configured server
    (``from mcp_sdk.contrib.django import server``), and registers the system checks.
    """

    name = "mcp_sdk.contrib.django"
    label = "mcp_sdk"
    verbose_name = "MCP server (mcp_sdk)"

    def ready(self) -> None:
        from django.utils.module_loading import autodiscover_modules  # type: ignore[import-untyped]

        from . import checks

        checks.register()
        autodiscover_modules("mcp")
