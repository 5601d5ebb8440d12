"""urls.py: the MCP endpoint at /mcp/, and a sign-in for scripts (a real site has its login pages)."""

from django.contrib.auth import authenticate, login
from django.http import HttpResponse
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST


@csrf_exempt
@require_POST
def sign_in(request):
    user = authenticate(request, username=request.POST["username"], password=request.POST["password"])
    if user is None:
        return HttpResponse("wrong username or password", status=401)
    login(request, user)  # sets the sessionid and csrftoken cookies
    return HttpResponse("signed in")


urlpatterns = [
    path("login", sign_in),
    path("mcp/", include("mcp_sdk.contrib.django.urls")),
]
