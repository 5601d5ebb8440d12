"""The fenced code blocks of the documentation (README.md, examples/README.md, docs/**/*.md).

A block may sit right under one marker line that says how the doc test treats it:

``<!-- fragment: NAME -->``
    a Python fragment by design (it uses names an earlier block or the reader's app defines):
    ``spec/docs/completions`` gives the code run before and after it.
``<!-- file: PATH -->``
    one file of a whole project the page builds (``settings.py``, ``app.py``, ``mysite/urls.py``):
    the page names, in a ``<!-- project-test: spec/docs/NAME_test.py -->`` line, the test that
    writes the page's files with :func:`page_files` and runs the project.

A line ``--8<-- "PATH"`` inside a block is MkDocs' snippet syntax: the site shows the file at PATH
(from the repository root) there, and the doc test runs that file's text in its place.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Seconds a program of the documentation may take.
TIMEOUT = 120

_FENCE = re.compile(
    r"(?:^<!--\s*(?P<kind>fragment|file):\s*(?P<value>\S+)\s*-->\n)?"
    r"^(?P<indent>[ ]*)```(?P<language>[\w+-]*)[^\n]*\n(?P<code>.*?)^(?P=indent)```[ ]*$",
    re.MULTILINE | re.DOTALL,
)
_SNIPPET = re.compile(r'^(?P<indent>[ ]*)--8<--\s+"(?P<path>[^"]+)"[ ]*$', re.MULTILINE)
_PROJECT_TEST = re.compile(r"^<!--\s*project-test:\s*(?P<path>\S+)\s*-->$", re.MULTILINE)


@dataclass(frozen=True)
class Block:
    """One fenced block: where it is, its language, its marker and its code (snippets expanded)."""

    document: str
    line: int
    language: str
    fragment: str | None
    file: str | None
    code: str

    @property
    def id(self) -> str:
        return f"{self.document}:{self.line}"


def documents() -> list[str]:
    """Every documented Markdown file, relative to the repository root."""
    pages = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "docs").rglob("*.md"))
    return ["README.md", "examples/README.md", *pages]


def expand_snippets(code: str) -> str:
    """``code`` with each ``--8<-- "PATH"`` line replaced by the file it names."""

    def included(match: re.Match[str]) -> str:
        text = (ROOT / match.group("path")).read_text(encoding="utf-8")
        indent = match.group("indent")
        return "".join(indent + line if line.strip() else line for line in text.splitlines(keepends=True)).rstrip("\n")

    return _SNIPPET.sub(included, code)


def blocks(document: str) -> list[Block]:
    """The fenced blocks of ``document``, in order."""
    text = (ROOT / document).read_text(encoding="utf-8")
    found = []
    for match in _FENCE.finditer(text):
        kind, value, indent = match.group("kind"), match.group("value"), match.group("indent")
        code = "".join(line[len(indent) :] if line.startswith(indent) else line for line in match.group("code").splitlines(keepends=True))
        found.append(
            Block(
                document=document,
                line=text.count("\n", 0, match.start("code")),
                language=match.group("language"),
                fragment=value if kind == "fragment" else None,
                file=value if kind == "file" else None,
                code=expand_snippets(code),
            )
        )
    return found


def python_blocks(document: str) -> list[tuple[int, str | None, str]]:
    """``(line, fragment name or None, code)`` of each Python block of ``document``."""
    return [(block.line, block.fragment, block.code) for block in blocks(document) if block.language == "python"]


def page_files(document: str) -> dict[str, str]:
    """The project ``document`` builds: ``{path: text}`` of its ``<!-- file: PATH -->`` blocks.

    A path given twice keeps its last block (a page may show a file, then its finished version).
    """
    return {block.file: block.code for block in blocks(document) if block.file is not None}


def project_test(document: str) -> str | None:
    """The test a page names in its ``<!-- project-test: PATH -->`` line, if any."""
    match = _PROJECT_TEST.search((ROOT / document).read_text(encoding="utf-8"))
    return match.group("path") if match else None


def run_program(program: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """Run ``program`` as a reader would: written to ``folder``, in a fresh interpreter, from the
    repository root, stdin empty (so a stdio server's ``open()`` returns at once)."""
    script = folder / "program.py"
    script.write_text(program, encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(script)],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
