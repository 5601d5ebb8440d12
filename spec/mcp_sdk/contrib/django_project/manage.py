"""``python spec/mcp_sdk/contrib/django_project/manage.py ...`` (from the repository root)."""

from __future__ import annotations

import os
import pathlib
import sys

if __name__ == "__main__":
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[4]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spec.mcp_sdk.contrib.django_project.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
