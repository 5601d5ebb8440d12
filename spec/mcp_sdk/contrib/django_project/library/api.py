"""The library's REST API (Django REST framework): reviews, and a count of books."""

from __future__ import annotations

import typing as t

from rest_framework import filters, pagination, permissions, serializers, viewsets
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .models import Book, Review


class ReviewSerializer(serializers.ModelSerializer):  # type: ignore[misc]
    class Meta:
        model = Review
        fields = ["id", "book", "rating", "text", "reviewer"]
        read_only_fields = ["reviewer"]


class TwoPerPage(pagination.PageNumberPagination):  # type: ignore[misc]
    page_size = 2


class ReviewViewSet(viewsets.ModelViewSet):  # type: ignore[misc]
    """Readers' reviews: anyone signed in reads them, writing one needs ``library.add_review``."""

    queryset = Review.objects.order_by("id")
    serializer_class = ReviewSerializer
    permission_classes = [permissions.DjangoModelPermissionsOrAnonReadOnly]
    pagination_class = TwoPerPage
    filter_backends = [filters.SearchFilter]
    search_fields = ["text"]

    def perform_create(self, serializer: t.Any) -> None:
        serializer.save(reviewer=self.request.user.get_username())


class BookCountView(APIView):  # type: ignore[misc]
    permission_classes = [permissions.IsAuthenticated]

    def get(self, request: Request) -> Response:
        """How many books there are, by one author or in all."""
        books = Book.objects.all()
        if "author" in request.query_params:
            books = books.filter(author=request.query_params["author"])
        return Response({"books": books.count(), "asked_by": request.user.get_username()})
