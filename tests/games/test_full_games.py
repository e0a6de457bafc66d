"""Four registered players play whole games over HTTP, picking random legal actions.

Every response is checked for the other seats' hidden cards, and the final result
must equal a replay of the stored events by the rules engine.
"""

from __future__ import annotations

import random
from typing import Any
from uuid import UUID

import pytest
from rest_framework.test import APIClient

from games import rules, store
from games.models import Game
from tests.games.helpers import Table, create_table, stored
from tests.games.leaks import assert_events_redacted, assert_no_leak

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def play_to_the_end(
    table: Table, rng: random.Random, spectator: APIClient, max_actions: int = 3000
) -> dict[str, Any]:
    view = table.view(0)
    assert_no_leak(table.game_id, 0, view)
    for count in range(max_actions):
        if count % 7 == 0:
            watched = spectator.get(table.url).json()
            assert watched["seat"] is None
            assert_no_leak(table.game_id, None, watched)
        if view["status"] == "finished":
            return view
        seat = view["turn"]
        own = table.view(seat)
        assert_no_leak(table.game_id, seat, own)
        response = table.act(seat, rng.choice(own["legal_actions"]), own["version"])
        assert response.status_code == 201, response.content
        body = response.json()
        assert_no_leak(table.game_id, seat, body["game"])
        assert_events_redacted(seat, body["events"])
        assert [event["seq"] for event in body["events"]] == list(
            range(own["version"] + 1, body["game"]["version"] + 1)
        )
        view = body["game"]
    raise AssertionError("the game did not finish")


def assert_matches_replay(game_id: str, final: dict[str, Any]) -> None:
    seqs = stored(game_id, "seq")
    assert seqs == list(range(1, len(seqs) + 1))
    assert final["version"] == len(seqs)
    replayed = rules.view(store.replay_all(UUID(game_id)).state, None)
    assert replayed["status"] == "finished"
    assert final["scores"] == replayed["scores"]
    assert final["winner"] == replayed["winner"]
    assert final["hands"] == replayed["hands"]
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.version, game.scores, game.winner) == (
        "finished",
        len(seqs),
        replayed["scores"],
        replayed["winner"],
    )


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        (1, {"target": 101}),
        (2, {"target": 101, "declarations": False, "tie_rule": "inside"}),
        (3, {"target": 101, "auto_belote": False, "capot_points": 250}),
        (4, {"target": 151, "overtrump_partner_on_trump_lead": False}),
    ],
)
def test_random_players_finish_a_short_game_that_replays_identically(auth_client, seed, options):
    table = create_table([auth_client() for _ in range(4)], options)
    final = play_to_the_end(table, random.Random(seed), auth_client())
    assert final["options"] == {**rules.Options().to_dict(), **options}
    assert_matches_replay(table.game_id, final)


@pytest.mark.slow
def test_random_players_finish_a_501_game(auth_client):
    table = create_table([auth_client() for _ in range(4)])
    final = play_to_the_end(table, random.Random(501), auth_client())
    assert max(final["scores"]) >= 501
    assert_matches_replay(table.game_id, final)


def test_the_leak_check_catches_another_seats_hand(auth_client):
    table = create_table([auth_client() for _ in range(4)])
    with pytest.raises(AssertionError, match="was shown"):
        assert_no_leak(table.game_id, 0, table.view(1))
