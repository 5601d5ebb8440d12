"""docs/tutorial/first-server.md runs as written: its ``weather.py``, ``serve.py`` and ``client.py``
(spec/docs/blocks.py ``page_files``) in a fresh folder, every ``$ command`` of the page printing
exactly the output the page shows under it: the ``mcp-sdk`` listings and calls over stdio, a call
over HTTP to ``mcp-sdk run --http``, and ``client.py`` against the server under ``mcp-sdk run``,
waitress (``python serve.py``) and real gunicorn (``-k gthread``, the page's command line)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec.docs.blocks import ROOT, blocks, page_files
from spec.docs.console import in_venv, run, shown
from spec.support.http_server import ServerProcess

PAGE = "docs/tutorial/first-server.md"
#: The page's URL; each server here listens on a free port instead.
PAGE_URL = "http://127.0.0.1:8000/mcp"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    files = page_files(PAGE)
    assert sorted(files) == ["client.py", "serve.py", "weather.py"]
    for path, text in files.items():
        (tmp_path / path).write_text(text, encoding="utf-8")
    # The page serves on port 8000; here serve.py takes a free port from its command line.
    served = files["serve.py"].replace("port=8000", "port=int(__import__('sys').argv[1])")
    assert served != files["serve.py"]
    (tmp_path / "serve.py").write_text(served, encoding="utf-8")
    return tmp_path


def test_the_stdio_commands_print_what_the_page_shows(folder: Path) -> None:
    outputs = shown(PAGE)
    stdio = [command for command in outputs if "mcp-sdk" in command and PAGE_URL not in command]
    assert len(stdio) == 6, stdio  # tools, three calls (one refused), prompts, resources
    for command in stdio:
        completed = run(command, folder)
        refused = command.endswith("latitude=37.77")  # the call without longitude: an error result, status 1
        assert (completed.returncode, completed.stdout) == (1 if refused else 0, outputs[command]), (command, completed.stderr)


def test_the_first_weather_py_is_the_final_one_without_the_prompt_and_resource() -> None:
    first = next(block.code for block in blocks(PAGE) if block.language == "python" and block.file is None)
    final = page_files(PAGE)["weather.py"]
    for function in ("get_alerts", "get_forecast", "StdioTransport(server).open()"):
        assert function in first and function in final
    assert "@server.prompt" not in first and "@server.prompt" in final


@pytest.mark.parametrize(
    "server",
    [
        ".venv/bin/mcp-sdk run weather.py --http {port}",
        ".venv/bin/python serve.py {port}",
        ".venv/bin/gunicorn -k gthread --threads 16 -w 1 -b 127.0.0.1:{port} serve:app",
    ],
)
def test_the_server_over_http_answers_the_client_and_the_http_call(folder: Path, server: str) -> None:
    page = (ROOT / PAGE).read_text(encoding="utf-8")
    as_on_the_page = server.replace("{port}", "8000").replace(" serve.py 8000", " serve.py")
    assert f"\n{as_on_the_page}\n" in page, as_on_the_page
    outputs = shown(PAGE)
    command = in_venv(server)
    with ServerProcess(command, cwd=folder) as process:
        called = run(f".venv/bin/mcp-sdk call {PAGE_URL} get_alerts state=TX", folder, {PAGE_URL: process.url})
        # client.py names the page's URL in its text: here, the server's.
        (folder / "client.py").write_text(page_files(PAGE)["client.py"].replace(PAGE_URL, process.url), encoding="utf-8")
        client = run(".venv/bin/python client.py", folder)
    assert (called.returncode, called.stdout) == (0, outputs[f".venv/bin/mcp-sdk call {PAGE_URL} get_alerts state=TX"]), called.stderr
    assert (client.returncode, client.stdout) == (0, outputs[".venv/bin/python client.py"]), client.stderr
