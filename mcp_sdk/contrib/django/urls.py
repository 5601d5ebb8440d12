"""``path("mcp/", include("mcp_sdk.contrib.django.urls"))``: the configured server's endpoint,
named ``mcp_sdk:endpoint``."""

from __future__ import annotations

from django.urls import path  # type: ignore[import-untyped]

from .views import mcp_view

app_name = "mcp_sdk"
urlpatterns = [path("", mcp_view(), name="endpoint")]
