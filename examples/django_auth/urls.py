from __future__ import annotations

from django.contrib.auth import authenticate, login
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from mcp_sdk.contrib.django import mcp_view, protected_resource_view

from .mcp import auth, server


@csrf_exempt  # a demo sign-in for scripts; a real site uses django.contrib.auth.views.LoginView
@require_POST
def sign_in(request: HttpRequest) -> HttpResponse:
    user = authenticate(request, username=request.POST.get("username"), password=request.POST.get("password"))
    if user is None:
        return HttpResponse("wrong username or password", status=401, content_type="text/plain")
    login(request, user)
    return HttpResponse(f"signed in as {user.get_username()}", content_type="text/plain")


urlpatterns = [
    path("login", sign_in),
    # The session's user (MCP_SDK["PRINCIPAL"]), else the bearer token auth= checks.
    path("mcp", mcp_view(server, auth=auth, wsgi_threads=32)),
]
if auth is not None:
    # RFC 9728: /.well-known/oauth-protected-resource/mcp, at the site's root.
    urlpatterns.append(path(auth.metadata_path.lstrip("/"), protected_resource_view(auth)))
