"""Bounded JSON exchanges with the authorization server: a timeout, a size cap, no secrets in errors."""

from __future__ import annotations

import json
import typing as t

from .refusals import AuthorizationServerUnavailable

#: The largest JWKS or introspection answer read.
MAX_RESPONSE_BYTES = 1024 * 1024


def fetch_json(
    method: str,
    url: str,
    timeout: float,
    *,
    data: dict[str, str] | None = None,
    auth: tuple[str, str] | None = None,
) -> dict[str, t.Any]:
    """The JSON object ``url`` answers with (a connection of its own: no state shared between threads).

    :raises AuthorizationServerUnavailable: on a network error, a timeout, a non-200
        status, an oversized or non-JSON-object body (the message names only the URL).
    """
    import requests  # here: importing mcp_sdk does not import the HTTP stack

    try:
        with requests.request(
            method,
            url,
            data=data,
            auth=auth,
            timeout=timeout,
            stream=True,
            allow_redirects=False,
            headers={"Accept": "application/json"},
        ) as response:
            if response.status_code != 200:
                raise AuthorizationServerUnavailable(f"{url} answered HTTP {response.status_code}")
            body = b""
            for chunk in response.iter_content(65536):
                body += chunk
                if len(body) > MAX_RESPONSE_BYTES:
                    raise AuthorizationServerUnavailable(f"{url} answered with more than {MAX_RESPONSE_BYTES} bytes")
    except requests.RequestException as error:
        raise AuthorizationServerUnavailable(f"{url} is unreachable ({type(error).__name__})") from None
    try:
        document = json.loads(body)
    except ValueError:
        raise AuthorizationServerUnavailable(f"{url} answered with invalid JSON") from None
    if not isinstance(document, dict):
        raise AuthorizationServerUnavailable(f"{url} answered with JSON that is not an object")
    return document


__all__ = ["MAX_RESPONSE_BYTES", "fetch_json"]
