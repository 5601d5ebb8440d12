"""Resumability (SEP-1699): priming events, server-closed streams, GET + Last-Event-ID, vanished clients."""

from __future__ import annotations

import threading
import time
import typing as t

from spec.support.http_app import WAIT
from spec.support.http_client import Event, read_events, request, text_result, tool_call
from spec.support.http_fixtures import Served

from .streamable_http_transport_test import error_body, progress, summary

CHANGED = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}


def test_a_tool_closes_its_stream_and_the_client_polls_the_rest(serve: t.Callable[..., Served]) -> None:
    served = serve()
    client = served.client()
    client.initialize()
    with client.post(tool_call("poll", progress_token="p")) as response:
        posted = list(read_events(response))  # ends while the tool still runs
    assert summary(posted) == [("1-0", "", 1000), ("1-1", progress("p", 1, 2), None), (None, None, 1000)]
    assert served.probe.started.wait(WAIT)
    with client.get(client.headers(Accept="text/event-stream", **{"Last-Event-ID": "1-1"})) as resumed:
        events = read_events(resumed)
        served.probe.release.set()  # the rest arrives live on the resumed connection
        assert summary(events) == [("1-2", progress("p", 2, 2), None), ("1-3", text_result("polled"), None)]
    assert served.probe.outcomes == ["closed=True"]


def test_a_client_resuming_after_the_tool_finished_gets_the_stored_rest(serve: t.Callable[..., Served]) -> None:
    served = serve()
    client = served.client()
    client.initialize()
    served.probe.release.set()
    with client.post(tool_call("poll", progress_token="p")) as response:
        assert [event.id for event in read_events(response)] == ["1-0", "1-1", None]
    deadline = time.monotonic() + WAIT
    while served.transport.session_ids and served.server.sessions[0].in_flight_count and time.monotonic() < deadline:
        time.sleep(0.01)
    headers = client.headers(Accept="text/event-stream", **{"Last-Event-ID": "1-0"})
    with client.get(headers) as resumed:
        assert summary(read_events(resumed)) == [
            ("1-1", progress("p", 1, 2), None),
            ("1-2", progress("p", 2, 2), None),
            ("1-3", text_result("polled"), None),
        ]
    with client.get(headers) as again:  # a finished stream stays replayable for a while
        assert [event.id for event in read_events(again)] == ["1-1", "1-2", "1-3"]


def test_older_clients_cannot_be_asked_to_poll(serve: t.Callable[..., Served]) -> None:
    served = serve()
    client = served.client()
    client.initialize(version="2025-06-18")
    served.probe.release.set()
    with client.post(tool_call("poll", progress_token="p")) as response:
        assert summary(read_events(response)) == [
            ("1-0", progress("p", 1, 2), None),
            ("1-1", progress("p", 2, 2), None),
            ("1-2", text_result("polled"), None),
        ]
    assert served.probe.outcomes == ["closed=False"]


def test_the_get_stream_resumes_with_what_was_missed(serve: t.Callable[..., Served]) -> None:
    served = serve()
    client = served.client()
    client.initialize()
    with client.get() as stream:
        events = read_events(stream)
        assert next(events) == Event(id="0-0", data="", retry=1000)
        served.server.notify_tools_list_changed()
        assert summary([next(events)]) == [("0-1", CHANGED, None)]
        assert served.transport.close_standalone_sse_stream(client.session_id)
        assert summary(events) == [(None, None, 1000)]  # "come back in a second"
    served.server.notify_tools_list_changed()  # while disconnected: stored
    served.server.notify_prompts_list_changed()
    with client.get(client.headers(Accept="text/event-stream", **{"Last-Event-ID": "0-1"})) as resumed:
        events = read_events(resumed)
        assert summary([next(events), next(events)]) == [
            ("0-2", CHANGED, None),
            ("0-3", {"jsonrpc": "2.0", "method": "notifications/prompts/list_changed"}, None),
        ]
        served.server.notify_resources_list_changed()  # and live again
        assert summary([next(events)]) == [("0-4", {"jsonrpc": "2.0", "method": "notifications/resources/list_changed"}, None)]


