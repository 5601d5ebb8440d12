"""Cursor pagination of the four list methods (``page_size``)."""

from __future__ import annotations

import pytest

from mcp_sdk import Prompt, Resource, ResourceTemplate, Server, Tool
from mcp_sdk.errors import InvalidParamsError
from mcp_sdk.server.pagination import paginate
from spec.support.server_helpers import request
from spec.support.wire_schema import assert_valid_response


def numbered_server(count: int, page_size: int | None) -> Server:
    return Server(
        tools=[Tool.define(name=f"tool_{i}", handler=lambda args: "ok") for i in range(count)],
        prompts=[Prompt.define(name=f"prompt_{i}", handler=lambda args: None) for i in range(count)],
        resources=[Resource(uri=f"file:///{i}", name=f"resource_{i}") for i in range(count)],
        resource_templates=[ResourceTemplate(uri_template=f"file:///{i}/{{x}}", name=f"template_{i}") for i in range(count)],
        page_size=page_size,
    )


LISTS = [
    ("tools/list", "tools", "name"),
    ("prompts/list", "prompts", "name"),
    ("resources/list", "resources", "name"),
    ("resources/templates/list", "resourceTemplates", "name"),
]


@pytest.mark.parametrize("method, key, field", LISTS)
def test_pages_follow_next_cursor_to_the_end(method, key, field):
    server = numbered_server(5, page_size=2)
    names, cursors, cursor = [], [], None
    while True:
        response = server.handle(request(method, {"cursor": cursor} if cursor is not None else None))
        assert_valid_response(method, response)
        result = response["result"]
        assert len(result[key]) <= 2
        names += [item[field] for item in result[key]]
        cursor = result.get("nextCursor")
        if cursor is None:
            break
        cursors.append(cursor)
    prefix = {"tools": "tool", "prompts": "prompt", "resources": "resource", "resourceTemplates": "template"}[key]
    assert names == [f"{prefix}_{i}" for i in range(5)]
    assert all(isinstance(c, str) for c in cursors)
    assert len(cursors) == 2


def test_the_first_page_names_the_next_cursor():
    response = numbered_server(3, page_size=2).handle(request("tools/list"))
    assert response == {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {
            "tools": [
                {"name": "tool_0", "inputSchema": {"type": "object"}},
                {"name": "tool_1", "inputSchema": {"type": "object"}},
            ],
            "nextCursor": "2",
        },
    }


def test_the_last_page_has_no_next_cursor():
    server = numbered_server(4, page_size=2)
    cursor = server.handle(request("tools/list"))["result"]["nextCursor"]
    result = server.handle(request("tools/list", {"cursor": cursor}))["result"]
    assert [t["name"] for t in result["tools"]] == ["tool_2", "tool_3"]
    assert "nextCursor" not in result


def test_without_page_size_everything_comes_in_one_page():
    result = numbered_server(30, page_size=None).handle(request("tools/list"))["result"]
    assert len(result["tools"]) == 30
    assert "nextCursor" not in result


def test_a_page_size_larger_than_the_list_gives_one_page():
    result = numbered_server(3, page_size=10).handle(request("prompts/list"))["result"]
    assert [p["name"] for p in result["prompts"]] == ["prompt_0", "prompt_1", "prompt_2"]
    assert "nextCursor" not in result


def test_an_empty_list_is_one_empty_page():
    assert Server(page_size=5).handle(request("tools/list"))["result"] == {"tools": []}


@pytest.mark.parametrize("cursor", ["abc", "-1", "1.5", "", " 2", "99", "٣", 2, True, ["2"], {"offset": 2}])
@pytest.mark.parametrize("method", [m for m, _, _ in LISTS])
def test_an_invalid_cursor_is_invalid_params(method, cursor):
    response = numbered_server(5, page_size=2).handle(request(method, {"cursor": cursor}))
    assert response["error"]["code"] == -32602
    assert response["error"]["message"].startswith("Invalid cursor")
    assert_valid_response(method, response)


def test_a_null_cursor_means_the_first_page():
    result = numbered_server(3, page_size=2).handle(request("tools/list", {"cursor": None}))["result"]
    assert [t["name"] for t in result["tools"]] == ["tool_0", "tool_1"]


class TestPaginate:
    def test_it_slices_by_offset(self):
        assert paginate([1, 2, 3, 4, 5], {"cursor": "2"}, 2) == ([3, 4], "4")

    def test_the_start_of_an_empty_list_is_a_valid_cursor(self):
        assert paginate([], {"cursor": "0"}, 2) == ([], None)

    def test_a_cursor_past_the_end_is_refused(self):
        with pytest.raises(InvalidParamsError):
            paginate([1, 2], {"cursor": "2"}, 1)

    def test_params_that_are_not_a_dict_mean_the_first_page(self):
        assert paginate([1, 2, 3], None, 2) == ([1, 2], "2")
