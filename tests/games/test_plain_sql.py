"""The hot path's statements on whichever database the suite runs (PostgreSQL, or SQLite
when it is missing): the plain-SQL reads of the table and the events give what the ORM
stored; the append is one guarded UPDATE and one INSERT, and a lost race a conflict.
Query counts guard them as Zulip's tests do."""

from __future__ import annotations

import uuid

import pytest
from django.db import IntegrityError, connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import rules, selectors, services, store
from games.errors import GameNotFoundError
from games.models import BotLevel, Game, GameEvent, GameStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(make_user):
    return [make_user() for _ in range(4)]


def _full_table(players, **options):
    game = services.game_create(user=players[0], options=options, seat=0)
    for seat in (1, 2, 3):
        services.seat_join(game_id=game.id, user=players[seat], seat=seat)
    return game.id


def test_the_table_read_is_one_statement_of_plain_values(players, django_assert_num_queries):
    game_id = _full_table(players)
    row = Game.objects.get(pk=game_id)

    with django_assert_num_queries(1):
        table = selectors.game_table(game_id)

    assert table == selectors.GameTable(
        id=game_id,
        status=GameStatus.PLAYING,
        version=row.version,
        turn=row.turn,
        options=row.options,
        turn_deadline=row.turn_deadline,
        time_banks_ms=tuple(row.time_banks_ms),
        seats=tuple(
            selectors.SeatRow(seat=seat, user_id=user.pk, username=user.username, bot_level=None)
            for seat, user in enumerate(players)
        ),
        secret_chain=row.secret_chain,
        hand_secrets=row.hand_secrets,
    )


def test_the_table_read_gives_the_turn_clock_as_stored(players):
    game_id = _full_table(players, turn_seconds=30, time_bank_seconds=10)
    row = Game.objects.get(pk=game_id)
    assert row.turn_deadline is not None

    table = selectors.game_table(game_id)

    assert table.turn_deadline == row.turn_deadline
    assert table.turn_deadline.utcoffset() is not None
    assert table.time_banks_ms == (10_000,) * 4 == tuple(row.time_banks_ms)


def test_a_table_nobody_sits_at_is_read_in_the_same_one_statement(
    players, django_assert_num_queries
):
    game = services.game_create(user=players[0], options={}, seat=None)

    with django_assert_num_queries(1):
        table = selectors.game_table(str(game.id))

    assert (table.id, table.status, table.version, table.seats) == (game.id, "waiting", 0, ())


def test_a_bot_seat_has_a_level_and_no_user(players):
    game = services.game_create(user=players[0], options={}, seat=0)
    services.bot_seat(game_id=game.id, user=players[0], seat=2, level=BotLevel.BASIC)

    seats = selectors.game_table(game.id).seats

    assert [(row.seat, row.user_id, row.bot_level) for row in seats] == [
        (0, players[0].pk, None),
        (2, None, BotLevel.BASIC),
    ]


@pytest.mark.parametrize("game_id", [uuid.uuid4(), "not-a-uuid"])
def test_an_unknown_or_malformed_id_is_not_found(game_id, django_assert_num_queries):
    with (
        django_assert_num_queries(0 if game_id == "not-a-uuid" else 1),
        pytest.raises(GameNotFoundError),
    ):
        selectors.game_table(game_id)


def test_the_events_read_gives_what_the_orm_stored(players, django_assert_num_queries):
    game_id = _full_table(players)
    before = timezone.now()
    read = selectors.table_state(game_id)
    seat = read.table.turn
    view, _ = selectors.game_view_for(read, players[seat])
    services.game_act(
        game_id=game_id,
        user=players[seat],
        action=view["legal_actions"][0],
        expected_version=read.loaded.version,
    )
    rows = GameEvent.objects.filter(game_id=game_id).order_by("seq")

    with django_assert_num_queries(1):
        events = store.load_events_after(game_id, 0)

    assert [(e.seq, e.actor_kind, e.created_at) for e in events] == [
        (row.seq, row.actor_kind, row.created_at) for row in rows
    ]
    assert [rules.event_to_dict(e.event) for e in events] == [
        {"type": row.type, "v": row.schema_version, **row.payload} for row in rows
    ]
    assert events[-1].created_at >= before
    assert store.load_events_after(game_id, 1, limit=1) == events[1:2]


def _next_move(game_id, *, offset=0, actor=None):
    """(the state before, a function appending the first legal action at the version
    `offset` past the stream's, the state after)."""
    loaded = store.load(game_id)
    seat = rules.summary(loaded.state).turn
    wire = rules.view(loaded.state, seat)["legal_actions"][0]
    command = rules.PlayerAction(seat, rules.parse_action(wire), bytes(32))
    events = rules.decide(loaded.state, command)
    after = rules.replay(events, loaded.state)

    def append():
        return store.append(
            game_id,
            expected_version=loaded.version + offset,
            events=events,
            actor=actor or store.Actor.system(),
            state_after=after,
        )

    return loaded, append, after


def _stream(game_id):
    rows = GameEvent.objects.filter(game_id=game_id).order_by("seq")
    return list(rows.values_list("seq", "type", "payload"))


def test_an_append_is_one_guarded_update_a_read_of_the_head_and_one_insert(players):
    game_id = _full_table(players)
    loaded, append, after = _next_move(game_id, actor=store.Actor.user(players[0].pk))

    with CaptureQueriesContext(connection) as queries:
        appended = append()

    # inside the test's transaction, so a savepoint; pg_notify only on PostgreSQL
    notify = ["SELECT"] if connection.vendor == "postgresql" else []
    verbs = [query["sql"].split()[0] for query in queries]
    # the SELECT after the UPDATE reads the previous link of the hash chain (docs/audit.md)
    assert verbs == ["SAVEPOINT", "UPDATE", "SELECT", "INSERT", *notify, "RELEASE"]
    row = Game.objects.get(pk=game_id)
    summary = rules.summary(after)
    assert (row.version, row.status, row.phase, row.turn, row.scores, row.winner) == (
        loaded.version + len(appended.events),
        summary.status,
        summary.phase,
        summary.turn,
        list(summary.scores),
        summary.winner,
    )
    assert store.load_events_after(game_id, loaded.version) == list(appended.events)
    actors = GameEvent.objects.filter(game_id=game_id, seq__gt=loaded.version)
    assert set(actors.values_list("actor_kind", "actor_user_id")) == {("user", players[0].pk)}


@pytest.mark.parametrize("offset", [-1, 1])
def test_an_append_off_the_read_models_version_conflicts(players, offset):
    game_id = _full_table(players)
    loaded, append, _ = _next_move(game_id, offset=offset)
    before = _stream(game_id)

    with pytest.raises(store.ConcurrencyConflict):
        append()

    assert _stream(game_id) == before
    assert Game.objects.get(pk=game_id).version == loaded.version


def test_a_taken_seq_is_a_conflict_by_the_drivers_diagnostics(players):
    # The read model lagging behind the events: the guarded UPDATE passes, the unique
    # (game, seq) index refuses the INSERT, on either database.
    game_id = _full_table(players)
    loaded, append, _ = _next_move(game_id)
    GameEvent.objects.create(
        game_id=game_id,
        seq=loaded.version + 1,
        type="forged",
        schema_version=1,
        payload={},
        actor_kind="system",
    )
    before = _stream(game_id)

    with pytest.raises(store.ConcurrencyConflict) as conflict:
        append()

    assert isinstance(conflict.value.__cause__, IntegrityError)
    assert _stream(game_id) == before
    assert Game.objects.get(pk=game_id).version == loaded.version
