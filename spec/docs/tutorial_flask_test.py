"""docs/tutorial/flask.md runs as written: its final ``app.py`` and its ``client.py``
(spec/docs/blocks.py ``page_files``) in a fresh folder; ``flask mcp tools`` and a tool called
through ``flask mcp stdio`` print what the page shows; the app under real gunicorn (``-k gthread``,
the page's command line) on 127.0.0.1 answers ``client.py``, whose alert, posted through the app's
own route, is what the MCP tool reads back from the database (Flask-SQLAlchemy in a tool on a
worker thread, ``current_app.config``, a resource), exactly as the page shows."""

from __future__ import annotations

from pathlib import Path

from spec.docs.blocks import ROOT, blocks, page_files
from spec.docs.console import in_venv, run, shown
from spec.support.http_server import ServerProcess

PAGE = "docs/tutorial/flask.md"
SITE = "http://127.0.0.1:8000"
GUNICORN = ".venv/bin/gunicorn -k gthread --threads 16 -w 1 -b 127.0.0.1:8000 app:app"


def test_the_app_grows_from_the_first_version_by_the_mcp_server() -> None:
    """The page's first ``app.py`` is the final one less the MCP parts: two lines change."""
    first, final = [block.code for block in blocks(PAGE) if block.file == "app.py"]
    assert final == page_files(PAGE)["app.py"]
    changed = [line for line in first.splitlines() if line not in final.splitlines()]
    assert changed == ['"""app.py: a Flask weather service."""', "from flask import Flask, request"]


def test_the_app_serves_its_tools_on_the_command_line_and_under_gunicorn(tmp_path: Path) -> None:
    files = page_files(PAGE)
    assert sorted(files) == ["app.py", "client.py"]
    for path, text in files.items():
        (tmp_path / path).write_text(text, encoding="utf-8")
    outputs = shown(PAGE)

    for command in (".venv/bin/flask --app app mcp tools", ".venv/bin/mcp-sdk call '.venv/bin/flask --app app mcp stdio' get_alerts state=CA"):
        completed = run(command, tmp_path)
        assert (completed.returncode, completed.stdout) == (0, outputs[command]), completed.stderr[-3000:]

    assert f"\n{GUNICORN}\n" in (ROOT / PAGE).read_text(encoding="utf-8")
    with ServerProcess(in_venv(GUNICORN, {"127.0.0.1:8000": "127.0.0.1:{port}"}), cwd=tmp_path) as process:
        # client.py names the page's address in its text: here, the server's.
        (tmp_path / "client.py").write_text(files["client.py"].replace(SITE, process.base), encoding="utf-8")
        client = run(".venv/bin/python client.py", tmp_path)
    assert (client.returncode, client.stdout) == (0, outputs[".venv/bin/python client.py"]), client.stderr[-3000:]
    assert (tmp_path / "instance" / "weather.sqlite3").exists()  # where the page says the database is
