"""Every code example in the docstrings of the public API runs (issue 23).

Convention: a docstring shows an example as a reST ``.. code-block:: python`` directive (or a
literal block after a paragraph ending in ``::``, which Sphinx also reads as Python), indented
under it, as ``help()`` shows it; the site renders it as a fenced Python block
(``docs/griffe_roles.py``). Each example is a whole program: it runs alone, in a fresh
interpreter, from the repository root, with stdin empty, and asserts what it shows. Examples
in another language (``.. code-block:: json``) are shown, not run. The docstrings are those of
the public names and of the public methods and properties of the public classes
(``spec/docs/api_coverage.py``). No example is skipped.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spec.docs.api_coverage import survey
from spec.docs.blocks import run_program

FENCE = re.compile(r"^(?P<indent>[ ]*)```python\n(?P<code>.*?)^(?P=indent)```$", re.MULTILINE | re.DOTALL)


def examples() -> list[tuple[str, str]]:
    """``(id, code)`` of each Python example of the public docstrings, in a stable order."""
    result = survey()
    found: list[tuple[str, str]] = []
    for path, obj in sorted({**result.objects, **result.methods}.items()):
        if obj.docstring is None:
            continue
        for number, match in enumerate(FENCE.finditer(obj.docstring.value), start=1):
            indent = len(match.group("indent"))
            code = "".join(line[indent:] for line in match.group("code").splitlines(keepends=True))
            found.append((f"{path}:{number}", code))
    return found


EXAMPLES = examples()


def test_the_classes_users_start_from_show_an_example() -> None:
    shown = {identifier.rpartition(":")[0] for identifier, _ in EXAMPLES}
    for path in (
        "mcp_sdk.tool.Tool",
        "mcp_sdk.prompt.Prompt",
        "mcp_sdk.resource.Resource",
        "mcp_sdk.server.context.ServerContext",
        "mcp_sdk.client.Client",
        "mcp_sdk.server.transports.streamable_http.StreamableHTTPTransport",
    ):
        assert path in shown, f"{path}: add an example (.. code-block:: python) to its docstring"


@pytest.mark.parametrize(("identifier", "code"), EXAMPLES, ids=[identifier for identifier, _ in EXAMPLES])
def test_the_example_runs(identifier: str, code: str, tmp_path: Path) -> None:
    completed = run_program(code, tmp_path)
    assert completed.returncode == 0, f"{identifier} failed:\n{completed.stderr[-3000:]}"
