"""The Protected Resource Metadata endpoint (RFC 9728), as a WSGI application."""

from __future__ import annotations

import json
import typing as t

from .bearer import BearerAuth

StartResponse = t.Callable[..., t.Any]
WSGIApp = t.Callable[[t.Dict[str, t.Any], StartResponse], t.Iterable[bytes]]


def protected_resource_metadata(auth: BearerAuth) -> WSGIApp:
    """A WSGI app answering ``GET`` with ``auth``'s metadata document, to mount at ``auth.metadata_path``
    (``/.well-known/oauth-protected-resource/mcp`` for ``https://api.example.com/mcp``) on the host's root.

    The document is public: it allows any origin (CORS), so browser-based clients can read it.

    :param auth: the endpoint's :class:`BearerAuth` (its :meth:`~BearerAuth.metadata`).
    :returns: the WSGI application (``GET``, ``HEAD`` and ``OPTIONS``; other methods get 405).
    """
    body = json.dumps(auth.metadata(), separators=(",", ":")).encode("utf-8")
    cors = [("Access-Control-Allow-Origin", "*"), ("Access-Control-Allow-Methods", "GET, OPTIONS")]

    def app(environ: dict[str, t.Any], start_response: StartResponse) -> t.Iterable[bytes]:
        method = environ.get("REQUEST_METHOD")
        if method == "OPTIONS":
            start_response("204 No Content", [*cors, ("Access-Control-Allow-Headers", "*"), ("Access-Control-Max-Age", "86400")])
            return [b""]
        if method not in ("GET", "HEAD"):
            start_response("405 Method Not Allowed", [("Allow", "GET, HEAD, OPTIONS"), ("Content-Length", "0")])
            return [b""]
        headers = [
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "public, max-age=3600"),
            *cors,
        ]
        start_response("200 OK", headers)
        return [b""] if method == "HEAD" else [body]

    return app


__all__ = ["protected_resource_metadata"]
