"""sse: the event stream parser (WHATWG rules, in any chunking), and large events over real HTTP."""

from __future__ import annotations

import json
import threading
import time
import typing as t

import pytest

from mcp_sdk import Client
from mcp_sdk.client import HTTP
from mcp_sdk.client.sse_parser import Event, EventTooLarge, parse
from spec.support.client_http_server import TIMEOUT, Reply, ScriptedServer, sse_reply

MIB = 1024 * 1024


def chunkings(stream: bytes) -> t.Iterator[list[bytes]]:
    """``stream`` whole, byte by byte, and cut in two at every point."""
    yield [stream]
    yield [stream[i : i + 1] for i in range(len(stream))]
    for cut in range(1, len(stream)):
        yield [stream[:cut], stream[cut:]]


def parsed(stream: bytes) -> list[Event]:
    """The events of ``stream``, the same however it is cut into chunks."""
    results = [list(parse(chunks)) for chunks in chunkings(stream)]
    assert all(result == results[0] for result in results), stream
    return results[0]


class TestParse:
    def test_data_lines_are_joined_with_lf(self) -> None:
        assert parsed(b"data: a\ndata: b\n\n") == [Event("a\nb", None, None)]

    @pytest.mark.parametrize("end", [b"\n", b"\r", b"\r\n"], ids=["LF", "CR", "CRLF"])
    def test_each_line_ending(self, end: bytes) -> None:
        stream = b"data: a" + end + b"data: b" + end + end + b"data: c" + end + end
        assert parsed(stream) == [Event("a\nb", None, None), Event("c", None, None)]

    def test_mixed_line_endings(self) -> None:
        assert parsed(b"data: a\n\r\ndata: b\r\rdata: c\r\n\ndata: d\r\n\r\n") == [
            Event("a", None, None),
            Event("b", None, None),
            Event("c", None, None),
            Event("d", None, None),
        ]

    def test_one_leading_bom_is_dropped(self) -> None:
        assert parsed(b"\xef\xbb\xbfdata: a\n\n") == [Event("a", None, None)]
        # A second one is part of the field name, which is then unknown.
        assert parsed(b"\xef\xbb\xbf\xef\xbb\xbfdata: a\n\ndata: b\n\n") == [Event("b", None, None)]
        assert parsed(b"data: a\n\n\xef\xbb\xbfdata: b\n\n") == [Event("a", None, None)]

    def test_comments_and_unknown_fields_are_ignored(self) -> None:
        stream = b": hello\nevent: ping\nfoo: bar\ndata: a\n:\n\n: keep-alive\n\n\n\n"
        assert parsed(stream) == [Event("a", None, None)]

    def test_one_space_after_the_colon_is_dropped(self) -> None:
        assert parsed(b"data:a\ndata:  b\ndata\ndata:\n\n") == [Event("a\n b\n\n", None, None)]

    def test_id_and_retry(self) -> None:
        assert parsed(b"id: 7\nretry: 1500\ndata: {}\n\n") == [Event("{}", "7", 1500)]
        assert parsed(b"id\ndata: x\n\n") == [Event("x", "", None)]
        assert parsed(b"id: a\0b\nretry: 1.5\nretry: -1\nretry: +2\nretry: \nretry: \xd9\xa1\ndata: x\n\n") == [
            Event("x", None, None)
        ]
        assert list(parse([b"retry: " + b"9" * 5000 + b"\ndata: x\n\n"])) == [Event("x", None, 10**18)]

    def test_an_event_without_data_is_yielded_for_its_id_and_retry(self) -> None:
        # SEP-1699's priming event, and an id alone (it still becomes the last event ID).
        assert parsed(b"id: p-1\nretry: 10\ndata:\n\nid: e-2\n\nretry: 5\n\n") == [
            Event("", "p-1", 10),
            Event("", "e-2", None),
            Event("", None, 5),
        ]

    def test_an_event_cut_off_by_the_end_of_the_stream_is_discarded(self) -> None:
        assert parsed(b"data: a\n\nid: 9\ndata: b\n") == [Event("a", None, None)]

    def test_invalid_utf8_becomes_replacement_characters(self) -> None:
        assert parsed(b"data: \xff\xe2\x82\ndata: \xe2\x82\xac\n\n") == [Event("\ufffd\ufffd\n\u20ac", None, None)]


