"""The event store: append-only at the database, optimistic appends, snapshots as a cache."""

from __future__ import annotations

import random
import threading
import time
from uuid import UUID

import psycopg
import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext

from bench.audit_store import append_move, random_move, table_secrets
from games import rules, store
from games.feed.events import viewer_events_after
from games.models import Game, GameEvent, GameSnapshot
from games.store.snapshots import decode as decode_snapshot
from games.store.stream import HAND_BOUNDARIES
from tests.games.helpers import create_table

pytestmark = [pytest.mark.services, pytest.mark.django_db]


@pytest.fixture
def started(auth_client):
    """A started game (game_started + hand_dealt stored)."""
    return create_table([auth_client() for _ in range(4)])


def _play_random(game_id: UUID, actions: int, rng: random.Random) -> store.LoadedGame:
    """Act through the store directly (no HTTP), like the service does."""
    loaded = store.load(game_id)
    for _ in range(actions):
        if rules.summary(loaded.state).status == "finished":
            break
        loaded = append_move(game_id, loaded, *random_move(loaded, rng, table_secrets(game_id)))
    return loaded


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE games_gameevent SET type = 'forged'",
        "UPDATE games_gameevent SET payload = '{}'::jsonb WHERE seq = 1",
        "DELETE FROM games_gameevent",
        "TRUNCATE games_gameevent CASCADE",
    ],
)
def test_the_database_refuses_to_rewrite_events(started, statement):
    with transaction.atomic(), connection.cursor() as cursor:
        # Check the deferred foreign keys now: TRUNCATE refuses pending checks.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET LOCAL belote.allow_truncate = 'off'")
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            cursor.execute(statement)
    assert GameEvent.objects.filter(game_id=started.game_id).count() == 2
    assert set(GameEvent.objects.values_list("type", flat=True)) == {"game_started", "hand_dealt"}


def test_append_at_a_stale_version_conflicts_and_appends_nothing(started):
    game = Game.objects.get(pk=started.game_id)
    loaded = store.load(game.id)
    _play_random(game.id, 1, random.Random(1))
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


def test_append_ahead_of_the_stream_conflicts_instead_of_leaving_a_gap(started):
    game = Game.objects.get(pk=started.game_id)
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


def test_load_from_snapshot_and_tail_equals_full_replay(started):
    game_id = UUID(started.game_id)
    rng = random.Random(7)
    for _ in range(12):
        current = _play_random(game_id, 25, rng)
        assert store.load(game_id) == store.replay_all(game_id) == current
    snapshots = GameSnapshot.objects.filter(game_id=game_id)
    assert snapshots.count() >= 2
    types = dict(GameEvent.objects.filter(game_id=game_id).values_list("seq", "type"))
    for seq in snapshots.values_list("seq", flat=True):
        # A snapshot is taken when a batch ends a hand: its last event is the next deal
        # (or the end of the game), right after the hand's result.
        assert types[seq] in {"hand_dealt", "game_finished"}


def test_snapshots_of_another_engine_version_or_unreadable_are_ignored(started):
    game_id = UUID(started.game_id)
    current = _play_random(game_id, 120, random.Random(3))
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


def test_events_after_a_cursor_are_redacted_per_viewer(started):
    game_id = UUID(started.game_id)
    _play_random(game_id, 40, random.Random(11))
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


def test_stored_events_upcast_through_the_rules_package(started):
    stored = store.load_events_after(UUID(started.game_id), 0)
    assert [item.seq for item in stored] == [1, 2]
    assert [type(item.event).__name__ for item in stored] == ["GameStarted", "HandDealt"]
    row = GameEvent.objects.get(game_id=started.game_id, seq=1)
    assert row.actor_kind == "system"
    assert row.schema_version >= 1
    assert "type" not in row.payload
    assert "v" not in row.payload


def test_the_read_model_is_rebuilt_from_events(started):
    game_id = UUID(started.game_id)
    _play_random(game_id, 60, random.Random(5))
    expected = Game.objects.values("status", "version", "phase", "turn", "scores", "winner").get(
        pk=game_id
    )
    Game.objects.filter(pk=game_id).update(
        status="waiting", version=0, phase="x", turn=None, scores=[9, 9], winner=1
    )
    store.rebuild_read_model(game_id)
    rebuilt = Game.objects.values("status", "version", "phase", "turn", "scores", "winner")
    assert rebuilt.get(pk=game_id) == expected


def test_load_reads_the_newest_snapshot_and_only_the_events_after_it(started):
    game_id = UUID(started.game_id)
    current = _play_random(game_id, 120, random.Random(9))
    latest = GameSnapshot.objects.filter(game_id=game_id).order_by("-seq").first()
    assert latest is not None
    with CaptureQueriesContext(connection) as queries:
        assert store.load(game_id) == current
    # The snapshot, then the events after it: never the whole stream.
    assert len(queries) == 2
    assert "games_gamesnapshot" in queries[0]["sql"]
    tail = GameEvent.objects.filter(game_id=game_id, seq__gt=latest.seq).count()
    assert tail == current.version - latest.seq < current.version


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


def test_an_append_stores_the_events_the_read_model_and_snapshots(started):
    game_id = UUID(started.game_id)
    played = _play_random(game_id, 80, random.Random(3))

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
def test_an_append_refuses_a_version_not_the_streams(started, offset):
    game = Game.objects.get(pk=started.game_id)
    _play_random(game.id, 1, random.Random(1))
    loaded = store.load(game.id)
    stale = store.LoadedGame(store.replay_all(game.id).state, loaded.version)
    before, model = _stream(game.id), _read_model(game.id)

    with pytest.raises(store.ConcurrencyConflict):
        _act_at(game, stale, loaded.version + offset)()

    assert (_stream(game.id), _read_model(game.id)) == (before, model)


def test_an_event_past_the_read_model_is_a_conflict_that_changes_nothing(started):
    # Not something append leaves behind; the unique index still keeps the stream whole.
    game = Game.objects.get(pk=started.game_id)
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


def test_a_conflict_leaves_the_callers_transaction_usable(started):
    game = Game.objects.get(pk=started.game_id)
    loaded = store.load(game.id)
    with transaction.atomic():
        with pytest.raises(store.ConcurrencyConflict):
            _act_at(game, loaded, loaded.version + 5)()
        _act_at(game, loaded, loaded.version)()

    assert _read_model(game.id)["version"] == len(_stream(game.id)) > loaded.version


@pytest.mark.django_db(transaction=True)
def test_a_deadlock_with_an_older_writer_is_a_conflict_that_appends_nothing(started):
    # A writer of the previous release (events first, then the game row) running beside
    # this one (game row first) during a rolling deploy: PostgreSQL breaks the cycle by
    # failing one statement. Ours must answer a conflict, not a server error.
    game = Game.objects.get(pk=started.game_id)
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
