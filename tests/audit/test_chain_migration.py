"""games/migrations/0007: the events stored before it are chained from each game's first."""

from __future__ import annotations

import pytest
from django.db import connection

from bench.audit_games import played_game
from games import rules
from games.audit.chain import Link, first_break
from tests.migrations import latest_schema_after, migrate

# (the fixture, imported here so that this module may use it)
__all__ = ["latest_schema_after"]

pytestmark = [
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("latest_schema_after"),
]

BEFORE = [("games", "0007_player_notices")]
AFTER = [("games", "0008_event_hash_chain")]


def test_the_migration_chains_existing_games_and_keeps_the_table_append_only(make_user):
    owner = make_user()
    old = migrate(BEFORE)
    game_model, event_model = old.get_model("games", "Game"), old.get_model("games", "GameEvent")
    games = []
    for seed in (1, 2):
        game = game_model.objects.create(created_by_id=owner.pk, options={})
        for seq, event in enumerate(played_game(seed)[:30], start=1):
            wire = rules.event_to_dict(event)
            event_model.objects.create(
                game_id=game.pk,
                seq=seq,
                type=wire.pop("type"),
                schema_version=wire.pop("v"),
                payload=wire,
                actor_kind="system",
            )
        games.append(game.pk)

    new = migrate(AFTER)

    events = new.get_model("games", "GameEvent").objects
    for game_id in games:
        rows = events.filter(game_id=game_id).order_by("seq")
        links = [Link(r.seq, r.type, r.schema_version, r.payload, r.hash) for r in rows]
        assert len(links) == 30
        assert first_break(links) is None
    if connection.vendor == "postgresql":
        with pytest.raises(Exception, match="append-only"), connection.cursor() as cursor:
            cursor.execute("UPDATE games_gameevent SET hash = ''")
