"""The hot reads in plain SQL (the table, the events) give what the ORM stores, on
whichever database the suite runs: PostgreSQL, or SQLite when it is missing."""

from __future__ import annotations

import uuid

import pytest
from django.utils import timezone

from games import rules, selectors, services, store
from games.errors import GameNotFoundError
from games.models import BotLevel, Game, GameEvent, GameStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(make_user):
    return [make_user() for _ in range(4)]


def _full_table(players):
    game = services.game_create(user=players[0], options={}, seat=0)
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
        seats=tuple(
            selectors.SeatRow(seat=seat, user_id=user.pk, username=user.username, bot_level=None)
            for seat, user in enumerate(players)
        ),
    )


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
