"""Loopback OAuth fixtures: an authorization server and a protected "MCP" endpoint.

Both are one WSGI app, :class:`FixtureApp`, with roles switched on per instance,
served by werkzeug on ``127.0.0.1`` with an ephemeral port. Every request is
recorded (:attr:`FixtureApp.requests`) so tests can assert exactly what the
client sent. Behaviour is configured through plain attributes.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import threading
import typing as t
from dataclasses import dataclass, field
from urllib.parse import unquote_plus, urlencode

from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response


@dataclass
class Recorded:
    """One request as the fixture received it."""

    method: str
    path: str
    query: dict[str, str]
    form: dict[str, str]
    json: t.Any
    headers: dict[str, str]


@dataclass
class TokenRecord:
    client_id: str
    scope: str | None
    resource: str | None


@dataclass
class Registry:
    """State shared by the authorization server and the resource server."""

    access_tokens: dict[str, TokenRecord] = field(default_factory=dict)
    refresh_tokens: dict[str, TokenRecord] = field(default_factory=dict)
    #: ID-JAGs an identity provider issued (SEP-990): grant -> its claims.
    authorization_grants: dict[str, dict[str, t.Any]] = field(default_factory=dict)


TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange"
JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"
ID_JAG_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id-jag"
ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token"


class FixtureApp:
    """A configurable authorization server and/or MCP resource server.

    :param authorization_server: serve AS metadata, ``/register``, ``/authorize``, ``/token``.
    :param resource_server: serve Protected Resource Metadata and ``POST /mcp``.
    """

    def __init__(self, *, authorization_server: bool = False, resource_server: bool = False, registry: Registry | None = None) -> None:
        self.is_authorization_server = authorization_server
        self.is_resource_server = resource_server
        self.registry = registry or Registry()
        self.requests: list[Recorded] = []
        self.base_url = ""  # set by serve()
        self._lock = threading.Lock()

        # -- authorization server behaviour --
        #: Path of the issuer identifier ("" or e.g. "/tenant1").
        self.issuer_path = ""
        #: Where AS metadata is published: "oauth" (RFC 8414 path-inserted),
        #: "oidc" (OIDC path-inserted), "oidc-appended".
        self.metadata_locations: set[str] = {"oauth"}
        #: Merged over the generated metadata; a ``None`` value removes the key.
        self.metadata_overrides: dict[str, t.Any] = {}
        #: Pre-registered clients: client_id -> registration dict.
        self.clients: dict[str, dict[str, t.Any]] = {}
        self.codes: dict[str, dict[str, t.Any]] = {}
        self.issue_refresh_tokens = True
        #: Scope granted on authorization_code when the request had none.
        self.default_granted_scope: str | None = None
        #: When set, tokens are granted at most these scopes.
        self.grantable_scopes: set[str] | None = None
        #: Echo ``scope`` in token responses.
        self.echo_scope = True
        #: When set, ``/token`` answers ``(status, body)`` instead of issuing tokens
        #: (``bytes`` are sent as they are, anything else as JSON).
        self.token_response: tuple[int, t.Any] | None = None
        #: Answers ``/token`` gives first, one per request, before issuing tokens again.
        self.token_responses: list[tuple[int, t.Any]] = []
        #: ``expires_in`` of the access tokens issued.
        self.expires_in = 3600
        #: When set, ``/register`` answers ``(status, body)``.
        self.registration_response: tuple[int, t.Any] | None = None
        #: Replace the ``state`` sent back by ``/authorize``.
        self.tamper_state: str | None = None
        #: Add an ``iss`` parameter to the authorization response.
        self.send_iss = False
        #: Paths answered with a body larger than 1 MiB.
        self.oversized_paths: set[str] = set()
        #: Send those bodies chunked, without Content-Length.
        self.stream_oversized = False
        #: Header and claims of the last client assertion received.
        self.last_assertion: dict[str, t.Any] | None = None
        #: Paths answered with a 302 to the given location.
        self.redirects: dict[str, str] = {}
        #: As an identity provider (SEP-990): ID tokens it accepts in a token exchange.
        self.id_tokens: set[str] = set()
        #: The ``client_id`` (at the target authorization server) its ID-JAGs name.
        self.jag_client_id: str | None = None
        #: Merged over the token exchange response; a ``None`` value removes the key.
        self.token_exchange_overrides: dict[str, t.Any] = {}

        # -- resource server behaviour --
        self.mcp_path = "/mcp"
        #: Where PRM is published: "path" (path-aware), "root", or a custom path.
        self.prm_locations: set[str] = {"path"}
        #: Merged over the generated PRM; a ``None`` value removes the key.
        self.prm_overrides: dict[str, t.Any] = {}
        #: Issuer URL listed in ``authorization_servers`` (defaults to this app's).
        self.authorization_server_url: str | None = None
        #: ``resource_metadata`` in the challenge: None = the PRM path URL, "" = omitted.
        self.challenge_resource_metadata: str | None = None
        #: ``scope`` in the 401 challenge.
        self.challenge_scope: str | None = None
        #: Scopes every MCP request needs; missing ones get a 403 insufficient_scope.
        self.required_scopes: list[str] = []
        #: Full override of the 401 ``WWW-Authenticate`` header.
        self.www_authenticate: str | None = None
        #: Reject every token (to test loop bounds).
        self.reject_all_tokens = False

    # ------------------------------------------------------------------ plumbing

    def __call__(self, environ: dict[str, t.Any], start_response: t.Any) -> t.Any:
        request = Request(environ)
        body = request.get_data(cache=True)
        form = {key: value for key, value in request.form.items()} if request.mimetype == "application/x-www-form-urlencoded" else {}
        try:
            parsed_json = json.loads(body) if request.mimetype == "application/json" else None
        except ValueError:
            parsed_json = None
        with self._lock:
            self.requests.append(
                Recorded(request.method, request.path, dict(request.args.items()), form, parsed_json, dict(request.headers.items()))
            )
        response = self.dispatch(request, form, parsed_json)
        return response(environ, start_response)

    def requests_to(self, path: str, method: str | None = None) -> list[Recorded]:
        """The recorded requests for ``path`` (optionally one method)."""
        return [r for r in self.requests if r.path == path and (method is None or r.method == method)]

    def paths(self) -> list[str]:
        """``"METHOD /path"`` of every recorded request, in order."""
        return [f"{r.method} {r.path}" for r in self.requests]

    def dispatch(self, request: Request, form: dict[str, str], body: t.Any) -> Response:
        path = request.path
        if path in self.oversized_paths:
            if self.stream_oversized:
                # No Content-Length: the client has to count while reading.
                chunks = (b" " * 65536 for _ in range(17))
                return Response(chunks, content_type="application/json", direct_passthrough=True)
            return Response(b"{" + b" " * (1024 * 1024 + 10) + b"}", content_type="application/json")
        if path in self.redirects:
            return Response(status=302, headers={"Location": self.redirects[path]})
        if self.is_resource_server:
            if request.method == "POST" and path == self.mcp_path:
                return self.mcp(request)
            if request.method == "GET" and path in self._prm_paths():
                return _json(self.protected_resource_metadata())
        if self.is_authorization_server:
            if request.method == "GET" and path in self._metadata_paths():
                return _json(self.metadata())
            if request.method == "POST" and path == "/register":
                return self.register(body)
            if request.method == "GET" and path == "/authorize":
                return self.authorize(request)
            if request.method == "POST" and path == "/token":
                return self.token(request, form)
        return _json({"error": "not_found"}, 404)

    # ---------------------------------------------------------- authorization server

    @property
    def issuer(self) -> str:
        return self.base_url + self.issuer_path

    def _metadata_paths(self) -> set[str]:
        paths = set()
        if "oauth" in self.metadata_locations:
            paths.add("/.well-known/oauth-authorization-server" + self.issuer_path)
        if "oidc" in self.metadata_locations:
            paths.add("/.well-known/openid-configuration" + self.issuer_path)
        if "oidc-appended" in self.metadata_locations:
            paths.add(self.issuer_path + "/.well-known/openid-configuration")
        return paths

    def metadata(self) -> dict[str, t.Any]:
        document: dict[str, t.Any] = {
            "issuer": self.issuer,
            "authorization_endpoint": self.base_url + "/authorize",
            "token_endpoint": self.base_url + "/token",
            "registration_endpoint": self.base_url + "/register",
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none", "client_secret_basic", "client_secret_post"],
        }
        return _merge(document, self.metadata_overrides)

    def register(self, body: t.Any) -> Response:
        if self.registration_response is not None:
            status, payload = self.registration_response
            return _json(payload, status)
        if not isinstance(body, dict) or not body.get("redirect_uris"):
            return _json({"error": "invalid_client_metadata"}, 400)
        client_id = "client-" + secrets.token_hex(4)
        info = dict(body, client_id=client_id)
        info.setdefault("token_endpoint_auth_method", "client_secret_basic")
        if info["token_endpoint_auth_method"] != "none":
            info["client_secret"] = "secret-" + secrets.token_hex(8)
        self.clients[client_id] = info
        return _json(info, 201)

    def authorize(self, request: Request) -> Response:
        args = request.args
        client_id = args.get("client_id", "")
        client = self.clients.get(client_id)
        if client is None and client_id.startswith("https://") and self.metadata().get("client_id_metadata_document_supported"):
            client = {"client_id": client_id, "redirect_uris": [args.get("redirect_uri")], "token_endpoint_auth_method": "none"}
            self.clients[client_id] = client
        if client is None:
            return _json({"error": "invalid_client"}, 400)
        redirect_uri = args.get("redirect_uri")
        if redirect_uri not in client.get("redirect_uris", []):
            return _json({"error": "invalid_redirect_uri"}, 400)
        if args.get("response_type") != "code" or args.get("code_challenge_method") != "S256" or not args.get("code_challenge"):
            return _json({"error": "invalid_request"}, 400)
        code = "code-" + secrets.token_hex(8)
        self.codes[code] = {
            "client_id": client_id,
            "redirect_uri": redirect_uri,
            "challenge": args["code_challenge"],
            "scope": args.get("scope") or self.default_granted_scope,
            "resource": args.get("resource"),
        }
        params = {"code": code, "state": self.tamper_state if self.tamper_state is not None else args.get("state", "")}
        if self.send_iss:
            params["iss"] = self.issuer
        return Response(status=302, headers={"Location": f"{redirect_uri}?{urlencode(params)}"})

    def register_jwt_client(self, client_id: str, private_key_pem: str) -> None:
        """Pre-register a ``private_key_jwt`` client by the public half of ``private_key_pem``."""
        from cryptography.hazmat.primitives.serialization import load_pem_private_key

        public = load_pem_private_key(private_key_pem.encode(), password=None).public_key()
        self.clients[client_id] = {"client_id": client_id, "token_endpoint_auth_method": "private_key_jwt", "public_key": public}

    def _verify_assertion(self, assertion: str) -> str | None:
        import jwt
        from cryptography.hazmat.primitives.asymmetric import ec

        try:
            encoded_header, encoded_claims, _ = assertion.split(".")
            header = json.loads(_b64decode(encoded_header))
            claims = json.loads(_b64decode(encoded_claims))
        except ValueError:
            return None
        self.last_assertion = {"header": header, "claims": claims}
        client = self.clients.get(claims.get("sub", ""))
        if client is None or client.get("token_endpoint_auth_method") != "private_key_jwt":
            return None
        public = client["public_key"]
        algorithm = "ES256" if isinstance(public, ec.EllipticCurvePublicKey) else "RS256"
        try:
            verified = jwt.decode(
                assertion,
                public,
                algorithms=[algorithm],
                audience=[self.issuer, self.issuer + "/"],
                leeway=5,
                options={"require": ["exp", "iat", "iss", "sub", "aud"]},
            )
        except jwt.PyJWTError:
            return None
        if verified["iss"] != verified["sub"]:
            return None
        return str(verified["sub"])

    def _authenticate_client(self, request: Request, form: dict[str, str]) -> str | None:
        if form.get("client_assertion_type") == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer":
            return self._verify_assertion(form.get("client_assertion", ""))
        header = request.headers.get("Authorization", "")
        if header.startswith("Basic "):
            decoded = base64.b64decode(header[6:]).decode()
            raw_id, _, raw_secret = decoded.partition(":")
            client_id, secret = unquote_plus(raw_id), unquote_plus(raw_secret)
            client = self.clients.get(client_id)
            if client and client.get("client_secret") == secret and client.get("token_endpoint_auth_method", "client_secret_basic") == "client_secret_basic":
                return client_id
            return None
        client_id = form.get("client_id", "")
        client = self.clients.get(client_id)
        if client is None:
            return None
        method = client.get("token_endpoint_auth_method", "client_secret_basic")
        if method == "none":
            return client_id if "client_secret" not in form else None
        if method == "client_secret_post":
            return client_id if form.get("client_secret") == client.get("client_secret") else None
        return None

    def token(self, request: Request, form: dict[str, str]) -> Response:
        if self.token_responses:
            status, payload = self.token_responses.pop(0)
            return _json(payload, status)
        if self.token_response is not None:
            status, payload = self.token_response
            if isinstance(payload, bytes):
                return Response(payload, status=status, content_type="application/json")
            return _json(payload, status)
        grant_type = form.get("grant_type")
        client_id = self._authenticate_client(request, form)
        if client_id is None:
            return _json({"error": "invalid_client"}, 401)
        if grant_type == "authorization_code":
            grant = self.codes.pop(form.get("code", ""), None)
            if grant is None or grant["client_id"] != client_id or grant["redirect_uri"] != form.get("redirect_uri"):
                return _json({"error": "invalid_grant"}, 400)
            verifier = form.get("code_verifier", "")
            challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
            if challenge != grant["challenge"] or form.get("resource") != grant["resource"]:
                return _json({"error": "invalid_grant"}, 400)
            return self._issue(TokenRecord(client_id, grant["scope"], grant["resource"]), refresh=self.issue_refresh_tokens)
        if grant_type == "refresh_token":
            record = self.registry.refresh_tokens.pop(form.get("refresh_token", ""), None)
            if record is None or record.client_id != client_id:
                return _json({"error": "invalid_grant"}, 400)
            return self._issue(TokenRecord(client_id, record.scope, form.get("resource")), refresh=True)
        if grant_type == "client_credentials":
            return self._issue(TokenRecord(client_id, form.get("scope"), form.get("resource")), refresh=False)
        if grant_type == TOKEN_EXCHANGE_GRANT:
            return self._token_exchange(form)
        if grant_type == JWT_BEARER_GRANT:
            grant = self.registry.authorization_grants.pop(form.get("assertion", ""), None)
            if grant is None or grant["client_id"] != client_id or grant["audience"] not in (self.issuer, self.issuer + "/"):
                return _json({"error": "invalid_grant"}, 400)
            return self._issue(TokenRecord(client_id, form.get("scope") or grant["scope"], grant["resource"]), refresh=False)
        return _json({"error": "unsupported_grant_type"}, 400)

    def _token_exchange(self, form: dict[str, str]) -> Response:
        # RFC 8693 as an identity provider: an ID token in, an ID-JAG out.
        if (
            form.get("requested_token_type") != ID_JAG_TOKEN_TYPE
            or form.get("subject_token_type") != ID_TOKEN_TYPE
            or not form.get("audience")
            or not form.get("resource")
        ):
            return _json({"error": "invalid_request"}, 400)
        if form.get("subject_token") not in self.id_tokens:
            return _json({"error": "invalid_grant"}, 400)
        grant = "jag-" + secrets.token_hex(12)
        self.registry.authorization_grants[grant] = {
            "client_id": self.jag_client_id,
            "audience": form["audience"],
            "resource": form["resource"],
            "scope": form.get("scope"),
        }
        body = {"access_token": grant, "issued_token_type": ID_JAG_TOKEN_TYPE, "token_type": "N_A", "expires_in": 300}
        return _json(_merge(body, self.token_exchange_overrides))

    def access_token_for(self, record: TokenRecord) -> str:
        """A new access token for ``record`` (opaque here; a subclass may issue JWTs)."""
        access_token = "at-" + secrets.token_hex(12)
        self.registry.access_tokens[access_token] = record
        return access_token

    def _issue(self, record: TokenRecord, refresh: bool) -> Response:
        if self.grantable_scopes is not None and record.scope:
            record.scope = " ".join(s for s in record.scope.split() if s in self.grantable_scopes) or None
        access_token = self.access_token_for(record)
        body: dict[str, t.Any] = {"access_token": access_token, "token_type": "Bearer", "expires_in": self.expires_in}
        if record.scope and self.echo_scope:
            body["scope"] = record.scope
        if refresh:
            refresh_token = "rt-" + secrets.token_hex(12)
            self.registry.refresh_tokens[refresh_token] = record
            body["refresh_token"] = refresh_token
        return _json(body)

    # -------------------------------------------------------------- resource server

    def _prm_paths(self) -> set[str]:
        paths = set()
        for location in self.prm_locations:
            if location == "path":
                paths.add("/.well-known/oauth-protected-resource" + self.mcp_path)
            elif location == "root":
                paths.add("/.well-known/oauth-protected-resource")
            else:
                paths.add(location)
        return paths

    @property
    def mcp_url(self) -> str:
        return self.base_url + self.mcp_path

    def protected_resource_metadata(self) -> dict[str, t.Any]:
        document = {
            "resource": self.mcp_url,
            "authorization_servers": [self.authorization_server_url or self.issuer],
        }
        return _merge(document, self.prm_overrides)

    def mcp(self, request: Request) -> Response:
        header = request.headers.get("Authorization", "")
        record = None
        if header.startswith("Bearer ") and not self.reject_all_tokens:
            record = self.registry.access_tokens.get(header[7:])
        if record is None:
            return _json({"error": "invalid_token"}, 401, {"WWW-Authenticate": self._challenge()})
        granted = (record.scope or "").split()
        missing = [s for s in self.required_scopes if s not in granted]
        if missing:
            challenge = f'Bearer error="insufficient_scope", scope="{" ".join(self.required_scopes)}", resource_metadata="{self._resource_metadata_url()}"'
            return _json({"error": "insufficient_scope"}, 403, {"WWW-Authenticate": challenge})
        return _json({"jsonrpc": "2.0", "id": 1, "result": {"ok": True, "scope": record.scope}})

    def _resource_metadata_url(self) -> str:
        if self.challenge_resource_metadata is not None:
            return self.challenge_resource_metadata
        return self.base_url + "/.well-known/oauth-protected-resource" + self.mcp_path

    def _challenge(self) -> str:
        if self.www_authenticate is not None:
            return self.www_authenticate
        params = []
        resource_metadata = self._resource_metadata_url()
        if resource_metadata:
            params.append(f'resource_metadata="{resource_metadata}"')
        if self.challenge_scope:
            params.append(f'scope="{self.challenge_scope}"')
        return "Bearer " + ", ".join(params) if params else "Bearer"


def _b64decode(value: str) -> bytes:
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def _merge(document: dict[str, t.Any], overrides: dict[str, t.Any]) -> dict[str, t.Any]:
    merged = dict(document)
    for key, value in overrides.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged


def _json(payload: t.Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(json.dumps(payload), status=status, headers=headers or {}, content_type="application/json")


class Served:
    """A :class:`FixtureApp` served on 127.0.0.1 in a background thread."""

    def __init__(self, app: FixtureApp) -> None:
        self.app = app
        self._server = make_server("127.0.0.1", 0, app, threaded=True)
        app.base_url = f"http://127.0.0.1:{self._server.server_port}"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


class FixtureServer(FixtureApp):
    """Convenience: an app that is served as soon as it is built; call :meth:`close`."""

    def __init__(self, **kwargs: t.Any) -> None:
        super().__init__(**kwargs)
        self._served = Served(self)

    def close(self) -> None:
        self._served.close()


def browser() -> tuple[t.Callable[[str], None], t.Callable[[], tuple[str, str]], list[str]]:
    """A fake user agent: ``(redirect_handler, callback_handler, visited_urls)``.

    The redirect handler GETs the authorization URL without following the
    redirect and keeps ``code``/``state`` from ``Location`` for the callback.
    """
    import requests
    from urllib.parse import parse_qs, urlsplit

    visited: list[str] = []
    answer: dict[str, str] = {}

    def redirect_handler(url: str) -> None:
        visited.append(url)
        with requests.Session() as session:
            response = session.get(url, allow_redirects=False)
            response.close()
        location = response.headers.get("Location", "")
        query = parse_qs(urlsplit(location).query)
        answer.clear()
        answer.update({key: values[0] for key, values in query.items()})

    def callback_handler() -> tuple[str, str]:
        return answer.get("code", ""), answer.get("state", "")

    return redirect_handler, callback_handler, visited


#: Where the fake browser pretends the client listens (never contacted: the callback is read from ``Location``).
REDIRECT_URI = "http://127.0.0.1:9/callback"


def browser_provider() -> tuple[t.Any, list[str]]:
    """A public authorization-code :class:`~mcp_sdk.client.oauth.Provider` signing in through
    :func:`browser`; also the URLs the browser visited."""
    from mcp_sdk.client.oauth import Provider

    redirect_handler, callback_handler, visited = browser()
    provider = Provider(
        client_metadata={
            "client_name": "spec client",
            "redirect_uris": [REDIRECT_URI],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
        },
        redirect_uri=REDIRECT_URI,
        redirect_handler=redirect_handler,
        callback_handler=callback_handler,
    )
    return provider, visited


# Throwaway keys generated for these tests only (openssl genpkey); never used anywhere else.
TEST_EC_PRIVATE_KEY = """\
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgcNeIipRUxz+NnP2c
8n4jCz4jCu8sAaKa/ryfo+7BuOqhRANCAAQ4mWyaJko7gkM6SjGEph5rdkaK1x/g
/Fv5ZRdK5BZXIJYQGtu+xltGRFNF6nJy4m8ew/a9GJ+DRcsZN+xDrDLd
-----END PRIVATE KEY-----
"""

TEST_EC_SEC1_PRIVATE_KEY = """\
-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIHDXiIqUVMc/jZz9nPJ+Iws+IwrvLAGimv68n6PuwbjqoAoGCCqGSM49
AwEHoUQDQgAEOJlsmiZKO4JDOkoxhKYea3ZGitcf4Pxb+WUXSuQWVyCWEBrbvsZb
RkRTRepycuJvHsP2vRifg0XLGTfsQ6wy3Q==
-----END EC PRIVATE KEY-----
"""

TEST_RSA_PRIVATE_KEY = """\
-----BEGIN PRIVATE KEY-----
MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDMU1PK/mpx9cO6
1+sDNQZZ8BJYR+cIoasO6wJOW0ls/0s47oEOfZ23+BmZiQ/uU5vbwFiS+r/lojru
t5LG0dcxm7D697YGa1Lc2S4WSrKgco4otClJrT0xCsa3Wcn6f5vm10vbBdcXqKJ7
4X3ZMdWeKDDWcPfTn0RR6FFzhNIC5jwSZIEZIp0/Ezq6RZOeNKnASfLEtZtY5T5u
TSc0t2OAh3GUBnHRfS6xw1TbW0phHSYvIMK9qVt6SrMxRNTTJTzxCPZ5fGYgE3bB
m9OIixkjJIQSXRZAMqrsY9Z/m4Q2AC1Uys3J0BSyWalOgWEviOyr5evCyPVQLI0S
3anajFnRAgMBAAECggEACjMYqjf0CVdK239eyGyzsfale8mvE0O6vcZmeZHeAvZl
g2SIhbgokN/uKzdn165Nx/T8lu20eZqVFYiNZ6Ze9yd9+LE34W8nFkYzIkK9UvwU
85w2uWpP9SxECjANwJbxKd9Sdo7+kzxETCnP9fEiaEA6W+IMxQAc0Xfm5Pza3PEZ
dXPfbybeAwTEK3nttNAGEql9tXMoPvunrdw5l9Z2JdKMGMGdhY0R2rFcPxcrGk55
CK20jc45eCRAJ2bDDssj4e5hcpBxKRIHnLlH9gKnANoMlev/Xn56tbcMPXB/kvdX
5x4nJY32BT/ZeiMcHQY5Bdd+jOylGyoT+2SOW5RTAQKBgQDoMpuPZEwcO3YD6H8O
mLb0vnqYfHg1lIsO/1SCrveDiItFuIeGscfwX2Z/ntKvFDUQDmsYAPDobBW3/pml
R76iZQO7qfpVZHGauR8/eoroisuMYK9udiuOzqxovM4fdDidm8K2zitBzRFlaFri
N78qwCaj+flJNI/YPNdUdCgccQKBgQDhRUpXjIPHfRPyNoRD77gXeN1eqz0Rtr6H
vTr26pyLoWJpzxOJGcr3NaqorRDn3x0dRqSXBFaJA/pZAnjpi06bFtFvyow4cdN+
7t4avfDF8BpA+pov6I7INxbIJHsSZmNe25NHU4MNaU2HjG2bZuEInbqiA8wwDg9p
Z1/BamhDYQKBgENHLpWcnQTtIaO+QNpM224Mpt756aa0tJoS1zzKT4M4FAqOjg40
Ated/Mfrj+YUt89ALj2VQDhH4P8f8QrXv9+z3yIH/TWy1cvb6bbt3cPFO3cgKJSb
/sDxFzl9w0eP2Duqfv+SuyvkrC6yzuqO9n//jvKiIl3YsfkYn9ejlF+xAoGBAN2i
TZ1La0/3GIvC5WjtzmKRkMMWmPP3pwdnvz613yVlt6zAhsjp7o5AZ9Kiy7JGCqAG
I+NM6lLN7h5q10l3vPPLhG2Hi2PxYZNOMol+/QfRzhLGPLMMDIah5LEva0LUJ8pp
IEMZwCOOyi+lkyVFF/xhKwFB2UAiZTlf8o8aQNChAoGBAKN9T4PkQiOCMF+Gy+Pm
Sg055jyT68gbhpQP5773wcgvb+TkPEF+6J3E3VSqrTQ3O2EHi7CWTGgeRzlWmqYz
B13/avQCkh9TBNW7EB+T1yg0AS5N4LKdkBzmYLh+hdsZXsCNpAMI5G4q5iru3Nc+
UYlJXMLbT6y8NrnsB2LHhBoe
-----END PRIVATE KEY-----
"""

TEST_RSA_PKCS1_PRIVATE_KEY = """\
-----BEGIN RSA PRIVATE KEY-----
MIIEpAIBAAKCAQEAzFNTyv5qcfXDutfrAzUGWfASWEfnCKGrDusCTltJbP9LOO6B
Dn2dt/gZmYkP7lOb28BYkvq/5aI67reSxtHXMZuw+ve2BmtS3NkuFkqyoHKOKLQp
Sa09MQrGt1nJ+n+b5tdL2wXXF6iie+F92THVnigw1nD3059EUehRc4TSAuY8EmSB
GSKdPxM6ukWTnjSpwEnyxLWbWOU+bk0nNLdjgIdxlAZx0X0uscNU21tKYR0mLyDC
valbekqzMUTU0yU88Qj2eXxmIBN2wZvTiIsZIySEEl0WQDKq7GPWf5uENgAtVMrN
ydAUslmpToFhL4jsq+Xrwsj1UCyNEt2p2oxZ0QIDAQABAoIBAAozGKo39AlXStt/
Xshss7H2pXvJrxNDur3GZnmR3gL2ZYNkiIW4KJDf7is3Z9euTcf0/JbttHmalRWI
jWemXvcnffixN+FvJxZGMyJCvVL8FPOcNrlqT/UsRAowDcCW8SnfUnaO/pM8REwp
z/XxImhAOlviDMUAHNF35uT82tzxGXVz328m3gMExCt57bTQBhKpfbVzKD77p63c
OZfWdiXSjBjBnYWNEdqxXD8XKxpOeQittI3OOXgkQCdmww7LI+HuYXKQcSkSB5y5
R/YCpwDaDJXr/15+erW3DD1wf5L3V+ceJyWN9gU/2XojHB0GOQXXfozspRsqE/tk
jluUUwECgYEA6DKbj2RMHDt2A+h/Dpi29L56mHx4NZSLDv9Ugq73g4iLRbiHhrHH
8F9mf57SrxQ1EA5rGADw6GwVt/6ZpUe+omUDu6n6VWRxmrkfP3qK6IrLjGCvbnYr
js6saLzOH3Q4nZvCts4rQc0RZWha4je/KsAmo/n5STSP2DzXVHQoHHECgYEA4UVK
V4yDx30T8jaEQ++4F3jdXqs9Eba+h7069uqci6Fiac8TiRnK9zWqqK0Q598dHUak
lwRWiQP6WQJ46YtOmxbRb8qMOHHTfu7eGr3wxfAaQPqaL+iOyDcWyCR7EmZjXtuT
R1ODDWlNh4xtm2bhCJ26ogPMMA4PaWdfwWpoQ2ECgYBDRy6VnJ0E7SGjvkDaTNtu
DKbe+emmtLSaEtc8yk+DOBQKjo4ONALXnfzH64/mFLfPQC49lUA4R+D/H/EK17/f
s98iB/01stXL2+m27d3DxTt3ICiUm/7A8Rc5fcNHj9g7qn7/krsr5Kwuss7qjvZ/
/47yoiJd2LH5GJ/Xo5RfsQKBgQDdok2dS2tP9xiLwuVo7c5ikZDDFpjz96cHZ78+
td8lZbeswIbI6e6OQGfSosuyRgqgBiPjTOpSze4eatdJd7zzy4Rth4tj8WGTTjKJ
fv0H0c4SxjyzDAyGoeSxL2tC1CfKaSBDGcAjjsovpZMlRRf8YSsBQdlAImU5X/KP
GkDQoQKBgQCjfU+D5EIjgjBfhsvj5koNOeY8k+vIG4aUD+e+98HIL2/k5DxBfuid
xN1Uqq00NzthB4uwlkxoHkc5VpqmMwdd/2r0ApIfUwTVuxAfk9coNAEuTeCynZAc
5mC4foXbGV7AjaQDCORuKuYq7tzXPlGJSVzC20+svDa57Adix4QaHg==
-----END RSA PRIVATE KEY-----
"""
