from __future__ import annotations

import importlib.util
import pathlib

import requests

from mcp_sdk.client.oauth import Provider

EXAMPLE = pathlib.Path(__file__).parents[4] / "examples" / "oauth_client.py"


def load_example():
    spec = importlib.util.spec_from_file_location("oauth_client_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_callback_listener_captures_the_redirect():
    example = load_example()
    listener = example.CallbackListener(0)
    listener.start()
    try:
        provider = example.build_provider(listener, scope="mcp:read")
        assert isinstance(provider, Provider)
        assert provider.redirect_uri == listener.redirect_uri
        with requests.Session() as session:
            page = session.get(listener.redirect_uri, params={"code": "c1", "state": "s1"})
            page.close()
        assert page.status_code == 200
        assert listener.wait(timeout=5) == ("c1", "s1", None)
    finally:
        listener.close()
