from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def index(request: HttpRequest) -> HttpResponse:
    return HttpResponse("An ordinary Django page; the MCP endpoint is /mcp", content_type="text/plain")


urlpatterns = [
    path("", index),
    path("mcp", include("mcp_sdk.contrib.django.urls")),  # MCP_SDK["SERVER"], as a Django view
]
