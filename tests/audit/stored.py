"""Games stored through the event store as the services store them, for the audit tests."""

from __future__ import annotations

import random
from typing import Any
from uuid import UUID

from accounts.models import User
from bench.audit_store import append_move, random_move, table_secrets
from games import rules, services, store


def seated_table(players: list[User], options: dict[str, Any] | None = None) -> UUID:
    """A table of the four `players`, started (game_started and the first deal stored)."""
    game = services.game_create(user=players[0], options=options or {}, seat=0)
    for seat, player in enumerate(players[1:], start=1):
        services.seat_join(game_id=game.id, user=player, seat=seat)
    return game.id


def play_stored(game_id: UUID, seed: int, *, actions: int | None = None) -> store.LoadedGame:
    """Random legal moves appended one by one (to the end, or `actions` of them)."""
    rng = random.Random(seed)
    loaded, hand_secrets = store.load(game_id), table_secrets(game_id)
    count = 0
    while rules.summary(loaded.state).status != "finished" and count != actions:
        loaded = append_move(game_id, loaded, *random_move(loaded, rng, hand_secrets))
        count += 1
    return loaded
