#!/usr/bin/env python3
"""The conformance client: ``python conformance/client.py <server-url>``.

The official suite (``@modelcontextprotocol/conformance``) starts a mock
server per client scenario and runs this script against it, naming the
scenario in ``MCP_CONFORMANCE_SCENARIO`` (and giving data for some in
``MCP_CONFORMANCE_CONTEXT``, a JSON object). Each scenario is a function in
:data:`SCENARIOS`; it uses only the public ``mcp_sdk`` API. Exit code 0 means
the client did what the scenario asks; the suite judges the wire traffic.

See ``conformance/SCENARIOS.md`` for what each scenario expects.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
import typing as t
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import requests  # noqa: E402

from mcp_sdk import Client, MCPError  # noqa: E402
from mcp_sdk.client import HTTP  # noqa: E402
from mcp_sdk.client.oauth import (  # noqa: E402
    ClientCredentialsProvider,
    CrossAppAccessProvider,
    InMemoryStorage,
    Provider,
)

Scenario = t.Callable[[str, t.Dict[str, t.Any]], None]

#: Scenario name -> function(server_url, context). Add ``auth/...`` entries here.
SCENARIOS: dict[str, Scenario] = {}

CLIENT_INFO = {"name": "mcp_sdk-conformance-client", "version": "1.0.0"}


def scenario(*names: str) -> t.Callable[[Scenario], Scenario]:
    """Register a function for one or more scenario names."""

    def register(function: Scenario) -> Scenario:
        for name in names:
            SCENARIOS[name] = function
        return function

    return register


def open_client(url: str, **transport_options: t.Any) -> Client:
    return Client(transport=HTTP(url=url, timeout=20.0, **transport_options))


@scenario("initialize")
def initialize(url: str, context: dict[str, t.Any]) -> None:
    """Handshake, list the tools."""
    with open_client(url) as client:
        client.connect(client_info=CLIENT_INFO)
        client.tools()


@scenario("tools_call")
def tools_call(url: str, context: dict[str, t.Any]) -> None:
    """Handshake, list the tools, call ``add_numbers``."""
    with open_client(url) as client:
        client.connect(client_info=CLIENT_INFO)
        names = [tool.name for tool in client.tools()]
        if "add_numbers" not in names:
            raise SystemExit(f"add_numbers not listed: {names}")
        response = client.call_tool(name="add_numbers", arguments={"a": 5, "b": 3})
        print(response["result"]["content"])


@scenario("request-metadata")
def request_metadata(url: str, context: dict[str, t.Any]) -> None:
    """Every request carries the 2026-07-28 envelope; the handlers registered imply the capabilities."""
    with open_client(url) as client:
        client.on_sampling(lambda params: {"role": "assistant", "content": {"type": "text", "text": "ok"}, "model": "m"})
        client.on_elicitation(lambda params: {"action": "decline"})
        client.on_roots(lambda params: [])
        client.connect(client_info=CLIENT_INFO)
        client.tools()


@scenario("sep-2322-client-request-state")
def mrtr_request_state(url: str, context: dict[str, t.Any]) -> None:
    """Multi round-trip requests: the elicitation handler answers, the SDK retries with requestState."""
    with open_client(url) as client:

        @client.on_elicitation
        def confirm(params: dict[str, t.Any]) -> dict[str, t.Any]:
            return {"action": "accept", "content": {"confirmed": True}}

        client.connect(client_info=CLIENT_INFO)
        client.tools()
        for name in ("test_mrtr_echo_state", "test_mrtr_unrelated", "test_mrtr_no_state", "test_mrtr_no_result_type"):
            print(client.call_tool(name=name, arguments={})["result"]["content"])


@scenario("http-standard-headers")
def standard_headers(url: str, context: dict[str, t.Any]) -> None:
    """Touch every method that carries Mcp-Method / Mcp-Name."""
    with open_client(url) as client:
        client.connect(client_info=CLIENT_INFO)
        for tool in client.tools():
            client.call_tool(tool=tool, arguments={})
        for resource in client.resources():
            client.read_resource(resource["uri"])
        for prompt in client.prompts():
            client.get_prompt(prompt["name"])


@scenario("http-custom-headers")
def custom_headers(url: str, context: dict[str, t.Any]) -> None:
    """Make the calls the scenario names: the SDK mirrors x-mcp-header arguments into Mcp-Param-*."""
    with open_client(url) as client:
        client.connect(client_info=CLIENT_INFO)
        client.tools()
        for call in context.get("toolCalls", []):
            client.call_tool(name=call["name"], arguments=call.get("arguments", {}))


@scenario("http-invalid-tool-headers")
def invalid_tool_headers(url: str, context: dict[str, t.Any]) -> None:
    """Call every tool the SDK keeps: tools with invalid x-mcp-header annotations are left out."""
    with open_client(url) as client:
        client.connect(client_info=CLIENT_INFO)
        for tool in client.tools():
            client.call_tool(tool=tool, arguments=sample_arguments(tool.input_schema))


def sample_arguments(schema: t.Any) -> dict[str, t.Any]:
    """A value of the declared type for each required property."""
    samples = {"string": "us-west1", "integer": 1, "boolean": True, "number": 1.5, "object": {}, "array": []}
    properties = schema.get("properties", {}) if isinstance(schema, dict) else {}
    return {name: samples.get(prop.get("type"), "x") for name, prop in properties.items() if isinstance(prop, dict)}


@scenario("json-schema-ref-no-deref")
def ref_no_deref(url: str, context: dict[str, t.Any]) -> None:
    """List tools whose schema has a network $ref: the SDK never fetches it."""
    with open_client(url) as client:
        client.connect(client_info=CLIENT_INFO)
        print([tool.name for tool in client.tools()])


@scenario("json-schema-2020-12-preservation")
def schema_preservation(url: str, context: dict[str, t.Any]) -> None:
    """Echo one tool's inputSchema through the other: the SDK keeps every keyword."""
    with open_client(url) as client:
        client.connect(client_info=CLIENT_INFO)
        tools = client.tools()
        echo = next(tool for tool in tools if "schema" in (tool.input_schema or {}).get("properties", {}))
        for tool in tools:
            if tool is not echo:
                client.call_tool(tool=echo, arguments={"schema": tool.input_schema})


