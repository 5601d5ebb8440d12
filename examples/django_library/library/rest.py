"""library/rest.py: the library's REST API, its viewset also the MCP server's tools (import it at
start-up, e.g. from urls.py, where a DRF router can route the same viewset over HTTP)."""

from rest_framework import permissions, serializers, viewsets

from mcp_sdk.contrib.django import server, tools_from_viewset

from .models import Book


class BookSerializer(serializers.ModelSerializer):
    class Meta:
        model = Book
        fields = ["id", "title", "owner"]
        read_only_fields = ["owner"]


class BookViewSet(viewsets.ModelViewSet):
    queryset = Book.objects.order_by("title")
    serializer_class = BookSerializer
    permission_classes = [permissions.DjangoModelPermissions]  # library.add_book to create

    def perform_create(self, serializer):
        serializer.save(owner=self.request.user)


for tool in tools_from_viewset(BookViewSet, actions=["list", "retrieve", "create"], prefix="book"):
    server.add_tool(tool)  # book_list, book_retrieve, book_create
