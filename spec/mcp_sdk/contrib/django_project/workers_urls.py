"""``/mcp/``: the configured server; ``/own/``: ``mcp_view(own)``; ``/worker``: this worker's pid
(spec.support.scale_out.Lanes aims requests at a worker with it)."""

from __future__ import annotations

import os

from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from mcp_sdk.contrib.django import mcp_view

from .workers_mcp import own


def worker(request: HttpRequest) -> HttpResponse:
    return HttpResponse(str(os.getpid()))


urlpatterns = [
    path("worker", worker),
    path("mcp/", include("mcp_sdk.contrib.django.urls")),
    path("own/", mcp_view(own, wsgi_threads=8)),
]
