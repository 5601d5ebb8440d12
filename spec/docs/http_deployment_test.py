"""docs/topics/http-deployment.md's app.py, served for real by the page's own server commands
(gunicorn gthread, gunicorn gevent, waitress, uWSGI), each a subprocess on 127.0.0.1, and called
through mcp_sdk.Client over Streamable HTTP on both protocol eras."""

from __future__ import annotations

import pathlib
import re
import sys

import pytest

from mcp_sdk import Client
from mcp_sdk.client import HTTP
from spec.docs.blocks import blocks, page_files
from spec.docs.console import console_commands
from spec.support.http_server import ServerProcess

PAGE = "docs/topics/http-deployment.md"
SERVERS = ("gunicorn", "waitress-serve", "uwsgi")
#: The listening address in a command: 127.0.0.1:8000, 0.0.0.0:8000 or :8000.
ADDRESS = re.compile(r"^(?P<flag>-b|--listen=|--http-socket)?(?P<host>[\d.]*):8000$")


def served_commands() -> list[list[str]]:
    """Every console command of the page that serves app:app, as written."""
    commands = [words for block in blocks(PAGE) if block.language == "console" for words in console_commands(block.code)]
    return [words for words in commands if words[0].removeprefix(".venv/bin/") in SERVERS and "app:app" in words]


def on_a_free_port(words: list[str]) -> list[str]:
    """The command with this venv's program, listening on 127.0.0.1:{port} (ServerProcess fills it in)."""
    program = str(pathlib.Path(sys.executable).parent / words[0].removeprefix(".venv/bin/"))
    rest = []
    for word in words[1:]:
        match = ADDRESS.match(word)
        rest.append(f"{match.group('flag') or ''}127.0.0.1:{{port}}" if match else word)
    return [program, *rest]


COMMANDS = served_commands()


def test_the_page_shows_each_server() -> None:
    programs = sorted({words[0].removeprefix(".venv/bin/") for words in COMMANDS})
    assert programs == sorted(SERVERS)
    assert any("gevent" in words for words in COMMANDS)
    assert len(COMMANDS) == 5


@pytest.mark.parametrize("words", COMMANDS, ids=[" ".join(words[:5]) for words in COMMANDS])
def test_the_pages_app_serves_its_tool_under_the_pages_command(words: list[str], tmp_path: pathlib.Path) -> None:
    files = page_files(PAGE)
    assert sorted(files) == ["app.py"]
    for path, text in files.items():
        (tmp_path / path).write_text(text, encoding="utf-8")
    with ServerProcess(on_a_free_port(words), cwd=tmp_path, env={"PYTHONPATH": str(tmp_path)}) as served:
        for mode, era in (("auto", "modern"), ("legacy", "legacy")):
            with Client(transport=HTTP(url=served.url)) as client:
                client.connect(mode=mode)
                assert client.era == era
                assert [tool.name for tool in client.tools()] == ["stock"]
                result = client.call_tool(name="stock", arguments={"sku": "A-1"})["result"]
                assert result["content"] == [{"type": "text", "text": "12"}]
                assert result["structuredContent"] == {"result": 12}
