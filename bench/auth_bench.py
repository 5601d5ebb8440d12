"""What bearer authentication costs per request: ``BearerAuth.authenticate`` on a cached JWKS.

    .venv/bin/python bench/auth_bench.py [--duration 2]

Not a test: it prints figures and never fails on speed. The JWKS comes from a loopback
authorization server (the test fixture) once; every later verification is local
(signature, ``iss``, ``exp``, ``aud``, scopes), as it is in a running server.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from mcp_sdk.server.auth import BearerAuth, JWTVerifier  # noqa: E402
from spec.support.auth_server import JWTAuthorizationServer  # noqa: E402
from spec.support.oauth_fixture import Served  # noqa: E402

RESOURCE = "https://api.example.com/mcp"


def rate(auth: BearerAuth, token: str, duration: float) -> float:
    environ = {"HTTP_AUTHORIZATION": "Bearer " + token}
    auth.authenticate(environ)  # warm: the JWKS is fetched here
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < duration:
        for _ in range(100):
            auth.authenticate(environ)
        count += 100
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--duration", type=float, default=2.0)
    args = parser.parse_args()
    print(f"{'algorithm':<10} {'verifications/s':>16} {'µs each':>9}")
    for algorithm in ("ES256", "RS256"):
        issuer = JWTAuthorizationServer(algorithm)
        served = Served(issuer)
        try:
            auth = BearerAuth(JWTVerifier(jwks_uri=issuer.jwks_uri, issuer=issuer.issuer), resource=RESOURCE, required_scopes=["mcp"])
            per_second = rate(auth, issuer.mint(aud=RESOURCE), args.duration)
        finally:
            served.close()
        print(f"{algorithm:<10} {per_second:>16,.0f} {1e6 / per_second:>9.0f}")


if __name__ == "__main__":
    main()
