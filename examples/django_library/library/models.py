"""library/models.py"""

from django.conf import settings
from django.db import models


class Book(models.Model):
    title = models.CharField(max_length=200)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
