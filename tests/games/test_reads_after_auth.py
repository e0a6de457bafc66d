"""The hot game endpoints read the game in the bearer token's round trip
(games/api/views.py `_TableReadWithToken`): they answer exactly as reading it apart does."""

from __future__ import annotations

import random
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from belote_project.rows import read_together
from games import event_store
from games.api.views import _TableReadWithToken
from tests.games.helpers import GAMES, create_table, pick

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

_ANSWER_HEADERS = ("Content-Type", "ETag", "Cache-Control", "Vary", "WWW-Authenticate")


@pytest.fixture(params=["with_token", "apart"])
def reading(request, monkeypatch):
    """Run the test with the reads in the token's round trip, and with them read apart."""
    if request.param == "apart":
        monkeypatch.delattr(_TableReadWithToken, "access_token_with_reads")
    return request.param


def _answer(response):
    headers = {name: response.get(name) for name in _ANSWER_HEADERS}
    return response.status_code, headers, response.content


def _played(auth_client, seed):
    """A fresh table with a few random actions played through the API; the answers."""
    table = create_table([auth_client() for _ in range(4)])
    rng, answers = random.Random(seed), []
    for _ in range(12):
        seat = table.view(0)["turn"]
        view = table.view(seat)
        response = table.act(seat, pick(rng, view), view["version"])
        answers.append((view["legal_actions"], response.status_code))
    return table, answers


def test_views_and_actions_answer_the_same_either_way(auth_client, reading):
    table, answers = _played(auth_client, seed=5)

    assert all(status == 201 for _, status in answers)
    # Every seat and a spectator see the same thing whichever way the game was read.
    for seat in range(4):
        assert table.view(seat)["seat"] == seat
    spectator = auth_client().get(table.url)
    assert spectator.status_code == 200
    assert spectator.json()["seat"] is None


@pytest.mark.parametrize(
    "case",
    ["views", "bad_token", "unknown_game", "bad_token_unknown_game", "not_modified", "stale"],
)
def test_errors_and_caching_answer_the_same_either_way(auth_client, monkeypatch, case):
    table = create_table([auth_client() for _ in range(4)])
    seat = table.view(0)["turn"]
    view = table.view(seat)
    etag = table.clients[seat].get(table.url)["ETag"]
    bad = APIClient(headers={"Authorization": "Bearer blt_not-a-real-token"})
    unknown = f"{GAMES}/{uuid.uuid4()}"
    spectator = auth_client()
    requests = {
        "views": lambda: (
            *(client.get(table.url) for client in table.clients),
            spectator.get(table.url),
        ),
        "bad_token": lambda: (bad.get(table.url), bad.post(f"{table.url}/actions", {}, "json")),
        "unknown_game": lambda: (
            table.clients[seat].get(unknown),
            table.clients[seat].post(
                f"{unknown}/actions", {"action": {"type": "pass"}, "expected_version": 1}, "json"
            ),
        ),
        "bad_token_unknown_game": lambda: (bad.get(unknown), bad.post(f"{unknown}/actions")),
        "not_modified": lambda: (
            table.clients[seat].get(table.url, headers={"If-None-Match": etag}),
        ),
        "stale": lambda: (table.act(seat, view["legal_actions"][0], view["version"] - 1),),
    }
    with_token = [_answer(response) for response in requests[case]()]
    monkeypatch.delattr(_TableReadWithToken, "access_token_with_reads")
    apart = [_answer(response) for response in requests[case]()]

    assert with_token == apart
    expected = {
        "views": 200,
        "bad_token": 401,
        "unknown_game": 404,
        "bad_token_unknown_game": 401,
        "not_modified": 304,
        "stale": 409,
    }[case]
    assert {status for status, _, _ in with_token} == {expected}


def test_a_view_is_one_statement_and_an_action_two(auth_client):
    table = create_table([auth_client() for _ in range(4)])
    seat = table.view(0)["turn"]
    with CaptureQueriesContext(connection) as reads:
        view = table.view(seat)
    with CaptureQueriesContext(connection) as acting:
        response = table.act(seat, view["legal_actions"][0], view["version"])

    assert response.status_code == 201
    assert len(reads) == 1  # the token, the game with its seats, the events after the known
    assert len(acting) == 2  # the same read, then the append
    assert acting[1]["sql"].startswith("WITH moved AS (UPDATE")


def test_reading_together_gives_each_statements_rows(auth_client, monkeypatch):
    table = create_table([auth_client() for _ in range(4)])
    game_id = uuid.UUID(table.game_id)
    statements = [
        ("SELECT seq FROM games_gameevent WHERE game_id = %s ORDER BY seq", [game_id]),
        ("SELECT %s, %s", [1, "two"]),
        ("SELECT seq FROM games_gameevent WHERE game_id = %s AND seq > %s", [game_id, 99]),
    ]
    together = read_together(statements)
    monkeypatch.setattr(connection, "vendor", "elsewhere")
    one_by_one = read_together(statements)

    assert together == one_by_one == [[(1,), (2,)], [(1, "two")], []]
    assert event_store.load(game_id).version == 2