# -- the skills extension (SEP-2640), driven through plain requests ---------------


@scenario("sep-2640-client-no-prefetch")
def skills_no_prefetch(url: str, context: dict[str, t.Any]) -> None:
    """List the skills; read none of their files until one is needed."""
    with open_client(url) as client:
        client.connect(client_info=CLIENT_INFO)
        print(client.request("skills/list")["result"])


@scenario("sep-2640-client-verify-digest", "sep-2640-client-verify-size", "sep-2640-client-verify-frontmatter")
def skills_verify(url: str, context: dict[str, t.Any]) -> None:
    """Load each skill: read SKILL.md, check size, digest and frontmatter, and only then its other files."""
    with open_client(url) as client:
        client.connect(client_info=CLIENT_INFO)
        for skill in client.request("skills/list")["result"].get("skills", []):
            entries = {entry["uri"]: entry for entry in skill.get("resources", [])}
            text = read_verified(client, entries[skill["uri"]])
            if text is None or frontmatter(text) != skill.get("frontmatter"):
                logging.getLogger("conformance").warning("skill %s failed verification; not loaded", skill["uri"])
                continue
            for uri, entry in entries.items():
                if uri != skill["uri"]:
                    read_verified(client, entry)


def read_verified(client: Client, entry: dict[str, t.Any]) -> str | None:
    """The text of a skill file when its size and sha256 digest match the entry, else None."""
    contents = client.read_resource(entry["uri"])
    data = "".join(content.get("text", "") for content in contents).encode("utf-8")
    if len(data) != entry.get("size") or "sha256:" + hashlib.sha256(data).hexdigest() != entry.get("digest"):
        return None
    return data.decode("utf-8")


