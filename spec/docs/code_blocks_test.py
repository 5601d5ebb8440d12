"""Every code block of the documentation runs, or is checked, as written (issues 12 and 23).

The documents are README.md, examples/README.md and every page under docs/ (spec/docs/blocks.py).

- A Python block runs in a fresh interpreter (cwd: the repository root, stdin empty, so a stdio
  server's ``open()`` returns at once). A fragment by design is marked on the line right above its
  fence, ``<!-- fragment: NAME -->``, and completed by ``spec/docs/completions`` (code run before
  and after it). A block marked ``<!-- file: PATH -->`` is one file of a project the page builds:
  the test the page names in ``<!-- project-test: ... -->`` writes the files and runs the project.
- A JSON or YAML block parses.
- A console block's commands name programs that exist (the venv's, or a few well-known ones), and
  each ``mcp-sdk`` command line parses with the command's own parser.

Blocks are never skipped: an unknown fragment, a block in an unknown language, or a block that fails
fails the test.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import shlex
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from spec.docs.blocks import ROOT, Block, blocks, documents, project_test, python_blocks, run_program
from spec.docs.completions import COMPLETIONS
from spec.docs.console import console_commands

BLOCKS = [block for document in documents() for block in blocks(document)]
#: Languages a block may have: code that runs or is checked, and shown text (output, wire bytes).
CHECKED = {"python", "json", "yaml", "console"}
SHOWN = {"text", "http", "html", "javascript", "toml", "ini", "diff"}
#: Programs a console line may name besides the venv's own (bin/ beside this interpreter).
WELL_KNOWN = {"python", "python3", "pip", "bash", "cd", "source", "export", "curl", "npx", "node", "redis-server", "ulimit", "kill", "cat"}

RUNNABLE = [block for block in BLOCKS if block.language == "python" and block.file is None]


def test_every_block_has_a_known_language_and_every_marker_is_known() -> None:
    assert {block.language for block in BLOCKS} <= CHECKED | SHOWN, "label each fence with one of these languages"
    unknown = {block.fragment for block in BLOCKS if block.fragment is not None and block.fragment not in COMPLETIONS}
    assert unknown == set(), f"add these fragments' completions to spec/docs/completions: {sorted(unknown)}"
    unused = set(COMPLETIONS) - {block.fragment for block in BLOCKS}
    assert unused == set(), f"completions no block uses: {sorted(unused)}"
    assert {block.language for block in BLOCKS if block.fragment is not None} <= {"python"}


def test_every_page_that_builds_a_project_names_the_test_that_runs_it() -> None:
    for document in sorted({block.document for block in BLOCKS if block.file is not None}):
        test = project_test(document)
        assert test is not None, f"{document}: add <!-- project-test: spec/docs/NAME_test.py --> to the page"
        assert document in (ROOT / test).read_text(encoding="utf-8"), f"{test} does not build {document}"


@pytest.mark.parametrize("block", RUNNABLE, ids=[block.id for block in RUNNABLE])
def test_the_block_runs(block: Block, tmp_path: Path) -> None:
    before, after = COMPLETIONS[block.fragment] if block.fragment is not None else ("", "")
    completed = run_program("\n".join([textwrap.dedent(before), block.code, textwrap.dedent(after)]), tmp_path)
    assert completed.returncode == 0, f"{block.id} failed:\n{completed.stderr[-3000:]}"


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.language in ("json", "yaml")], ids=lambda block: block.id)
def test_the_data_block_parses(block: Block) -> None:
    if block.language == "json":
        json.loads(block.code)
    else:
        yaml.safe_load(block.code)


def _check_command(words: list[str]) -> None:
    while words and "=" in words[0] and not words[0].startswith("-"):
        words = words[1:]  # FLASK_APP=... before the program
    program, arguments = words[0], words[1:]
    venv_bin = Path(sys.executable).parent
    name = program.removeprefix(".venv/bin/")
    if program.startswith(".venv/bin/") or name not in WELL_KNOWN:
        assert (venv_bin / name).exists(), f"{program}: not a program of the venv"
    if name == "mcp-sdk":
        from mcp_sdk.cli import build_parser

        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as errors:
            try:
                build_parser().parse_args(arguments)
            except SystemExit as exit:
                assert exit.code == 0, f"mcp-sdk {shlex.join(arguments)}: {errors.getvalue()}"
    if name in ("python", "python3") and arguments[:1] == ["-m"]:
        assert importlib.util.find_spec(arguments[1]) is not None, f"python -m {arguments[1]}: no such module"


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.language == "console"], ids=lambda block: block.id)
def test_the_console_block_names_real_programs_and_valid_mcp_sdk_commands(block: Block) -> None:
    commands = console_commands(block.code)
    assert commands, "a console block with no command"
    for words in commands:
        _check_command(words)


def test_the_quick_start_is_examples_weather_py_and_as_short_as_the_decorator_sdks() -> None:
    (_, first_fragment, first_code) = python_blocks("README.md")[0]
    weather = (ROOT / "examples" / "weather.py").read_text(encoding="utf-8")
    assert (first_fragment, first_code) == (None, weather)
    assert len(weather) <= 650  # the official SDK's weather quick start: 502 to 650 characters
