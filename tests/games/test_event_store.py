"""The event store: append-only at the database, optimistic appends, snapshots as a cache."""

from __future__ import annotations

import random
from uuid import UUID

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext

from games import rules, store
from games.feed.events import viewer_events_after
from games.models import Game, GameEvent, GameSnapshot
from tests.games.store_support import play_through_store

pytestmark = [pytest.mark.services, pytest.mark.django_db]


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE games_gameevent SET type = 'forged'",
        "UPDATE games_gameevent SET payload = '{}'::jsonb WHERE seq = 1",
        "DELETE FROM games_gameevent",
        "TRUNCATE games_gameevent CASCADE",
    ],
)
def test_the_database_refuses_to_rewrite_events(table, statement):
    with transaction.atomic(), connection.cursor() as cursor:
        # Check the deferred foreign keys now: TRUNCATE refuses pending checks.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET LOCAL belote.allow_truncate = 'off'")
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            cursor.execute(statement)
    assert GameEvent.objects.filter(game_id=table.game_id).count() == 2
    assert set(GameEvent.objects.values_list("type", flat=True)) == {"game_started", "hand_dealt"}


def test_append_at_a_stale_version_conflicts_and_appends_nothing(table):
    game = Game.objects.get(pk=table.game_id)
    loaded = store.load(game.id)
    play_through_store(game.id, 1, random.Random(1))
    seat = rules.view(loaded.state, None)["turn"]
    events = rules.decide(
        loaded.state, rules.PlayerAction(seat, rules.parse_action({"type": "pass"}), b"s" * 32)
    )
    before = list(GameEvent.objects.filter(game=game).values_list("seq", "type"))
    with pytest.raises(store.ConcurrencyConflict):
        store.append(
            game.id,
            expected_version=loaded.version,
            events=events,
            actor=store.Actor.system(),
            state_after=rules.replay(events, loaded.state),
        )
    assert list(GameEvent.objects.filter(game=game).values_list("seq", "type")) == before


def test_append_ahead_of_the_stream_conflicts_instead_of_leaving_a_gap(table):
    game = Game.objects.get(pk=table.game_id)
    loaded = store.load(game.id)
    seat = rules.view(loaded.state, None)["turn"]
    events = rules.decide(
        loaded.state, rules.PlayerAction(seat, rules.parse_action({"type": "pass"}), b"s" * 32)
    )
    with pytest.raises(store.ConcurrencyConflict):
        store.append(
            game.id,
            expected_version=loaded.version + 5,
            events=events,
            actor=store.Actor.system(),
            state_after=rules.replay(events, loaded.state),
        )
    assert GameEvent.objects.filter(game=game).count() == loaded.version


def test_load_from_snapshot_and_tail_equals_full_replay(table):
    game_id = UUID(table.game_id)
    rng = random.Random(7)
    for _ in range(12):
        current = play_through_store(game_id, 25, rng)
        assert store.load(game_id) == store.replay_all(game_id) == current
    snapshots = GameSnapshot.objects.filter(game_id=game_id)
    assert snapshots.count() >= 2
    types = dict(GameEvent.objects.filter(game_id=game_id).values_list("seq", "type"))
    for seq in snapshots.values_list("seq", flat=True):
        # A snapshot is taken when a batch ends a hand: its last event is the next deal
        # (or the end of the game), right after the hand's result.
        assert types[seq] in {"hand_dealt", "game_finished"}


def test_snapshots_of_another_engine_version_or_unreadable_are_ignored(table):
    game_id = UUID(table.game_id)
    current = play_through_store(game_id, 120, random.Random(3))
    latest = GameSnapshot.objects.filter(game_id=game_id).order_by("-seq").first()
    assert latest is not None
    GameSnapshot.objects.create(
        game_id=game_id,
        seq=current.version,
        engine_version=rules.ENGINE_VERSION + 1,
        state={"type": "state.GameState", "fields": {"phase": "from another engine"}},
    )
    assert store.load(game_id) == current
    latest.state = {"type": "os.system", "fields": {"command": "true"}}
    latest.save()
    assert store.load(game_id) == current


def test_events_after_a_cursor_are_redacted_per_viewer(table):
    game_id = UUID(table.game_id)
    play_through_store(game_id, 40, random.Random(11))
    for seat in (None, 0, 1, 2, 3):
        served = viewer_events_after(game_id, 0, seat=seat)
        assert served.last_seq == GameEvent.objects.filter(game_id=game_id).count()
        for event in served.events:
            if event["type"] == "hand_dealt":
                assert "stock" not in event["data"]
                assert set(event["data"]["cards"]) == (set() if seat is None else {str(seat)})
        tail = viewer_events_after(game_id, 30, seat=seat, limit=5)
        assert [event["seq"] for event in tail.events] == [
            event["seq"] for event in served.events if 30 < event["seq"] <= 35
        ]
        assert tail.last_seq == 35


def test_stored_events_upcast_through_the_rules_package(table):
    stored = store.load_events_after(UUID(table.game_id), 0)
    assert [item.seq for item in stored] == [1, 2]
    assert [type(item.event).__name__ for item in stored] == ["GameStarted", "HandDealt"]
    row = GameEvent.objects.get(game_id=table.game_id, seq=1)
    assert row.actor_kind == "system"
    assert row.schema_version >= 1
    assert "type" not in row.payload
    assert "v" not in row.payload


def test_the_read_model_is_rebuilt_from_events(table):
    game_id = UUID(table.game_id)
    play_through_store(game_id, 60, random.Random(5))
    expected = Game.objects.values("status", "version", "phase", "turn", "scores", "winner").get(
        pk=game_id
    )
    Game.objects.filter(pk=game_id).update(
        status="waiting", version=0, phase="x", turn=None, scores=[9, 9], winner=1
    )
    store.rebuild_read_model(game_id)
    rebuilt = Game.objects.values("status", "version", "phase", "turn", "scores", "winner")
    assert rebuilt.get(pk=game_id) == expected


def test_load_reads_the_newest_snapshot_and_only_the_events_after_it(table):
    game_id = UUID(table.game_id)
    current = play_through_store(game_id, 120, random.Random(9))
    latest = GameSnapshot.objects.filter(game_id=game_id).order_by("-seq").first()
    assert latest is not None
    with CaptureQueriesContext(connection) as queries:
        assert store.load(game_id) == current
    # The snapshot, then the events after it: never the whole stream.
    assert len(queries) == 2
    assert "games_gamesnapshot" in queries[0]["sql"]
    tail = GameEvent.objects.filter(game_id=game_id, seq__gt=latest.seq).count()
    assert tail == current.version - latest.seq < current.version
