"""Importing an integration without its framework names the extra to install."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    "module, framework, message",
    [
        ("mcp_sdk.contrib.flask", "flask", "mcp_sdk.contrib.flask needs Flask: pip install 'mcp_sdk[flask]'"),
        ("mcp_sdk.contrib.django", "django", "mcp_sdk.contrib.django needs Django: pip install 'mcp_sdk[django]'"),
    ],
)
def test_an_integration_without_its_framework_names_the_extra(module: str, framework: str, message: str) -> None:
    # A None entry in sys.modules makes the import fail as if the framework were not installed.
    code = (
        f"import sys; sys.modules[{framework!r}] = None\n"
        "from mcp_sdk.errors import MissingExtraError\n"
        "try:\n"
        f"    import {module}\n"
        "except MissingExtraError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, message + "\n", "")