def frontmatter(text: str) -> dict[str, str]:
    """The ``key: value`` lines between the leading ``---`` fences."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return {}
    fields: dict[str, str] = {}
    for line in lines[1:]:
        if line.strip() == "---":
            break
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    return fields


@scenario("elicitation-sep1034-client-defaults")
def elicitation_defaults(url: str, context: dict[str, t.Any]) -> None:
    """Accept the server's form with no input: the SDK fills in every field's default (SEP-1034)."""
    with open_client(url) as client:

        @client.on_elicitation
        def accept(params: dict[str, t.Any]) -> dict[str, t.Any]:
            return {"action": "accept", "content": {}}

        client.connect(client_info=CLIENT_INFO)
        client.tools()
        response = client.call_tool(name="test_client_elicitation_defaults", arguments={})
        print(response["result"]["content"])


@scenario("sse-retry")
def sse_retry(url: str, context: dict[str, t.Any]) -> None:
    """Call a tool whose stream closes early: the transport resumes it after ``retry`` (SEP-1699)."""
    with open_client(url) as client:
        client.connect(client_info=CLIENT_INFO)
        client.tools()
        response = client.call_tool(name="test_reconnection", arguments={})
        print(response["result"]["content"])


# -- authorization (auth/*) ------------------------------------------------------

#: Where the conformance client "publishes" its Client ID Metadata Document; the
#: suite only checks that this exact URL is used as ``client_id`` (never fetches it).
CIMD_URL = "https://conformance-test.local/client-metadata.json"
#: Nothing listens here: the suite's authorization server auto-approves and
#: redirects, and the redirect handler reads ``code``/``state`` off ``Location``.
REDIRECT_URI = "http://localhost:3000/callback"


class HeadlessBrowser:
    """Plays the user agent: GETs the authorization URL without following the redirect."""

    def __init__(self) -> None:
        self.code: str | None = None
        self.state: str | None = None
        self.iss: str | None = None

    def redirect_handler(self, authorization_url: str) -> None:
        with requests.Session() as session:
            response = session.get(authorization_url, allow_redirects=False, timeout=10)
            response.close()
        location = response.headers.get("Location")
        if response.status_code not in (301, 302, 303, 307, 308) or not location:
            raise SystemExit(f"authorization endpoint answered HTTP {response.status_code} without a redirect")
        query = parse_qs(urlsplit(location).query)
        if "error" in query:
            raise SystemExit(f"authorization was refused: {query['error'][0]}")
        self.code = (query.get("code") or [None])[0]
        self.state = (query.get("state") or [None])[0]
        self.iss = (query.get("iss") or [None])[0]

    def callback_handler(self) -> tuple[str | None, str | None, str | None]:
        return self.code, self.state, self.iss


def authorization_code_provider(context: dict[str, t.Any]) -> Provider:
    """The interactive client the authorization-code scenarios expect.

    It wants refresh tokens (so it asks for ``offline_access`` where offered), has a
    Client ID Metadata Document URL (used when the AS supports CIMD), and falls
    back to Dynamic Client Registration; ``auth/pre-registration`` hands it
    pre-registered credentials through its storage instead.
    """
    storage = InMemoryStorage()
    if context.get("client_id"):
        info = {"client_id": context["client_id"], "token_endpoint_auth_method": "client_secret_basic"}
        if context.get("client_secret"):
            info["client_secret"] = context["client_secret"]
        else:
            info["token_endpoint_auth_method"] = "none"
        storage.save_client_information(info)
    browser = HeadlessBrowser()
    return Provider(
        client_metadata={
            "client_name": "mcp_sdk conformance client",
            "redirect_uris": [REDIRECT_URI],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
        },
        redirect_uri=REDIRECT_URI,
        redirect_handler=browser.redirect_handler,
        callback_handler=browser.callback_handler,
        storage=storage,
        client_id_metadata_document_url=CIMD_URL,
    )


def use_protected_server(url: str, provider: t.Any) -> None:
    """Connect, list the tools, call ``test-tool``: every step may trigger (re-)authorization."""
    with open_client(url, oauth=provider) as client:
        client.connect(client_info=CLIENT_INFO)
        names = [tool.name for tool in client.tools()]
        if "test-tool" not in names:
            raise SystemExit(f"test-tool not listed: {names}")
        response = client.call_tool(name="test-tool", arguments={})
        if "error" in response:
            raise SystemExit(f"tools/call test-tool failed: {response['error']}")


@scenario(
    "auth/metadata-default",
    "auth/metadata-var1",
    "auth/metadata-var2",
    "auth/metadata-var3",
    "auth/basic-cimd",
    "auth/scope-from-www-authenticate",
    "auth/scope-from-scopes-supported",
    "auth/scope-omitted-when-undefined",
    "auth/scope-step-up",
    "auth/scope-retry-limit",
    "auth/token-endpoint-auth-basic",
    "auth/token-endpoint-auth-post",
    "auth/token-endpoint-auth-none",
    "auth/pre-registration",
    "auth/2025-03-26-oauth-metadata-backcompat",
    "auth/2025-03-26-oauth-endpoint-fallback",
    "auth/resource-mismatch",
    "auth/offline-access-scope",
    "auth/offline-access-not-supported",
    "auth/authorization-server-migration",
    "auth/iss-supported",
    "auth/iss-not-advertised",
    "auth/iss-supported-missing",
    "auth/iss-wrong-issuer",
    "auth/iss-unexpected",
    "auth/iss-normalized",
    "auth/metadata-issuer-mismatch",
    # DPoP (SEP-1932) is not implemented yet (issue 14): these run the plain flow and fail.
    "auth/dpop",
    "auth/dpop-nonce",
)
def authorization_code(url: str, context: dict[str, t.Any]) -> None:
    """The authorization code flow with PKCE, driven entirely by the SDK on 401/403."""
    use_protected_server(url, authorization_code_provider(context))


@scenario("auth/client-credentials-basic")
def client_credentials_basic(url: str, context: dict[str, t.Any]) -> None:
    """The client_credentials grant with client_secret_basic (SEP-1046)."""
    provider = ClientCredentialsProvider(
        client_id=context["client_id"],
        client_secret=context["client_secret"],
        token_endpoint_auth_method="client_secret_basic",
    )
    use_protected_server(url, provider)


@scenario("auth/client-credentials-jwt")
def client_credentials_jwt(url: str, context: dict[str, t.Any]) -> None:
    """The client_credentials grant with a private_key_jwt assertion (SEP-1046, RFC 7523)."""
    provider = ClientCredentialsProvider(
        client_id=context["client_id"],
        token_endpoint_auth_method="private_key_jwt",
        private_key=context["private_key_pem"],
        signing_algorithm=context.get("signing_algorithm", "ES256"),
    )
    use_protected_server(url, provider)


@scenario("auth/cross-app-access-complete-flow", "auth/enterprise-managed-authorization")
def cross_app_access(url: str, context: dict[str, t.Any]) -> None:
    """Enterprise-managed authorization (SEP-990): ID token -> ID-JAG at the IdP -> access token."""
    provider = CrossAppAccessProvider(
        client_id=context["client_id"],
        client_secret=context["client_secret"],
        id_token=context["idp_id_token"],
        idp_token_endpoint=context["idp_token_endpoint"],
        idp_client_id=context["idp_client_id"],
    )
    use_protected_server(url, provider)


@scenario("auth/wif-jwt-bearer")
def workload_identity(url: str, context: dict[str, t.Any]) -> None:
    """Workload identity federation (SEP-1933) is not implemented yet (issue 14)."""
    raise SystemExit("auth/wif-jwt-bearer: workload identity federation is not implemented yet")


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(threadName)s %(name)s: %(message)s")
    if len(argv) < 2:
        print("usage: client.py <server-url>", file=sys.stderr)
        return 2
    url = argv[-1]
    name = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    run = SCENARIOS.get(name)
    if run is None:
        print(f"client.py: unknown scenario {name!r}; known: {', '.join(sorted(SCENARIOS))}", file=sys.stderr)
        return 1
    try:
        run(url, context)
    except MCPError as error:
        # Expected in auth/resource-mismatch (the SDK refuses a PRM for another
        # resource) and auth/scope-retry-limit (the server never grants the scope).
        logging.getLogger("conformance").error("%s failed: %s: %s", name, type(error).__name__, error, exc_info=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
