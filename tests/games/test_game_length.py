"""Game length is bounded: validated option ranges, and no table starts with no human seated.

The engine's own bound (the last hand a game may deal) is pinned in tests/rules/test_game_end.py.
"""

from __future__ import annotations

import pytest

from games import services
from games.errors import InvalidTableOptionsError
from games.models import Game, GameEvent, GameStatus, Seat
from tests.games.helpers import GAMES

pytestmark = [pytest.mark.services, pytest.mark.django_db]


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        (10_001, "out_of_range"),
        (10**1000, "out_of_range"),
        (0, "out_of_range"),
        (True, "wrong_type"),
    ],
)
def test_a_target_out_of_its_bounds_is_refused_before_a_table_is_made(auth_client, target, reason):
    response = auth_client().post(GAMES, {"options": {"target": target}}, format="json")
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "invalid_options"
    assert [(e["field"], e["code"]) for e in body["errors"]] == [("options.target", reason)]
    assert "1 to 10000" in body["detail"] or reason == "wrong_type"
    assert str(10**1000) not in response.content.decode()
    assert not Game.objects.exists()


def test_the_largest_target_makes_a_table(auth_client):
    response = auth_client().post(GAMES, {"options": {"target": 10_000}}, format="json")
    assert response.status_code == 201
    assert response.json()["options"]["target"] == 10_000


def seat_bots(client, game_id: str, seats: tuple[int, ...]) -> None:
    for seat in seats:
        added = client.post(
            f"{GAMES}/{game_id}/bots", {"seat": seat, "level": "random"}, format="json"
        )
        assert added.status_code == 201, added.content


def assert_still_waiting_with(game_id: str, seats: int) -> None:
    assert Game.objects.get(pk=game_id).status == GameStatus.WAITING
    assert Seat.objects.filter(game_id=game_id).count() == seats
    assert not GameEvent.objects.filter(game_id=game_id).exists()


def test_the_bot_that_would_fill_a_table_with_nobody_playing_is_refused(auth_client):
    organiser = auth_client()
    game_id = organiser.post(GAMES, {"seat": None}, format="json").json()["id"]
    seat_bots(organiser, game_id, (0, 1, 2))
    fourth = organiser.post(f"{GAMES}/{game_id}/bots", {"level": "expert"}, format="json")
    assert (fourth.status_code, fourth.json()["code"]) == (409, "no_human_seated")
    assert_still_waiting_with(game_id, 3)
    joined = auth_client().post(f"{GAMES}/{game_id}/seats", {}, format="json")
    assert (joined.status_code, joined.json()["status"]) == (201, "playing")


def test_a_creator_who_left_three_bots_cannot_seat_a_fourth_in_their_place(auth_client):
    creator = auth_client()
    game_id = creator.post(GAMES, {"seat": 0}, format="json").json()["id"]
    seat_bots(creator, game_id, (1, 2))
    assert creator.delete(f"{GAMES}/{game_id}/seats/0").status_code == 200
    seat_bots(creator, game_id, (0,))
    refused = creator.post(f"{GAMES}/{game_id}/bots", {"seat": 3, "level": "basic"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "no_human_seated")
    assert_still_waiting_with(game_id, 3)


def test_a_table_made_before_the_bounds_cannot_start(auth_client):
    players = [auth_client() for _ in range(4)]
    game_id = players[0].post(GAMES, {"seat": 0}, format="json").json()["id"]
    # a row written by an earlier release, when the target had no upper bound
    Game.objects.filter(pk=game_id).update(
        options={**Game.objects.get(pk=game_id).options, "target": 10**6}
    )
    for seat in (1, 2):
        players[seat].post(f"{GAMES}/{game_id}/seats", {"seat": seat}, format="json")
    last = players[3].post(f"{GAMES}/{game_id}/seats", {"seat": 3}, format="json")
    assert (last.status_code, last.json()["code"]) == (422, "invalid_options")
    assert_still_waiting_with(game_id, 3)


def test_an_all_bot_game_is_for_internal_callers_and_starts_at_once(user):
    game = services.bot_game_create(
        user=user, options={}, levels=("random", "basic", "expert", "random")
    )
    assert Game.objects.get(pk=game.id).status == GameStatus.PLAYING
    assert list(Seat.objects.filter(game=game).values_list("bot_level", flat=True)) == [
        "random",
        "basic",
        "expert",
        "random",
    ]


def test_an_all_bot_game_is_bounded_by_the_same_options(user):
    with pytest.raises(InvalidTableOptionsError):
        services.bot_game_create(user=user, options={"target": 10**6}, levels=("random",) * 4)
    assert not Game.objects.exists()
