"""Every Python block in README.md and examples/README.md runs as written (issue 12).

Each block runs in a fresh interpreter (cwd: the repository root, stdin empty, so a stdio
server's ``open()`` returns at once). A block that is a fragment by design (it uses names an
earlier block or the reader's app defines) is marked on the line right above its fence::

    <!-- fragment: NAME -->
    ```python
    ...
    ```

and completed here: ``COMPLETIONS[NAME]`` is a ``(before, after)`` pair of code run around it.
Blocks are never skipped: an unmarked block must run alone, a marked one must name a completion.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from spec.docs.completions import COMPLETIONS

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = ("README.md", "examples/README.md")
TIMEOUT = 120

_BLOCK = re.compile(r"(?:^<!--\s*fragment:\s*(?P<name>[\w-]+)\s*-->\n)?^```python\n(?P<code>.*?)^```$", re.MULTILINE | re.DOTALL)


def python_blocks(document: str) -> list[tuple[int, str | None, str]]:
    """``(line, fragment name or None, code)`` of each Python block of ``document``."""
    text = (ROOT / document).read_text(encoding="utf-8")
    blocks = []
    for match in _BLOCK.finditer(text):
        line = text.count("\n", 0, match.start("code"))
        blocks.append((line, match.group("name"), match.group("code")))
    return blocks


BLOCKS = [(document, *block) for document in DOCUMENTS for block in python_blocks(document)]


def test_every_document_has_python_blocks_and_every_marker_is_known():
    assert {document for document, *_ in BLOCKS} == set(DOCUMENTS)
    unknown = {name for _, _, name, _ in BLOCKS if name is not None and name not in COMPLETIONS}
    assert unknown == set(), f"add these fragments' completions to spec/docs/completions.py: {sorted(unknown)}"
    unused = set(COMPLETIONS) - {name for _, _, name, _ in BLOCKS}
    assert unused == set(), f"completions no block uses: {sorted(unused)}"


@pytest.mark.parametrize(("document", "line", "fragment", "code"), BLOCKS, ids=[f"{d}:{line}" for d, line, *_ in BLOCKS])
def test_the_block_runs(document: str, line: int, fragment: str | None, code: str, tmp_path: Path):
    before, after = COMPLETIONS[fragment] if fragment is not None else ("", "")
    program = "\n".join([textwrap.dedent(before), code, textwrap.dedent(after)])
    script = tmp_path / "block.py"
    script.write_text(program, encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, str(script)],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert completed.returncode == 0, f"{document} line {line} failed:\n{completed.stderr[-3000:]}"

def test_the_quick_start_is_examples_weather_py_and_as_short_as_the_decorator_sdks():
    (_, first_fragment, first_code) = python_blocks("README.md")[0]
    weather = (ROOT / "examples" / "weather.py").read_text(encoding="utf-8")
    assert (first_fragment, first_code) == (None, weather)
    assert len(weather) <= 650  # the official SDK's weather quick start: 502 to 650 characters
