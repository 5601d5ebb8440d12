"""The two ways of mounting a transport that Django cannot serve (``manage.py check`` names the fix)."""

from __future__ import annotations

from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from mcp_sdk import Server
from mcp_sdk.server.transports import StreamableHTTPTransport

transport = StreamableHTTPTransport(Server(name="mounted"))

urlpatterns = [
    path("mcp", transport),  # type: ignore[arg-type]
    path("api/", csrf_exempt(transport)),  # type: ignore[arg-type]
]
