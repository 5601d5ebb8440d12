from __future__ import annotations

from django.contrib.auth import authenticate, login
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from rest_framework.routers import SimpleRouter

from mcp_sdk.contrib.django import mcp_view

from . import rest_mcp
from .library.api import BookCountView, ReviewViewSet

router = SimpleRouter()
router.register("api/reviews", ReviewViewSet)


@csrf_exempt  # a bare sign-in for the specs
@require_POST
def sign_in(request: HttpRequest) -> HttpResponse:
    user = authenticate(request, username=request.POST.get("username"), password=request.POST.get("password"))
    if user is None:
        return HttpResponse("wrong username or password", status=401)
    login(request, user)
    return HttpResponse("signed in")


urlpatterns = [
    path("login", sign_in),
    path("mcp/", include("mcp_sdk.contrib.django.urls")),
    path("api/book-count", BookCountView.as_view()),
    path("api-mcp/", mcp_view(rest_mcp.server)),
    *router.urls,
]
