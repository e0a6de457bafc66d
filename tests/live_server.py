"""The production server (bench.load_server.server_command, one worker) in a subprocess
on a free loopback port, reading the test database: for tests that need a real server.

Tests using it commit their data (transactional) so that the server sees them.
"""

import contextlib
import os
import secrets
import subprocess
import tempfile
from collections.abc import Iterator

import pytest
from django.db import connection

from bench.load_server import ROOT, free_port, server_command, wait_until_serving


def _database_url() -> str:
    db = connection.settings_dict
    credentials = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{credentials}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


@contextlib.contextmanager
def live_server(**environment: str) -> Iterator[str]:
    """The server's base URL while it runs, with `environment` on top of ours."""
    if connection.vendor != "postgresql":
        pytest.skip("the live server tests need PostgreSQL")
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "belote_project.settings",
        "DATABASE_URL": _database_url(),
        # Throttle counts of their own, whoever else uses this Redis.
        "CACHE_KEY_PREFIX": f"live-{secrets.token_hex(4)}",
        **environment,
    }
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(
            server_command(port, workers=1), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        try:
            url = f"http://127.0.0.1:{port}"
            try:
                wait_until_serving(url, server)
            except RuntimeError as error:
                log.seek(0)
                pytest.fail(f"{error}: {log.read().decode()}")
            yield url
        finally:
            server.terminate()
            server.wait(timeout=10)
