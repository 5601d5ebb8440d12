"""The WSGI entry point: ``gunicorn -k gthread --threads 32 -w 1 django_project.wsgi:application`` (from examples/)."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "django_project.settings")
application = get_wsgi_application()
