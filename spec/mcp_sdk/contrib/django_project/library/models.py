from __future__ import annotations

from django.db import models


class Book(models.Model):
    title = models.CharField(max_length=200)
    author = models.CharField(max_length=200)


class Review(models.Model):
    RATINGS = [(1, "poor"), (2, "fair"), (3, "good"), (4, "very good"), (5, "excellent")]

    book = models.ForeignKey(Book, on_delete=models.CASCADE, related_name="reviews")
    rating = models.PositiveSmallIntegerField(choices=RATINGS)
    text = models.CharField(max_length=500, blank=True, help_text="What the reader thought.")
    reviewer = models.CharField(max_length=150)