class TestLimit:
    @staticmethod
    def counted(chunks: t.Iterable[bytes], seen: list[bytes]) -> t.Iterator[bytes]:
        for chunk in chunks:
            seen.append(chunk)
            yield chunk

    def test_a_long_line_is_refused_as_soon_as_it_passes_the_limit(self) -> None:
        seen: list[bytes] = []
        endless = self.counted(_prefixed(b"data: ", iter(lambda: b"x" * 100, None)), seen)
        with pytest.raises(EventTooLarge, match="^an SSE event passed 1000 bytes before it ended$"):
            list(parse(endless, 1000))
        assert sum(map(len, seen)) == 1006  # the chunk that passed it, and no more

    def test_many_lines_count_together(self) -> None:
        with pytest.raises(EventTooLarge):
            list(parse([b"data: 0123456789\n" * 100], 1000))

    def test_events_and_comments_under_the_limit_pass(self) -> None:
        stream = (b": " + b"c" * 50 + b"\n") * 100 + (b"data: " + b"d" * 500 + b"\n\n") * 100
        events = list(parse([stream[i : i + 333] for i in range(0, len(stream), 333)], 1000))
        assert events == [Event("d" * 500, None, None)] * 100


def _prefixed(head: bytes, chunks: t.Iterable[bytes]) -> t.Iterator[bytes]:
    yield head
    yield from chunks


