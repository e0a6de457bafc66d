"""Bot turns: a lost task is queued again, and a bot's move can be re-derived by an auditor."""

from __future__ import annotations

import random
from datetime import timedelta
from uuid import UUID

import pytest
from django.utils import timezone

from games import rules, tasks
from games.bots import choose_action
from games.models import Game
from games.services.bot_turns import bot_seed, stalled_bot_turns
from games.store import load_events_after
from tests.games.helpers import GAMES

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def table_with_three_bots(client, level: str = "basic") -> UUID:
    created = client.post(GAMES, {"seat": 0, "options": {"target": 1}}, format="json").json()
    for seat in (1, 2, 3):
        client.post(f"{GAMES}/{created['id']}/bots", {"seat": seat, "level": level}, format="json")
    return UUID(created["id"])


def until_a_bot_is_to_play(client, game_id: UUID) -> Game:
    """Play seat 0's turns (randomly) until it is a bot's turn."""
    rng = random.Random(3)
    for _ in range(50):
        game = Game.objects.get(pk=game_id)
        if game.turn != 0:
            return game
        view = client.get(f"{GAMES}/{game_id}").json()
        client.post(
            f"{GAMES}/{game_id}/actions",
            {"action": rng.choice(view["legal_actions"]), "expected_version": view["version"]},
            format="json",
        )
    raise AssertionError("the bots never got a turn")


def age(game_id: UUID, seconds: int) -> None:
    Game.objects.filter(pk=game_id).update(updated_at=timezone.now() - timedelta(seconds=seconds))


def test_a_bot_turn_left_waiting_is_found_and_played(auth_client):
    player = auth_client()
    game = until_a_bot_is_to_play(player, table_with_three_bots(player))
    assert (str(game.id), game.version) not in stalled_bot_turns()
    age(game.id, 600)
    assert (str(game.id), game.version) in stalled_bot_turns()
    assert tasks.play_bot_turn(str(game.id), game.version)
    assert Game.objects.get(pk=game.id).version > game.version
    assert str(game.id) not in {game_id for game_id, _ in stalled_bot_turns()}


def test_a_players_turn_is_never_swept(auth_client):
    player = auth_client()
    game_id = table_with_three_bots(player)
    while Game.objects.get(pk=game_id).turn != 0:
        game = Game.objects.get(pk=game_id)
        assert tasks.play_bot_turn(str(game_id), game.version)
    age(game_id, 600)
    assert str(game_id) not in {game_id for game_id, _ in stalled_bot_turns()}


def test_a_recorded_bot_move_is_reproduced_from_the_events_and_the_bot_seed(auth_client):
    player = auth_client()
    game = until_a_bot_is_to_play(player, table_with_three_bots(player, level="expert"))
    seat, version = game.turn, game.version
    assert tasks.play_bot_turn(str(game.id), version)
    stored = [row.event for row in load_events_after(game.id, 0)]
    before = rules.replay(stored[:version])
    choice = choose_action(rules.view(before, seat), bot_seed(game.id, version, seat), "expert")
    command = rules.PlayerAction(seat, rules.parse_action(choice), next_hand_seed=bytes(32))
    replayed = rules.decide(before, command)
    assert rules.event_to_dict(replayed[0]) == rules.event_to_dict(stored[version])
