"""PipeWriter: many threads, one pipe, whole lines in order, and nobody blocks on a full pipe."""

from __future__ import annotations

import os
import threading
import time

import pytest

from mcp_sdk.client._pipe_writer import PipeWriter
from mcp_sdk.errors import TransportError

TIMEOUT = 10.0


class Pipe:
    def __init__(self) -> None:
        read_fd, write_fd = os.pipe()
        self.reader = os.fdopen(read_fd, "rb")
        self.errors: list[OSError] = []
        self.writer = PipeWriter(os.fdopen(write_fd, "wb", buffering=0), "spec-pipe-writer", self.errors.append)

    def read_all(self) -> bytes:
        data = self.reader.read()
        self.reader.close()
        return data


def test_lines_stay_whole_and_in_order_per_thread() -> None:
    pipe = Pipe()
    received: list[bytes] = []
    reading = threading.Thread(target=lambda: received.append(pipe.read_all()))
    reading.start()

    def write(number: int) -> None:
        for sequence in range(40):
            padding = b"x" * ((number * 7919 + sequence * 104729) % 150_000)  # up to > 2 pipe buffers
            pipe.writer.write(b"%d %d %s\n" % (number, sequence, padding))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    pipe.writer.close()
    pipe.writer.thread.join(TIMEOUT)
    reading.join(TIMEOUT)
    lines = received[0].splitlines()
    assert len(lines) == 240
    seen: dict[int, list[int]] = {}
    for line in lines:
        number, sequence, padding = line.split(b" ")
        assert padding == b"x" * len(padding)
        seen.setdefault(int(number), []).append(int(sequence))
    assert seen == {n: list(range(40)) for n in range(6)}
    assert not pipe.errors


def test_a_full_pipe_does_not_block_writers() -> None:
    pipe = Pipe()
    chunk = b"y" * 100_000 + b"\n"
    started = time.monotonic()
    for _ in range(10):  # 1 MB, far past the pipe's buffer, and nobody reads yet
        pipe.writer.write(chunk)
    assert time.monotonic() - started < TIMEOUT
    assert pipe.writer.thread.is_alive()
    pipe.writer.close()
    data = pipe.read_all()
    pipe.writer.thread.join(TIMEOUT)
    assert data == chunk * 10


def test_abort_gives_up_on_a_reader_that_never_reads() -> None:
    pipe = Pipe()
    pipe.writer.write(b"z" * 1_000_000)
    pipe.writer.abort()
    pipe.writer.thread.join(TIMEOUT)
    assert not pipe.writer.thread.is_alive()
    pipe.reader.close()


def test_broken_pipe() -> None:
    pipe = Pipe()
    pipe.reader.close()
    with pytest.raises(TransportError, match="writing to the server failed"):
        pipe.writer.write(b"lost\n")
    assert len(pipe.errors) == 1 and isinstance(pipe.errors[0], BrokenPipeError)
    with pytest.raises(TransportError):
        pipe.writer.write(b"also lost\n")
    pipe.writer.thread.join(TIMEOUT)
    assert not pipe.writer.thread.is_alive()


def test_closed_writer_refuses() -> None:
    pipe = Pipe()
    pipe.writer.close()
    pipe.writer.thread.join(TIMEOUT)
    with pytest.raises(TransportError, match="closed"):
        pipe.writer.write(b"late\n")
    assert pipe.read_all() == b""
