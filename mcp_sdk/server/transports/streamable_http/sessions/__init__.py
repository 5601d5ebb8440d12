"""The connections requests of the Streamable HTTP transport run on.

- :mod:`.http_session`: one :class:`~.http_session.HTTPSession` per ``Mcp-Session-Id``, their
  registry and the idle-session reaper.
- :mod:`.request_channel`: the connection one stateless request (``stateless=True``, or
  2026-07-28) runs on.
- :mod:`.deployment`: deployment mistakes seen through sessions (an id issued by another
  process, a single-threaded server), answered with what to do instead of a hang.
"""
