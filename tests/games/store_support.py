"""Store-level helpers for the games tests: moves appended straight through the store."""

from __future__ import annotations

import random
from uuid import UUID

from bench.audit_store import append_move, random_move, table_secrets
from games import rules, store


def play_through_store(game_id: UUID, actions: int, rng: random.Random) -> store.LoadedGame:
    """Act through the store directly (no HTTP), like the service does."""
    loaded = store.load(game_id)
    for _ in range(actions):
        if rules.summary(loaded.state).status == "finished":
            break
        loaded = append_move(game_id, loaded, *random_move(loaded, rng, table_secrets(game_id)))
    return loaded
