"""docs/tutorial/django.md runs as written: in a fresh folder, the page's ``django-admin
startproject`` and ``manage.py startapp``, then its files over theirs (spec/docs/blocks.py
``page_files``: settings, urls, the model, the view, the ``mcp.py`` with the tools, the client),
``makemigrations`` and ``migrate``; ``manage.py mcp tools`` and ``manage.py mcp call`` print what the
page shows; the project under real gunicorn (``-k gthread``, the page's command line) on 127.0.0.1
answers ``client.py``, whose alert, posted through the project's own view, is what the MCP tool reads
back from the model on a worker thread, exactly as the page shows."""

from __future__ import annotations

from pathlib import Path

from spec.docs.blocks import ROOT, blocks, page_files
from spec.docs.console import console_commands_of, in_venv, run, shown
from spec.support.http_server import ServerProcess

PAGE = "docs/tutorial/django.md"
SITE = "http://127.0.0.1:8000"
GUNICORN = ".venv/bin/gunicorn -k gthread --threads 16 -w 1 -b 127.0.0.1:8000 mysite.wsgi:application"
FILES = ["client.py", "mysite/settings.py", "mysite/urls.py", "weather/mcp.py", "weather/models.py", "weather/views.py"]


def test_the_project_serves_its_tools_with_manage_py_and_under_gunicorn(tmp_path: Path) -> None:
    set_up, migrate = [console_commands_of(block.code) for block in blocks(PAGE) if block.language == "console"][:2]
    assert set_up[1:] == [".venv/bin/django-admin startproject mysite .", ".venv/bin/python manage.py startapp weather"]
    assert migrate == [".venv/bin/python manage.py makemigrations weather", ".venv/bin/python manage.py migrate"]
    files = page_files(PAGE)
    assert sorted(files) == FILES
    for command in set_up[1:]:  # the project and the app, as Django creates them
        completed = run(command, tmp_path)
        assert completed.returncode == 0, completed.stderr[-3000:]
    for path, text in files.items():
        (tmp_path / path).write_text(text, encoding="utf-8")
    for command in migrate:
        completed = run(command, tmp_path)
        assert completed.returncode == 0, completed.stderr[-3000:]
    outputs = shown(PAGE)

    for command in (".venv/bin/python manage.py mcp tools", ".venv/bin/python manage.py mcp call get_alerts state=CA"):
        completed = run(command, tmp_path)
        assert (completed.returncode, completed.stdout) == (0, outputs[command]), completed.stderr[-3000:]

    assert f"\n{GUNICORN}\n" in (ROOT / PAGE).read_text(encoding="utf-8")
    with ServerProcess(in_venv(GUNICORN, {"127.0.0.1:8000": "127.0.0.1:{port}"}), cwd=tmp_path, path="/mcp/") as process:
        # client.py names the page's address in its text: here, the server's.
        (tmp_path / "client.py").write_text(files["client.py"].replace(SITE, process.base), encoding="utf-8")
        client = run(".venv/bin/python client.py", tmp_path)
    assert (client.returncode, client.stdout) == (0, outputs[".venv/bin/python client.py"]), client.stderr[-3000:]
