"""A second server of the project, at ``/api-mcp/``: the library's REST API as tools
(``mcp_sdk.contrib.django.rest_tools``), run in-process as the MCP caller's Django user."""

from __future__ import annotations

from mcp_sdk import Server
from mcp_sdk.contrib.django.rest_tools import tools_from_api_view, tools_from_viewset

from .library.api import BookCountView, ReviewViewSet

server = Server(name="library-api", version="1.0.0")
for tool in [
    *tools_from_viewset(ReviewViewSet, actions=["list", "retrieve", "create"], prefix="review", path="/api/reviews/"),
    *tools_from_api_view(
        BookCountView, methods=["get"], path="/api/book-count", input_schemas={"get": {"type": "object", "properties": {"author": {"type": "string"}}}}
    ),
]:
    server.add_tool(tool)