def big_response(size: int, line: int | None = None) -> t.Iterator[bytes]:
    """A JSON-RPC response to ``ping`` (id 1) of about ``size`` bytes as one SSE event, in 64 KiB pieces.

    ``line``: spread the data over ``data:`` lines of about that many bytes (a list of strings).
    """
    if line is None:
        yield b'data: {"jsonrpc": "2.0", "id": 1, "result": {"text": "'
        piece = b"x" * 65536
        for _ in range(size // len(piece)):
            yield piece
        yield b'"}}\n\n'
        return
    yield b'data: {"jsonrpc": "2.0", "id": 1, "result": {"lines": [\n'
    data_line = b'data: "' + b"x" * (line - 10) + b'",\n'
    for _ in range(size // line):
        yield data_line
    yield b'data: ""]}}\n\n'


def sse_server(body: t.Callable[[], t.Iterable[bytes]], content_type: str = "text/event-stream") -> ScriptedServer:
    """A server answering every request with ``body()``, streamed."""
    return ScriptedServer(lambda request: sse_reply(body(), headers={"Content-Type": content_type}))


def ping(transport: HTTP) -> dict[str, t.Any]:
    return transport.send_request({"jsonrpc": "2.0", "id": 1, "method": "ping"})


class TestLargeEventsOverHTTP:
    """A guard on the complexity, with a wide margin: speed figures live in bench/sse_parse_bench.py."""

    @staticmethod
    def fastest(transport: HTTP, check: t.Callable[[dict[str, t.Any]], None]) -> float:
        times = []
        for _ in range(2):  # the better of two: other load only ever slows a run down
            started = time.perf_counter()
            response = ping(transport)
            times.append(time.perf_counter() - started)
            check(response)
        return min(times)

    def test_a_large_event_takes_time_linear_in_its_size(self) -> None:
        sizes: dict[str, int] = {}

        def check(response: dict[str, t.Any]) -> None:
            assert response == {"jsonrpc": "2.0", "id": 1, "result": {"text": "x" * sizes["now"]}}

        with sse_server(lambda: big_response(sizes["now"])) as server:
            transport = HTTP(url=server.url, timeout=TIMEOUT)
            sizes["now"] = 8 * MIB
            small = self.fastest(transport, check)
            sizes["now"] = 32 * MIB
            large = self.fastest(transport, check)
            transport.close()
        # Linear: about 4x. sseclient-py's quadratic parser took 16x (and ~18 s for 32 MiB).
        assert large < 8 * small + 0.2, (small, large)
        assert large < 4.0, large

    def test_an_event_of_many_data_lines_takes_time_linear_in_its_size(self) -> None:
        with sse_server(lambda: big_response(32 * MIB, line=4096)) as server:
            transport = HTTP(url=server.url, timeout=TIMEOUT)
            started = time.perf_counter()
            result = ping(transport)["result"]
            elapsed = time.perf_counter() - started
            transport.close()
        assert len(result["lines"]) == 32 * MIB // 4096 + 1
        assert result["lines"][0] == "x" * 4086
        assert elapsed < 4.0, elapsed  # sseclient-py: minutes


class TestLimitOverHTTP:
    """Past ``max_message_bytes`` the call fails at once, naming the limit and the setting."""

    LIMIT = 1 * MIB

    @staticmethod
    def held_back(head: int, content_type: str) -> t.Any:
        """A server that sends ``head`` bytes of a 32 MiB answer, then holds the rest until released."""
        state = {"sent": 0, "rest_sent": False}
        release = threading.Event()
        prefix = b"data: " if content_type == "text/event-stream" else b""

        def body() -> t.Iterator[bytes]:
            pieces = [prefix + b'{"jsonrpc": "2.0", "id": 1, "result": {"text": "']
            pieces += [b"x" * 65536] * (head // 65536)
            for piece in pieces:
                state["sent"] += len(piece)
                yield piece
            release.wait(TIMEOUT)
            state["rest_sent"] = True
            yield b"x" * 32 * MIB + b'"}}\n\n'

        return sse_server(body, content_type), state, release

    @pytest.mark.parametrize("content_type", ["text/event-stream", "application/json"])
    def test_an_answer_past_the_limit_is_refused_before_the_rest_is_read(self, content_type: str) -> None:
        server, state, release = self.held_back(self.LIMIT + 256 * 1024, content_type)
        with server:
            transport = HTTP(url=server.url, timeout=TIMEOUT, max_message_bytes=self.LIMIT)
            started = time.perf_counter()
            with pytest.raises(Client.ValidationError) as raised:
                ping(transport)
            elapsed = time.perf_counter() - started
            rest_sent = state["rest_sent"]
            release.set()
            transport.close()
        if content_type == "text/event-stream":
            assert str(raised.value) == (
                f"{server.url}: an SSE event passed the limit of 1048576 bytes before it ended"
                " (refused without reading the rest; HTTP(max_message_bytes=...) sets the limit)"
            )
        else:
            assert str(raised.value) == (
                f"{server.url} sent a body over the limit of 1048576 bytes; HTTP(max_message_bytes=...) sets the limit"
            )
        assert not rest_sent and elapsed < TIMEOUT / 2
        assert state["sent"] <= self.LIMIT + 256 * 1024 + 100

    def test_a_declared_length_past_the_limit_is_refused_unread(self) -> None:
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"text": "x" * (2 * MIB)}}).encode()
        with ScriptedServer(lambda request: Reply(200, {"Content-Type": "application/json"}, body)) as server:
            transport = HTTP(url=server.url, timeout=TIMEOUT, max_message_bytes=self.LIMIT)
            with pytest.raises(Client.ValidationError) as raised:
                ping(transport)
            transport.close()
        assert str(raised.value) == (
            f"{server.url} sent a body of {len(body)} bytes, over the limit of 1048576;"
            " HTTP(max_message_bytes=...) sets the limit"
        )

    def test_the_default_limit_is_64_mib(self) -> None:
        assert HTTP(url="http://127.0.0.1:9/mcp").max_message_bytes == 64 * MIB
