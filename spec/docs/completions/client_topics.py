'''Completions of the fragments of docs/topics/client.md, docs/topics/oauth.md, docs/ruby-differences.md
and docs/contributing.md (see spec/docs/blocks.py).

Names starting with ``_`` are the completions' own; ``after`` exercises what the block built.
'''

from __future__ import annotations

from spec.docs.completions.readme import API_EXAMPLE_COM, API_EXAMPLE_COM_END

COMPLETIONS: dict[str, tuple[str, str]] = {
    # https://api.example.com/mcp is a server on 127.0.0.1 with a `count` tool.
    "cl-http": (
        API_EXAMPLE_COM,
        "assert response['result']['content'] == [{'type': 'text', 'text': 'counted to 10'}]\n"
        "assert client.era == 'modern'  # closed, but it remembers what it spoke\n" + API_EXAMPLE_COM_END,
    ),
}

# https://mcp.example.com/mcp, played by an MCP server on 127.0.0.1 behind BearerAuth (tools `whoami`,
# `admin_report`), trusting an authorization server on 127.0.0.1 that issues JWTs (bound to a DPoP
# key when the token request carries a proof). HTTP() is pointed at the loopback server.
_OAUTH = """
import os, tempfile
from urllib.parse import parse_qs, urlsplit
import requests
import mcp_sdk.client.http as _http
from mcp_sdk.server.auth import BearerAuth, DPoPVerifier, JWTVerifier
from spec.support.dpop_fixture import DPoPJWTAuthorizationServer
from spec.support.oauth_fixture import Served
from spec.support.protected_server import ProtectedServer

_issuer = DPoPJWTAuthorizationServer()
_served = Served(_issuer)

def _auth(resource):
    verifier = JWTVerifier(jwks_uri=_issuer.jwks_uri, issuer=_issuer.issuer, refetch_interval=0)
    return BearerAuth(verifier, resource=resource, authorization_servers=[_issuer.issuer], dpop=DPoPVerifier())

_protected = ProtectedServer(_auth)
_original_init = _http.HTTP.__init__

def _to_loopback(self, url, *args, **kwargs):
    _original_init(self, url.replace("https://mcp.example.com/mcp", _protected.url), *args, **kwargs)

_http.HTTP.__init__ = _to_loopback
_issuer.clients["my-service"] = {"client_id": "my-service", "client_secret": "a-secret",
                                 "token_endpoint_auth_method": "client_secret_basic"}
os.environ["MCP_CLIENT_SECRET"] = "a-secret"

def _whoami(provider):
    from mcp_sdk import Client
    from mcp_sdk.client import HTTP
    with Client(transport=HTTP(url="https://mcp.example.com/mcp", oauth=provider)) as _client:
        _client.connect()
        return _client.call_tool("whoami")["result"]["structuredContent"]
"""
_OAUTH_END = """
_protected.close()
_served.close()
"""

# The user's browser: it follows the authorization URL (the fixture signs the user in at once) and
# the redirect goes to wait_for_callback's queue, or, with _follow, on to the program's own listener.
_BROWSER = """
import webbrowser
_redirects = []

def _browser(url):
    with requests.get(url, allow_redirects=False, timeout=30) as answer:
        query = parse_qs(urlsplit(answer.headers["Location"]).query)
    _redirects.append((query["code"][0], query["state"][0]))
    return True

def _follow(url):
    with requests.get(url, timeout=30) as answer:
        assert answer.text == "Signed in. You can close this tab and return to the terminal.", answer.text
    assert redirects.qsize() == 1
    return True

webbrowser.open = _browser

def wait_for_callback():
    return _redirects.pop()
"""

COMPLETIONS.update({
    "cl-oauth-flow": (
        _OAUTH + _BROWSER,
        "assert client.call_tool('whoami')['result']['structuredContent'] == "
        "{'subject': 'alice', 'client_id': provider.client_information()['client_id'], 'scopes': []}\n"
        "assert provider.tokens()['refresh_token']\n"
        "client.close()\n" + _OAUTH_END,
    ),
    "cl-oauth-callback": (
        _OAUTH + _BROWSER + "webbrowser.open = _follow\n",
        "assert [r.form['grant_type'] for r in _issuer.requests_to('/token')] == ['authorization_code']\n"
        "assert provider.client_information()['redirect_uris'] == [redirect_uri]\n" + _OAUTH_END,
    ),
    "cl-client-credentials": (
        _OAUTH,
        "import jwt\n"
        "assert jwt.decode(provider.access_token, options={'verify_signature': False})['client_id'] == 'my-service'\n"
        + _OAUTH_END,
    ),
    "cl-private-key-jwt": (
        _OAUTH
        + """
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
_pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
_key_file = os.path.join(tempfile.mkdtemp(), "service-key.pem")
with open(_key_file, "w") as _file:
    _file.write(_pem)
os.environ["MCP_PRIVATE_KEY_FILE"] = _key_file
_issuer.register_jwt_client("my-service", _pem)
""",
        "assert _issuer.last_assertion['header']['alg'] == 'ES256'\n"
        "assert 'client_secret' not in _issuer.requests_to('/token')[0].form\n" + _OAUTH_END,
    ),
    "cl-workload": (
        _OAUTH
        + """
_workload_jwt = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZCJ9.c2ln"
_token_file = os.path.join(tempfile.mkdtemp(), "mcp-token")
with open(_token_file, "w") as _file:
    _file.write(_workload_jwt + "\\n")
os.environ["MCP_TOKEN_FILE"] = _token_file
_issuer.clients["my-workload"] = {"client_id": "my-workload", "token_endpoint_auth_method": "none"}
_issuer.registry.authorization_grants[_workload_jwt] = {
    "client_id": "my-workload", "audience": _issuer.issuer, "resource": _protected.url, "scope": None}
""",
        "assert _issuer.requests_to('/token')[0].form['assertion'] == _workload_jwt\n"
        "assert provider.access_token is not None\n" + _OAUTH_END,
    ),
    "cl-dpop": (
        _OAUTH,
        "import jwt\n"
        "assert jwt.decode(provider.access_token, options={'verify_signature': False})['cnf'] == {'jkt': provider.dpop.thumbprint}\n"
        + _OAUTH_END,
    ),
    "cl-oauth-storage": (
        "",
        _OAUTH
        + """
from mcp_sdk.client.oauth import ClientCredentialsProvider
_path = os.path.join(tempfile.mkdtemp(), "mcp-oauth.json")
_provider = ClientCredentialsProvider(client_id="my-service", client_secret="a-secret", storage=FileStorage(_path))
assert _whoami(_provider)["client_id"] == "my-service"
import json as _json
assert _json.loads(open(_path).read())["tokens"]["access_token"] == _provider.access_token
assert oct(os.stat(_path).st_mode & 0o777) == "0o600"
# A second provider reading the same file signs in with no token request.
_again = ClientCredentialsProvider(client_id="my-service", client_secret="a-secret", storage=FileStorage(_path))
assert _whoami(_again)["client_id"] == "my-service"
assert len(_issuer.requests_to("/token")) == 1
"""
        + _OAUTH_END,
    ),
})

# docs/contributing.md shows this entry as its example of a completion.
COMPLETIONS["cl-contributing-add"] = (
    "from mcp_sdk import Server\nserver = Server(name='calculator')\n",
    "answer = server.handle({'jsonrpc': '2.0', 'id': 1, 'method': 'tools/call',\n"
    "                        'params': {'name': 'add', 'arguments': {'a': 1, 'b': 2}}})\n"
    "assert answer['result']['structuredContent'] == {'result': 3}\n",
)
