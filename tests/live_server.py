"""The production server (bench.load_server.server_command, one worker) in a subprocess
on a free loopback port, reading the test database: for tests that need a real server.

Tests using it commit their data (transactional) so that the server sees them, and their
appends reach it through PostgreSQL NOTIFY.
"""

import contextlib
import os
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
from django.db import connection

from accounts.models import User
from accounts.services import access_token_issue
from bench.load_server import ROOT, free_port, server_command, wait_until_serving
from tests.openapi_contract import check_answer, check_stream_answer, prepare

# Generous: a working server answers in milliseconds, a broken one only at these.
HTTP_TIMEOUT = 30.0


@dataclass(frozen=True)
class LiveServer:
    """The production server command on a loopback port, reading the test database.

    `cache_prefix` is its cache's key prefix, its own so that servers of other runs
    (sharing Redis) never see its entries, such as the feed slots.
    """

    url: str
    cache_prefix: str

    def client(self, user: User) -> httpx.Client:
        """A client signed in as `user`; every answer it gets is checked against the schema."""
        token = access_token_issue(user=user)
        prepare()
        return httpx.Client(
            base_url=self.url,
            headers={"Authorization": f"Bearer {token}"},
            timeout=HTTP_TIMEOUT,
            event_hooks={"response": [schema_checked]},
        )

    def anonymous_client(self) -> httpx.Client:
        """A client with no token; its answers are checked against the schema too."""
        prepare()
        return httpx.Client(
            base_url=self.url, timeout=HTTP_TIMEOUT, event_hooks={"response": [schema_checked]}
        )


def schema_checked(response: httpx.Response) -> None:
    """Check a real server's answer against the schema, as tests/openapi_contract.py checks
    the test client's (a stream: its status and type; its frames are not JSON)."""
    if _is_stream(response):
        _check_stream(response)
    else:
        _check_body(response, response.read())


async def schema_checked_async(response: httpx.Response) -> None:
    """`schema_checked` for an `httpx.AsyncClient`."""
    if _is_stream(response):
        _check_stream(response)
    else:
        _check_body(response, await response.aread())


def _is_stream(response: httpx.Response) -> bool:
    content_type = response.headers.get("content-type", "")
    if response.status_code in (204, 304):
        assert not content_type, f"a {response.status_code} has no body to type: {content_type}"
    return content_type.startswith("text/event-stream")


def _check_stream(response: httpx.Response) -> None:
    check_stream_answer(
        method=response.request.method,
        path=response.request.url.path,
        status=response.status_code,
        content_type=response.headers["content-type"],
    )


def _check_body(response: httpx.Response, body: bytes) -> None:
    check_answer(
        method=response.request.method,
        path=response.request.url.path,
        status=response.status_code,
        content_type=response.headers.get("content-type", "") if body else "",
        body=body,
        query=dict(response.request.url.params),
    )


def _database_url() -> str:
    db = connection.settings_dict
    credentials = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{credentials}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


@contextlib.contextmanager
def live_server(**settings: str) -> Iterator[LiveServer]:
    """A server (one worker) for a module's tests; they commit their data (transactional
    tests) so that it sees them, and their appends reach it through PostgreSQL NOTIFY.
    `settings`: more environment variables for it."""
    if connection.vendor != "postgresql":
        pytest.skip("the live feed tests need PostgreSQL")
    port = free_port()
    server = LiveServer(url=f"http://127.0.0.1:{port}", cache_prefix=f"live-{uuid.uuid4().hex}")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "belote_project.settings",
        "DATABASE_URL": _database_url(),
        "CACHE_KEY_PREFIX": server.cache_prefix,
        **settings,
    }
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            server_command(port, workers=1), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        try:
            try:
                wait_until_serving(server.url, process)
            except RuntimeError as error:
                log.seek(0)
                pytest.fail(f"{error}: {log.read().decode()}")
            yield server
        finally:
            process.terminate()
            process.wait(timeout=10)
