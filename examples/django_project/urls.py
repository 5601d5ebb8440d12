from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from .mcp import transport
from .wsgi_view import wsgi_view


def index(request: HttpRequest) -> HttpResponse:
    return HttpResponse("An ordinary Django page; the MCP endpoint is /mcp", content_type="text/plain")


urlpatterns = [
    path("", index),
    path("mcp", wsgi_view(transport)),
]
