"""The game endpoints read the game only once authentication, permissions and throttles
have let the request through: authentication reads the bearer token and its user, and
nothing of a game (accounts/authentication.py)."""

from __future__ import annotations

import re
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from tests.games.helpers import GAMES, create_table, stored

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

_GAME_TABLE = re.compile(r"\bgames_\w+")


def _game_tables(queries: CaptureQueriesContext) -> set[str]:
    return {name for query in queries for name in _GAME_TABLE.findall(query["sql"])}


def _accounts_only(query: dict[str, str]) -> bool:
    return "accounts_accesstoken" in query["sql"] and not _GAME_TABLE.search(query["sql"])


@pytest.fixture
def table(auth_client):
    return create_table([auth_client() for _ in range(4)])


def _turn(table):
    seat = table.view(0)["turn"]
    return seat, table.view(seat)


@pytest.mark.parametrize(
    ("authorization", "code", "queries"),
    [
        (None, "not_authenticated", 0),
        ("Bearer", "malformed_token", 0),
        ("Bearer blt_not-a-real-token", "invalid_token", 1),
    ],
)
@pytest.mark.parametrize("method", ["get", "post"])
def test_an_unauthenticated_request_reads_no_game_table(
    table, method, authorization, code, queries
):
    client = APIClient(headers={} if authorization is None else {"Authorization": authorization})
    path = table.url if method == "get" else f"{table.url}/actions"
    with CaptureQueriesContext(connection) as reads:
        response = getattr(client, method)(path)

    assert response.status_code == 401
    assert response.json()["code"] == code
    assert len(reads) == queries
    assert all(_accounts_only(query) for query in reads)
    assert _game_tables(reads) == set()


def test_a_throttled_action_reads_no_game_table(table, monkeypatch):
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "game_actions", "1/min")
    seat, view = _turn(table)
    assert table.act(seat, view["legal_actions"][0], view["version"]).status_code == 201
    events = stored(table.game_id, "seq")

    with CaptureQueriesContext(connection) as reads:
        refused = table.act(seat, view["legal_actions"][0], view["version"] + 1)

    assert refused.status_code == 429
    assert len(reads) == 1
    assert _accounts_only(reads[0])
    assert stored(table.game_id, "seq") == events


def test_a_view_reads_the_token_then_the_game(table):
    seat = table.view(0)["turn"]
    with CaptureQueriesContext(connection) as reads:
        view = table.view(seat)

    assert view["seat"] == seat
    assert _accounts_only(reads[0])
    # then the game with its seats and their users, and the events after the known state
    assert len(reads) == 3
    assert {"games_seat", "games_game"} <= set(_GAME_TABLE.findall(reads[1]["sql"]))
    assert set(_GAME_TABLE.findall(reads[2]["sql"])) == {"games_gameevent"}


def test_an_action_reads_the_token_then_the_game_then_appends(table):
    seat, view = _turn(table)
    with CaptureQueriesContext(connection) as acting:
        response = table.act(seat, view["legal_actions"][0], view["version"])

    assert response.status_code == 201
    assert _accounts_only(acting[0])
    verbs = [query["sql"].split()[0] for query in acting[1:]]
    reads, writes = verbs[:2], [verb for verb in verbs[2:] if verb not in {"SAVEPOINT", "BEGIN"}]
    assert reads == ["SELECT", "SELECT"]  # the game with its seats, the events
    assert writes[:4] == [
        "UPDATE",  # the read model, at the expected version
        "SELECT",  # the previous link of the hash chain (docs/audit.md)
        "INSERT",  # the events
        "SELECT",  # pg_notify, sent on commit
    ]


@pytest.mark.parametrize("method", ["get", "post"])
def test_an_unknown_game_is_404_after_the_token_and_the_game_reads(auth_client, method):
    client = auth_client()
    path = f"{GAMES}/{uuid.uuid4()}" + ("" if method == "get" else "/actions")
    body = {"action": {"type": "pass"}, "expected_version": 1} if method == "post" else None
    with CaptureQueriesContext(connection) as reads:
        response = getattr(client, method)(path, body, format="json")

    assert response.status_code == 404
    assert len(reads) == 2  # the token, the game with its seats (no row)
    assert _accounts_only(reads[0])
