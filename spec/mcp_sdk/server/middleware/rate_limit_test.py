"""``RateLimit``'s callers over real HTTP: an anonymous caller is its address, whatever session or
era it uses and whatever ``X-Forwarded-For`` it writes (only werkzeug's ``ProxyFix``, configured
with the proxies the operator runs, sets the address from it); one anonymous caller never gets
another refused; the bucket table stays bounded; and under ``gunicorn -w 2`` with ``redis_url``
the workers share the buckets (a real Redis), which expire, and an unreachable Redis refuses."""

from __future__ import annotations

import contextlib
import typing as t

import pytest
from werkzeug.middleware.proxy_fix import ProxyFix

from mcp_sdk import Server
from mcp_sdk.server.middleware import RateLimit
from mcp_sdk.server.middleware.caller import caller_key
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.http_client import Client, tool_call
from spec.support.http_server import PYTHON, LiveServer, ServerProcess
from spec.support.modern_http import ModernHTTP
from spec.support.redis_server import RedisServer
from spec.support.scale_out import Lanes

#: Three calls, then one per 1,000 seconds: exactly three pass however long a spec runs.
RATE, BURST = 0.001, 3
#: What :func:`outcome` makes of a refusal (its wire form checked there).
LIMITED = "limited"


@pytest.fixture
def redis_server() -> t.Iterator[RedisServer]:
    with RedisServer() as server:
        yield server


def build(limit: RateLimit) -> Server:
    server = Server(name="limited", version="1.0.0")

    @server.tool
    def echo(message: str) -> str:
        """Say it back."""
        return message

    server.add_middleware(limit, methods="tools/call")
    return server


@contextlib.contextmanager
def serving(limit: RateLimit, proxies: int = 0, stateless: bool = False) -> t.Iterator[str]:
    """The server on a live HTTP transport, behind ``ProxyFix(x_for=proxies)`` when ``proxies``."""
    transport = StreamableHTTPTransport(build(limit), stateless=stateless)
    app: t.Any = ProxyFix(transport, x_for=proxies) if proxies else transport
    with LiveServer(app, closeables=[transport]) as live:
        yield live.url


def legacy_call(url: str, message: str, **headers: str) -> dict[str, t.Any]:
    """``echo`` in a new 2025 session of its own (what a client dodging a per-session limit does)."""
    with Client(url) as client:
        client.http.headers.update(headers)
        client.initialize()
        (response,) = client.call(tool_call("echo", {"message": message}, id=5))
        return t.cast("dict[str, t.Any]", response)


def modern_call(url: str, message: str, **headers: str) -> dict[str, t.Any]:
    with ModernHTTP(url) as client:
        client.http.headers.update(headers)
        return client.response("tools/call", {"name": "echo", "arguments": {"message": message}})


def outcome(response: dict[str, t.Any]) -> t.Any:
    """The text a call answered, or :data:`LIMITED` for a refusal (its exact error checked here:
    the wait it names shrinks as the spec runs); any other error as it is."""
    if "result" in response:
        return response["result"]["content"][0]["text"]
    error = response["error"]
    wait = error.get("data", {}).get("retryAfterMs") if type(error.get("data")) is dict else None
    if type(wait) is int and 0 < wait <= 1_000_000:
        expected = {"code": -32029, "message": f"Rate limit exceeded: retry after {wait} ms", "data": {"retryAfterMs": wait}}
        if error == expected:
            return LIMITED
    return error


