"""library/mcp.py: the server and its tools (mcp.py modules of installed apps are imported at start-up)."""

from mcp_sdk import Server

from .models import Book

server = Server(name="library")


@server.tool
def my_books(server_context=None) -> list[str]:
    """The titles of the signed-in user's books."""
    user = server_context.request.user  # the Django HttpRequest that carried the call
    return list(Book.objects.filter(owner=user).order_by("title").values_list("title", flat=True))
