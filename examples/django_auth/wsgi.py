"""``gunicorn -k gthread --threads 32 -w 1 django_auth.wsgi:application`` (from examples/, after ``migrate``)."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "django_auth.settings")
application = get_wsgi_application()
