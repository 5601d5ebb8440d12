"""The HTTP edge of the Streamable HTTP transport: what arrives and what leaves.

- :mod:`.http_io`: header checks, bounded body reads, answers, JSON-RPC shaped HTTP errors.
- :mod:`.request_headers`: the 2026-07-28 ``Mcp-Method`` / ``Mcp-Name`` / ``Mcp-Param-*`` headers,
  checked against the body.
- :mod:`.security`: ``Host`` / ``Origin`` checks against DNS rebinding.
- :mod:`.connection`: what the WSGI server shows of the client's socket: disconnect probes, body deadlines.
- :mod:`.client_address`: who an anonymous request comes from.
- :mod:`.carrying_request`: the HTTP request a message arrived in, as handlers see it.
- :mod:`.outage`: a shared store that cannot serve a request: ``503`` with ``Retry-After``.
"""
