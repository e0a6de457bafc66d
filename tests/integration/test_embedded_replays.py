"""An idempotent replay on the embedded default (SQLite) is the first answer byte for byte,
with the same headers, as on PostgreSQL (tests/games/test_tables_api.py runs there): the
production server, with nothing configured, as `./scripts/run` starts it."""

import subprocess
from collections.abc import Iterator

import httpx
import pytest

from bench.embedded_bench import embedded_environment, migrate
from bench.load_server import ROOT, free_port, server_command, wait_until_serving
from tests.conftest import PASSWORD
from tests.live_server import HTTP_TIMEOUT, schema_checked
from tests.openapi_contract import prepare

#: headers set afresh for every answer, replayed or not
PER_ANSWER = ("date", "idempotent-replayed")


@pytest.fixture
def embedded_server(tmp_path) -> Iterator[httpx.Client]:
    env = embedded_environment(str(tmp_path))
    migrate(env)
    port = free_port()
    server = subprocess.Popen(server_command(port, 1), cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    base_url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(base_url, server)
        prepare()
        with httpx.Client(
            base_url=base_url, timeout=HTTP_TIMEOUT, event_hooks={"response": [schema_checked]}
        ) as client:
            yield client
    finally:
        server.terminate()
        server.wait(timeout=30)


def _headers(answer: httpx.Response) -> dict[str, str]:
    return {name.lower(): value for name, value in answer.headers.items()}


def test_a_replayed_table_creation_on_sqlite_is_the_first_answer_byte_for_byte(embedded_server):
    client = embedded_server
    registered = client.post(
        "/api/v1/auth/register", json={"username": "replayer", "password": PASSWORD}
    )
    assert registered.status_code == 201, registered.text
    headers = {
        "Authorization": f"Bearer {registered.json()['token']}",
        "Idempotency-Key": "one-table",
    }
    body = {"options": {"target": 101, "declarations": False}}

    first = client.post("/api/v1/games", json=body, headers=headers)
    again = client.post("/api/v1/games", json=body, headers=headers)

    assert first.status_code == again.status_code == 201, first.text
    assert again.content == first.content
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    replayed = {name: value for name, value in _headers(again).items() if name not in PER_ANSWER}
    answered = {name: value for name, value in _headers(first).items() if name not in PER_ANSWER}
    assert replayed == answered
    assert answered["location"] == f"/api/v1/games/{first.json()['id']}"
    listed = client.get("/api/v1/games", headers={"Authorization": headers["Authorization"]})
    assert [game["id"] for game in listed.json()["results"]] == [first.json()["id"]]
