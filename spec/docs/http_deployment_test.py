"""docs/topics/http-deployment.md's app.py, served for real: gunicorn gthread, gunicorn gevent and
waitress, each a subprocess on 127.0.0.1, called through mcp_sdk.Client over Streamable HTTP."""

from __future__ import annotations

import pathlib

import pytest

from mcp_sdk import Client
from mcp_sdk.client import HTTP
from spec.docs.blocks import page_files
from spec.support.http_server import PYTHON, ServerProcess

PAGE = "docs/topics/http-deployment.md"

#: The page's commands, on a free port of 127.0.0.1 ({port}).
SERVERS = {
    "gunicorn-gthread": [PYTHON, "-m", "gunicorn", "-k", "gthread", "--threads", "16", "-w", "1", "-b", "127.0.0.1:{port}", "app:app"],
    "gunicorn-gevent": [PYTHON, "-m", "gunicorn", "-k", "gevent", "-w", "1", "--worker-connections", "200", "-b", "127.0.0.1:{port}", "app:app"],
    "waitress": [PYTHON, "-m", "waitress", "--listen=127.0.0.1:{port}", "--threads=16", "--channel-timeout=60", "app:app"],
}


@pytest.mark.parametrize("name", sorted(SERVERS))
def test_the_pages_app_serves_its_tool_under_each_server(name: str, tmp_path: pathlib.Path) -> None:
    files = page_files(PAGE)
    assert sorted(files) == ["app.py"]
    for path, text in files.items():
        (tmp_path / path).write_text(text, encoding="utf-8")
    with ServerProcess(SERVERS[name], cwd=tmp_path) as served:
        for mode, era in (("auto", "modern"), ("legacy", "legacy")):
            with Client(transport=HTTP(url=served.url)) as client:
                client.connect(mode=mode)
                assert client.era == era
                assert [tool.name for tool in client.tools()] == ["stock"]
                result = client.call_tool(name="stock", arguments={"sku": "A-1"})["result"]
                assert result["content"] == [{"type": "text", "text": "12"}]
                assert result["structuredContent"] == {"result": 12}
