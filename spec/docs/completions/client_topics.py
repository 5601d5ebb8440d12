'''Completions of the fragments of docs/topics/client.md, docs/topics/oauth.md, docs/ruby-differences.md
and docs/contributing.md (see spec/docs/blocks.py).

Names starting with ``_`` are the completions' own; ``after`` exercises what the block built.
'''

from __future__ import annotations

from spec.docs.completions.readme import API_EXAMPLE_COM, API_EXAMPLE_COM_END

COMPLETIONS: dict[str, tuple[str, str]] = {
    # https://api.example.com/mcp is a server on 127.0.0.1 with a `count` tool.
    "cl-http": (
        API_EXAMPLE_COM,
        "assert response['result']['content'] == [{'type': 'text', 'text': 'counted to 10'}]\n"
        "assert transport.session_id is None  # closed: the session was deleted\n" + API_EXAMPLE_COM_END,
    ),
}
