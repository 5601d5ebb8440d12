"""A real Django project served with ``mcp_sdk.contrib.django`` (SQLite, django.contrib.auth
sessions, Django REST framework tokens); ``manage.py`` beside this file. Environment:
``MCP_SPEC_DB`` (the SQLite file), ``MCP_SPEC_URLCONF`` (another URLconf, for the checks)."""
