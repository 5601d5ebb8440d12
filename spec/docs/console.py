"""The ``$ command`` lines of a page's console blocks, the output the page shows under each, and
running a command as the page writes it (its ``.venv/bin/`` this venv's): what the tutorial's
project tests compare."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

from spec.docs.blocks import ROOT, blocks

TIMEOUT = 60
VENV_BIN = Path(sys.executable).parent


def shown(document: str) -> dict[str, str]:
    """Each ``$ command`` of ``document``'s console blocks, and the output shown under it."""
    outputs: dict[str, str] = {}
    for block in blocks(document):
        if block.language != "console":
            continue
        command = None
        for line in block.code.splitlines():
            if line.startswith("$ "):
                command = line[2:]
                outputs[command] = ""
            elif command is not None:
                outputs[command] += line + "\n"
    return outputs


def in_venv(command: str, replacements: dict[str, str] | None = None) -> list[str]:
    """``command``'s words, ``.venv/bin/`` made this venv's and each of ``replacements`` replaced."""
    words = []
    for word in shlex.split(command):
        word = word.replace(".venv/bin/", f"{VENV_BIN}/")
        for old, new in (replacements or {}).items():
            word = word.replace(old, new)
        words.append(word)
    return words


def run(command: str, folder: Path, replacements: dict[str, str] | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``command`` as the page writes it (see :func:`in_venv`) in ``folder``."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run(in_venv(command, replacements), cwd=folder, env=environment, capture_output=True, text=True, timeout=TIMEOUT)


def console_commands_of(code: str) -> list[str]:
    """The command lines of a console block (``$ `` lines when it has any), comments dropped."""
    lines = code.splitlines()
    if any(line.startswith("$ ") for line in lines):
        lines = [line[2:] for line in lines if line.startswith("$ ")]
    return [line.split("  #", 1)[0].strip() for line in lines if line.strip()]


#: What separates commands on a console line.
SEPARATORS = {"&&", "||", "|", ";", "&"}


def console_commands(code: str) -> list[list[str]]:
    """The commands of a console block as their words: continued lines joined, each line cut at
    ``&&``, ``||``, ``|``, ``;`` and ``&``, prompts, comments and output dropped."""
    commands: list[list[str]] = []
    for line in console_commands_of(code.replace("\\\n", " ")):
        command: list[str] = []
        for word in shlex.split(line, comments=True):
            if word in SEPARATORS:
                commands.append(command)
                command = []
            else:
                command.append(word)
        commands.append(command)
    return [command for command in commands if command]
