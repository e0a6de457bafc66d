"""The event store's appends: what one stores, and the conflicts that store nothing
(a stale or future version, an event past the read model, a deadlock with an older writer)."""

from __future__ import annotations

import random
import threading
import time
from uuid import UUID

import psycopg
import pytest
from django.db import connection, transaction

from games import rules, store
from games.models import Game, GameEvent, GameSnapshot
from games.store.snapshots import decode as decode_snapshot
from games.store.stream import HAND_BOUNDARIES
from tests.games.store_support import play_through_store

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def _stream(game_id):
    events = GameEvent.objects.filter(game_id=game_id).order_by("seq")
    return list(events.values_list("seq", "type", "schema_version", "payload", "actor_kind"))


def _read_model(game_id):
    fields = ("status", "version", "phase", "turn", "scores", "winner")
    return Game.objects.values(*fields).get(pk=game_id)


def _act_at(game, loaded, expected_version):
    """Appending the first legal action of `loaded`, claiming `expected_version`."""
    seat = rules.view(loaded.state, None)["turn"]
    action = rules.legal_actions(loaded.state, seat)[0]
    command = rules.PlayerAction(seat, rules.parse_action(action), b"s" * 32)
    events = rules.decide(loaded.state, command)
    return lambda: store.append(
        game.id,
        expected_version=expected_version,
        events=events,
        actor=store.Actor.system(),
        state_after=rules.replay(events, loaded.state),
    )


def test_an_append_stores_the_events_the_read_model_and_snapshots(table):
    game_id = UUID(table.game_id)
    played = play_through_store(game_id, 80, random.Random(3))

    assert store.replay_all(game_id) == played
    assert store.load(game_id) == played
    public = rules.view(played.state, None)
    assert _read_model(game_id) == {
        "status": public["status"],
        "version": played.version,
        "phase": public["phase"],
        "turn": public["turn"],
        "scores": list(public["scores"]),
        "winner": public["winner"],
    }
    snapshots = GameSnapshot.objects.filter(game_id=game_id).values_list("seq", "state")
    assert snapshots
    stream = [stored.event for stored in store.load_events_after(game_id, 0)]
    for seq, state in snapshots:
        ending = [rules.event_to_dict(event)["type"] for event in stream[seq - 3 : seq]]
        assert HAND_BOUNDARIES & set(ending)
        assert decode_snapshot(state) == rules.replay(stream[:seq], rules.new_game())


@pytest.mark.parametrize("offset", [-1, 5])
def test_an_append_refuses_a_version_not_the_streams(table, offset):
    game = Game.objects.get(pk=table.game_id)
    play_through_store(game.id, 1, random.Random(1))
    loaded = store.load(game.id)
    stale = store.LoadedGame(store.replay_all(game.id).state, loaded.version)
    before, model = _stream(game.id), _read_model(game.id)

    with pytest.raises(store.ConcurrencyConflict):
        _act_at(game, stale, loaded.version + offset)()

    assert (_stream(game.id), _read_model(game.id)) == (before, model)


def test_an_event_past_the_read_model_is_a_conflict_that_changes_nothing(table):
    # Not something append leaves behind; the unique index still keeps the stream whole.
    game = Game.objects.get(pk=table.game_id)
    loaded = store.load(game.id)
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO games_gameevent (game_id, seq, type, schema_version, payload,"
            " actor_kind, created_at) VALUES (%s, %s, 'forged', 1, '{}', 'system', now())",
            [game.id, loaded.version + 1],
        )
    before, model = _stream(game.id), _read_model(game.id)

    with pytest.raises(store.ConcurrencyConflict):
        _act_at(game, loaded, loaded.version)()

    assert (_stream(game.id), _read_model(game.id)) == (before, model)


def test_a_conflict_leaves_the_callers_transaction_usable(table):
    game = Game.objects.get(pk=table.game_id)
    loaded = store.load(game.id)
    with transaction.atomic():
        with pytest.raises(store.ConcurrencyConflict):
            _act_at(game, loaded, loaded.version + 5)()
        _act_at(game, loaded, loaded.version)()

    assert _read_model(game.id)["version"] == len(_stream(game.id)) > loaded.version


@pytest.mark.django_db(transaction=True)
def test_a_deadlock_with_an_older_writer_is_a_conflict_that_appends_nothing(table):
    # A writer of the previous release (events first, then the game row) running beside
    # this one (game row first) during a rolling deploy: PostgreSQL breaks the cycle by
    # failing one statement. Ours must answer a conflict, not a server error.
    game = Game.objects.get(pk=table.game_id)
    loaded = store.load(game.id)
    settings = connection.settings_dict
    older = psycopg.connect(
        host=settings["HOST"],
        port=settings["PORT"],
        user=settings["USER"],
        dbname=settings["NAME"],
    )
    holds_its_event = threading.Event()
    failures: list[BaseException] = []

    def older_writer() -> None:
        try:
            older.execute(
                "INSERT INTO games_gameevent (game_id, seq, type, schema_version, payload,"
                " actor_kind, created_at) VALUES (%s, %s, 'older', 1, '{}', 'system', now())",
                [game.id, loaded.version + 1],
            )
            holds_its_event.set()
            for _ in range(200):  # until our append waits on that event's index entry
                waiting = older.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    " AND datname = current_database()"
                ).fetchone()
                if waiting and waiting[0]:
                    break
                time.sleep(0.02)
            older.execute(
                "UPDATE games_game SET version = %s WHERE id = %s", [loaded.version + 1, game.id]
            )
            older.commit()
        except BaseException as error:
            failures.append(error)
            older.rollback()

    thread = threading.Thread(target=older_writer)
    thread.start()
    assert holds_its_event.wait(10)
    try:
        with pytest.raises(store.ConcurrencyConflict):
            _act_at(game, loaded, loaded.version)()
    finally:
        thread.join(20)
        older.close()

    assert failures == []  # the older writer went through; ours gave way
    assert [row[1] for row in _stream(game.id)][loaded.version :] == ["older"]