def test_unknown_last_event_ids_are_refused(serve: t.Callable[..., Served]) -> None:
    client = serve().client()
    client.initialize()
    for last_event_id in ("9-9", "garbage", "0-x"):
        with client.get(client.headers(Accept="text/event-stream", **{"Last-Event-ID": last_event_id})) as response:
            assert (response.status_code, response.json()) == (
                400,
                error_body(f"Bad Request: unknown Last-Event-ID {last_event_id!r}"),
            )


def test_events_of_another_session_cannot_be_replayed(serve: t.Callable[..., Served]) -> None:
    served = serve()
    alice, mallory = served.client(), served.client()
    alice.initialize()
    mallory.initialize()
    assert alice.call(tool_call("echo", {"text": "secret"})) == [text_result("echo: secret")]
    with mallory.get(mallory.headers(Accept="text/event-stream", **{"Last-Event-ID": "1-0"})) as response:
        assert response.status_code == 400  # ids name streams of the asking session only


def test_a_reconnection_takes_over_a_stream_only_once_its_old_connection_is_gone(serve: t.Callable[..., Served]) -> None:
    served = serve()
    client = served.client()
    client.initialize()
    resume = client.headers(Accept="text/event-stream", **{"Last-Event-ID": "1-0"})
    with client.post(tool_call("wait", progress_token="w")) as original:
        first = read_events(original)
        assert next(first) == Event(id="1-0", data="", retry=1000)
        assert served.probe.started.wait(WAIT)
        with client.get(resume) as refused:  # another connection may not take a live stream's events
            assert (refused.status_code, refused.headers["Retry-After"]) == (409, "1")
    # The old connection is gone: within a probe interval the server lets it go and the stream is free.
    deadline = time.monotonic() + WAIT
    while True:
        resumed = client.get(resume)
        if resumed.status_code == 200 or time.monotonic() > deadline:
            break
        resumed.close()
        time.sleep(0.1)
    with resumed:
        assert resumed.status_code == 200
        served.probe.release.set()
        assert summary(read_events(resumed)) == [("1-1", progress("w", 1, 1), None), ("1-2", text_result("released"), None)]


def test_a_client_vanishing_mid_stream_affects_no_one_else(serve: t.Callable[..., Served]) -> None:
    served = serve(keepalive_interval=0.05)
    leaver, stayer = served.client(), served.client()
    leaver.initialize()
    stayer.initialize()
    response = leaver.post(tool_call("wait", progress_token="w"))
    assert next(read_events(response)) == Event(id="1-0", data="", retry=1000)
    response.close()  # the client goes away while its tool runs
    assert served.probe.started.wait(WAIT)
    session = next(s for s in served.server.sessions if s.session_id == leaver.session_id)
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:  # a keep-alive write fails and the server lets the connection go
        stream = served.transport._sessions.get(leaver.session_id).find_stream("1")  # type: ignore[union-attr]
        if stream is not None and not stream.attached:
            break
        time.sleep(0.02)
    else:
        raise AssertionError("the dead connection was never noticed")
    with stayer.post(tool_call("progress", {"steps": 2}, progress_token="s")) as other:
        assert [event.message for event in read_events(other) if event.data][-1] == text_result("done")
    served.probe.release.set()
    deadline = time.monotonic() + WAIT
    while session.in_flight_count and time.monotonic() < deadline:
        time.sleep(0.01)
    with leaver.get(leaver.headers(Accept="text/event-stream", **{"Last-Event-ID": "1-0"})) as resumed:
        assert summary(read_events(resumed)) == [("1-1", progress("w", 1, 1), None), ("1-2", text_result("released"), None)]
    assert served.probe.outcomes == ["released"]  # disconnecting is not cancelling


def test_closing_the_transport_ends_open_streams(serve: t.Callable[..., Served]) -> None:
    served = serve()
    client = served.client()
    client.initialize()
    ended = threading.Event()

    def read_until_end() -> None:
        with client.get() as stream:
            for _ in read_events(stream):
                pass
        ended.set()

    reader = threading.Thread(target=read_until_end, name="spec-reader")
    reader.start()
    deadline = time.monotonic() + WAIT
    while not served.transport._sessions.get(client.session_id).has_connections():  # type: ignore[union-attr]
        assert time.monotonic() < deadline
        time.sleep(0.01)
    served.transport.close()
    assert ended.wait(WAIT)
    reader.join(WAIT)
    with client.post(request("ping")) as response:
        assert (response.status_code, response.json()) == (503, error_body("Service Unavailable: the MCP transport is closed"))
