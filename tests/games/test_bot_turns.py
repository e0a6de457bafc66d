"""Bot turns: a lost task is queued again; a bot's seed is secret until its hand ends, then
every bot move can be re-derived by an auditor from what a spectator received."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any
from uuid import UUID

import pytest
from django.utils import timezone

from games import rules, services, store, tasks
from games.audit.seeds import bot_seed
from games.bots import choose_action
from games.feed.events import viewer_events_after
from games.models import Game
from games.rules.dealing import deal
from games.services.bot_turns import stalled_bot_turns
from tests.games.helpers import GAMES

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

SEATS = range(4)
DOCUMENTED_VECTOR = "da73aa556b8b491dc5d14ec8a2425453f0cf52c2422df5ec39f8619bccad5f6e"


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


def test_a_bot_seed_is_sha256_of_the_tag_the_hand_seed_the_version_and_the_seat():
    hand_seed = bytes(range(32))
    material = b"belote/bot-seed/v1" + hand_seed + (7).to_bytes(8, "big") + bytes([2])
    assert bot_seed(hand_seed, 7, 2) == hashlib.sha256(material).digest()
    # the vector of docs/bots.md
    assert bot_seed(hand_seed, 7, 2).hex() == DOCUMENTED_VECTOR


def test_a_bot_seed_changes_with_the_hand_seed_the_version_and_the_seat():
    hand_seed, other = bytes(range(32)), bytes(range(1, 33))
    seeds = {
        bot_seed(hand_seed, 7, 2),
        bot_seed(other, 7, 2),
        bot_seed(hand_seed, 8, 2),
        bot_seed(hand_seed, 7, 3),
    }
    assert len(seeds) == 4


def test_every_bot_move_of_an_all_bot_game_is_re_derived_from_a_spectators_events(
    user, auth_client
):
    levels = ("random", "basic", "expert", "random")
    game = services.bot_game_create(user=user, options={"target": 1}, levels=levels)
    play_bots_until(game.id, lambda current: current.status == "finished")
    public = spectator_events(auth_client(), game.id)
    assert public[-1]["type"] == "game_finished"
    moves = [item for item in public if item["type"] in {"bid", "declared", "card_played"}]
    assert len(moves) >= 1 + 32  # a bid at least, and a hand of cards
    assert audit_bot_moves(public, levels) == len(moves)


def test_nothing_a_viewer_gets_before_the_hand_ends_reveals_the_bot_seed(user, auth_client):
    game = services.bot_game_create(user=user, options={"target": 1}, levels=("random",) * 4)
    played = play_bots_until(game.id, lambda current: current.version >= 12)
    loaded = store.load(game.id)
    assert loaded.state.hand_number == 1
    assert loaded.state.phase in {"bidding_1", "bidding_2", "playing"}, "hand 1 still on"
    hand_seed = bytes.fromhex(loaded.state.hand_seed)
    secrets = {
        hand_seed.hex(),
        bot_seed(hand_seed, played.version, played.turn).hex(),
        *(bot_seed(hand_seed, version, seat).hex() for version in range(13) for seat in SEATS),
    }
    spectator = auth_client()
    seen = [
        spectator.get(f"{GAMES}/{game.id}").json(),
        spectator_events(spectator, game.id),
        *(rules.view(loaded.state, seat) for seat in SEATS),
        *(viewer_events_after(game.id, 0, seat=seat).events for seat in SEATS),
    ]
    for body in seen:
        text = json.dumps(body, default=str).lower()
        assert not [secret for secret in secrets if secret in text]
    finished = play_bots_until(game.id, lambda current: current.status == "finished")
    revealed = [
        item["data"]["seed"]
        for item in spectator_events(spectator, finished.id)
        if item["type"] in {"hand_scored", "hand_thrown_in"} and item["data"]["hand"] == 1
    ]
    assert revealed == [hand_seed.hex()]


def play_bots_until(game_id: UUID, done: Callable[[Game], bool]) -> Game:
    """Run the bot tasks one turn at a time, as the worker would, until `done`."""
    for _ in range(5000):
        game = Game.objects.get(pk=game_id)
        if done(game):
            return game
        assert tasks.play_bot_turn(str(game_id), game.version)
    raise AssertionError("the bots never got there")


def spectator_events(client, game_id: UUID) -> list[dict[str, Any]]:
    """Every event of the game as `client`, seated nowhere, gets it from the API."""
    events: list[dict[str, Any]] = []
    url: str | None = f"{GAMES}/{game_id}/events?after=0&limit=500"
    while url is not None:
        page = client.get(url)
        assert page.status_code == 200, page.content
        events.extend(page.json()["events"])
        url = page.json()["next"]
    return events


def wire(item: dict[str, Any]) -> dict[str, Any]:
    return {"type": item["type"], "v": item["v"], **item["data"]}


def audit_bot_moves(public: list[dict[str, Any]], levels: Sequence[str]) -> int:
    """Rebuild the game from its public events and each hand's revealed seed, re-deriving
    every bot move with the documented bot seed; returns the number of moves checked.

    What it replays must redact to exactly the events the spectator received.
    """
    revealed = {
        item["data"]["hand"]: bytes.fromhex(item["data"]["seed"])
        for item in public
        if item["type"] in {"hand_scored", "hand_thrown_in"}
    }
    # and each hand's secret, which its seed came from (docs/fairness.md)
    secrets = {
        item["data"]["hand"]: bytes.fromhex(item["data"]["secret"])
        for item in public
        if item["type"] in {"hand_scored", "hand_thrown_in"}
    }
    state, index, checked = rules.new_game(), 0, 0
    while index < len(public):
        item = public[index]
        if item["type"] == "game_started":
            produced: tuple[rules.Event, ...] = (rules.event_from_dict(wire(item)),)
        elif item["type"] == "hand_dealt":
            dealt = item["data"]
            hand = dealt["hand"]
            produced = (
                deal(hand, dealt["dealer"], revealed[hand], secrets[hand], state.client_seeds),
            )
        else:
            assert item["actor"] == "bot"
            seat, version = state.turn, item["seq"] - 1
            material = revealed[state.hand_number] + version.to_bytes(8, "big") + bytes([seat])
            seed = hashlib.sha256(b"belote/bot-seed/v1" + material).digest()
            choice = choose_action(rules.view(state, seat), seed, levels[seat])
            next_hand_seed = revealed.get(state.hand_number + 1, bytes(32))
            command = rules.PlayerAction(
                seat,
                rules.parse_action(choice),
                next_hand_seed,
                next_hand_secret=secrets.get(state.hand_number + 1, b""),
            )
            produced = rules.decide(state, command)
            checked += 1
        for event in produced:
            state = rules.apply(state, event)
            shown = rules.redact(event, None, state)
            if shown is not None:
                assert shown == wire(public[index]), f"event {public[index]['seq']}"
                index += 1
    assert state.phase == "finished"
    return checked
