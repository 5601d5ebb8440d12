"""The lazy import of PyJWT (with ``cryptography``), the ``mcp_sdk[auth]`` extra."""

from __future__ import annotations

import types

from .errors import MissingExtraError


def import_jwt() -> types.ModuleType:
    """The ``jwt`` module, with ``cryptography`` present for RSA and ECDSA.

    :raises MissingExtraError: naming the extra to install.
    """
    try:
        import cryptography  # noqa: F401
        import jwt
    except ImportError:
        raise MissingExtraError(
            "JWT signing and verification need PyJWT and cryptography: pip install 'mcp_sdk[auth]'"
        ) from None
    return jwt


__all__ = ["MissingExtraError", "import_jwt"]
