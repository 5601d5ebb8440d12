"""A real PostgreSQL server for the Django-on-PostgreSQL spec (issue 18).

The binaries come with the test extras (``pgserver`` bundles PostgreSQL 16), so a fresh machine
needs nothing installed by hand. The server listens on a Unix socket in its data directory only
(no TCP port). PostgreSQL refuses to run as root: run as root, pgserver runs it as a system user
``pgserver`` (which it creates with ``useradd`` the first time).
"""

from __future__ import annotations

import tempfile
import typing as t
import warnings
from pathlib import Path


class PostgresServer:
    """PostgreSQL in a temporary data directory, with one empty database ``name``; :meth:`stop` ends it and removes the directory.

    :param name: the database to create (Django's ``NAME``).
    """

    def __init__(self, name: str = "spec") -> None:
        self.name = name
        self._dir = tempfile.TemporaryDirectory(prefix="spec-postgres-")
        with warnings.catch_warnings():
            # pgserver keeps a lock file in platformdirs' runtime directory; without
            # XDG_RUNTIME_DIR (CI, a root shell) platformdirs warns that it falls back to /tmp.
            warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
            import pgserver  # type: ignore[import-untyped]

            self._server = pgserver.get_server(Path(self._dir.name) / "pgdata", cleanup_mode="stop")
        info = self._server.get_postmaster_info()
        #: The socket directory, Django's ``HOST`` (a path: libpq connects over the Unix socket there).
        self.host = str(info.socket_dir)
        self.port = str(info.port or 5432)
        self.user = "postgres"
        self._server.psql(f'CREATE DATABASE "{name}";')

    def connect(self, database: str = "postgres") -> t.Any:
        """A psycopg connection (autocommit) as the superuser."""
        import psycopg

        return psycopg.connect(host=self.host, port=self.port, user=self.user, dbname=database, autocommit=True)

    def django_env(self) -> dict[str, str]:
        """The environment ``spec.mcp_sdk.contrib.django_project.postgres_settings`` reads."""
        return {"MCP_SPEC_PG_HOST": self.host, "MCP_SPEC_PG_PORT": self.port, "MCP_SPEC_PG_USER": self.user, "MCP_SPEC_PG_NAME": self.name}

    def stop(self) -> None:
        try:
            self._server.cleanup()
        finally:
            self._dir.cleanup()

    def __enter__(self) -> PostgresServer:
        return self

    def __exit__(self, *exc_info: t.Any) -> None:
        self.stop()


__all__ = ["PostgresServer"]