class TestAnonymousCallers:
    def test_a_new_session_per_call_does_not_escape_the_limit(self) -> None:
        with serving(RateLimit(rate=RATE, burst=BURST)) as url:
            outcomes = [outcome(legacy_call(url, str(n))) for n in range(20)]
        assert outcomes == ["0", "1", "2"] + [LIMITED] * 17

    @pytest.mark.parametrize("stateless", [False, True], ids=["sessions", "stateless"])
    def test_behind_proxy_fix_each_client_address_has_its_own_bucket_in_both_eras(self, stateless: bool) -> None:
        with serving(RateLimit(rate=RATE, burst=BURST), proxies=1, stateless=stateless) as url:
            greedy = [outcome(call(url, "greedy", **{"X-Forwarded-For": "203.0.113.5"})) for call in (legacy_call, modern_call) * 3]
            other = [outcome(call(url, "other", **{"X-Forwarded-For": "198.51.100.7"})) for call in (modern_call, legacy_call)]
            block = [outcome(modern_call(url, "v6", **{"X-Forwarded-For": f"2001:db8:1:2::{n}"})) for n in range(1, 5)]
        assert greedy == ["greedy"] * 3 + [LIMITED] * 3
        assert other == ["other", "other"]  # one anonymous caller never gets another refused
        assert block == ["v6"] * 3 + [LIMITED]  # a new address of the same /64 is the same caller

    def test_without_proxy_fix_a_forwarded_for_header_the_client_writes_is_not_read(self) -> None:
        with serving(RateLimit(rate=RATE, burst=BURST)) as url:
            outcomes = [outcome(modern_call(url, str(n), **{"X-Forwarded-For": f"203.0.113.{n}"})) for n in range(6)]
        assert outcomes == ["0", "1", "2"] + [LIMITED] * 3

    def test_the_bucket_table_keeps_the_callers_seen_last(self) -> None:
        limit = RateLimit(rate=RATE, burst=BURST, max_buckets=50)
        with serving(limit, proxies=1) as url:
            drained = [outcome(modern_call(url, "x", **{"X-Forwarded-For": "192.0.2.1"})) for _ in range(4)]
            for n in range(120):
                modern_call(url, "flood", **{"X-Forwarded-For": f"10.0.{n // 250}.{n % 250}"})
            assert len(limit.buckets) == 50  # type: ignore[arg-type]
            latest = [outcome(modern_call(url, "again", **{"X-Forwarded-For": "10.0.0.119"})) for _ in range(3)]
            forgotten = outcome(modern_call(url, "again", **{"X-Forwarded-For": "192.0.2.1"}))
        assert drained == ["x"] * 3 + [LIMITED]
        assert latest == ["again", "again", LIMITED]  # seen lately: its bucket kept (one token taken by the flood)
        assert forgotten == "again"  # seen least lately: forgotten, a full bucket again


def test_the_default_table_stops_at_ten_thousand_callers() -> None:
    limit = RateLimit(rate=RATE, burst=1)
    for n in range(10_500):  # each drained: none would ever be dropped as full again
        assert limit.take(("address", f"10.{n // 65536}.{n // 256 % 256}.{n % 256}")) == 0
    assert len(limit.buckets) == 10_000  # type: ignore[arg-type]
    assert limit.take(("address", "10.0.41.3")) > 0  # among the last seen: still drained
    assert limit.take(("address", "10.0.0.0")) == 0  # the first seen was forgotten: a full bucket


class TestSharedThroughRedis:
    def test_two_gunicorn_workers_share_one_bucket_per_caller_and_it_expires(self, redis_server: RedisServer) -> None:
        command = [PYTHON, "-m", "gunicorn", "-k", "gthread", "--threads", "4", "-w", "2", "--keep-alive", "60"]
        command += ["--graceful-timeout", "1", "-b", "127.0.0.1:{port}", "spec.support.rate_limited_app:app"]
        redis = redis_server.client()
        with ServerProcess(command, env={"MCP_RATE_REDIS_URL": redis_server.url}) as served:
            lanes = Lanes(served.base, workers=2, per_worker=1)
            try:
                outcomes = []
                for n in range(8):  # alternately to each worker, over its own keep-alive connection
                    client = ModernHTTP(served.url)
                    client.http.close()
                    client.http = lanes.by_pid[lanes.pids[n % 2]][0]
                    response = client.response("tools/call", {"name": "whoami", "arguments": {}})
                    outcomes.append(outcome(response))
            finally:
                lanes.close()
        passed = [text for text in outcomes if text != LIMITED]
        assert len(passed) == 3 and len(set(passed)) == 2  # three in all, by both workers
        assert outcomes[3:] == [LIMITED] * 5
        (key,) = redis.keys("mcp:ratelimit:*")
        assert 0 < redis.pttl(key) <= (BURST / RATE + 1) * 1000  # gone once it would be full again
        redis.close()

    def test_an_unreachable_redis_refuses_rather_than_lets_through(self) -> None:
        redis_server = RedisServer()
        reported: list[str] = []
        limit = RateLimit(rate=RATE, burst=BURST, redis_url=redis_server.url)
        server = build(limit)
        server.configuration.exception_reporter = lambda error, context: reported.append(type(error).__name__)
        transport = StreamableHTTPTransport(server)
        try:
            with LiveServer(transport, closeables=[transport, limit]) as live:
                assert outcome(modern_call(live.url, "up")) == "up"
                redis_server.stop()
                assert modern_call(live.url, "down")["error"] == {"code": -32603, "message": "Service unavailable: the rate limit cannot be checked"}
        finally:
            redis_server.close()
        assert reported == ["ConnectionError"]


def test_the_key_of_an_anonymous_caller_off_http_is_the_one_client_of_stdio() -> None:
    server = build(RateLimit(rate=RATE, burst=BURST))
    seen: list[t.Any] = []
    server.add_middleware(lambda request, call_next: seen.append(caller_key(request)) or call_next(request))
    server.handle({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    assert seen == [("anonymous",)]
