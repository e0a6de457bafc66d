"""Turn clocks (docs/clocks.md): the deadline is server state shown in every view; the
sweeper plays a due turn for its seat exactly once, and never one a move got to first."""

from __future__ import annotations

import io
import re
from datetime import datetime, timedelta
from uuid import UUID

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import services
from games.models import Game, GameEvent, Seat
from games.services.clocks import GRACE
from tests.games.helpers import Table, create_table, stored
from tests.games.test_races import _all_at_once

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

TIMED = {"turn_seconds": 5, "time_bank_seconds": 60, "absent_after": 2}


def timed_table(auth_client, **options: object) -> Table:
    return create_table([auth_client() for _ in range(4)], {**TIMED, **options})


def row(table: Table) -> Game:
    return Game.objects.get(pk=table.game_id)


def due(table: Table) -> datetime:
    """An instant at which the current turn of `table` is due (its deadline, past the grace)."""
    deadline = row(table).turn_deadline
    assert deadline is not None
    return deadline + GRACE


def test_a_timed_turns_deadline_is_in_every_view_in_utc_with_milliseconds(auth_client):
    table = timed_table(auth_client)
    game = row(table)
    started = GameEvent.objects.filter(game_id=table.game_id).order_by("seq").last()
    assert started is not None
    assert game.turn_deadline == started.created_at + timedelta(seconds=5 + 60)
    to_the_millisecond = game.turn_deadline.replace(
        microsecond=game.turn_deadline.microsecond // 1000 * 1000
    )
    for seat in range(4):
        view = table.view(seat)
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", view["turn_deadline"])
        assert datetime.fromisoformat(view["turn_deadline"]) == to_the_millisecond
        assert view["time_banks_ms"] == [60_000] * 4
        assert view["timeouts"] == [0, 0, 0, 0]
        assert view["absent_seats"] == []


def test_an_untimed_table_has_no_deadline(auth_client):
    table = create_table([auth_client() for _ in range(4)])
    assert row(table).turn_deadline is None
    assert table.view(0)["turn_deadline"] is None
    assert services.due_turns_expire(now=timezone.now() + timedelta(days=365)) == 0


def test_a_turn_is_not_expired_before_its_grace_has_passed(auth_client):
    table = timed_table(auth_client)
    version = row(table).version
    assert services.due_turns_expire(now=due(table) - timedelta(milliseconds=1)) == 0
    assert row(table).version == version


def marks(table: Table) -> list[dict[str, int]]:
    return [event.payload for event in events_of(table, "turn_timed_out")]


def events_of(table: Table, kind: str) -> list[GameEvent]:
    return list(GameEvent.objects.filter(game_id=table.game_id, type=kind).order_by("seq"))


def test_a_due_turn_is_played_for_its_seat_and_marked_as_a_timeout(auth_client):
    table = timed_table(auth_client)
    before = row(table)
    assert services.due_turns_expire(now=due(table)) == 1
    appended = list(GameEvent.objects.filter(game_id=table.game_id, seq__gt=before.version))
    move, mark = appended[0], appended[1]
    assert (mark.type, mark.payload) == ("turn_timed_out", {"seat": before.turn, "consecutive": 1})
    assert move.type == "bid"
    assert move.payload["seat"] == before.turn
    assert {event.actor_kind for event in appended} == {"system"}
    after = row(table)
    assert after.time_banks_ms[before.turn] == 0
    assert table.view(0)["timeouts"][before.turn] == 1
    # the next turn's clock starts from the timeout's time, with that seat's bank (none
    # left if the timed-out seat took and so leads the first trick)
    bank = 0 if after.turn == before.turn else 60_000
    assert after.time_banks_ms[after.turn] == bank
    assert after.turn_deadline == mark.created_at + timedelta(seconds=5, milliseconds=bank)


def test_a_move_that_lands_before_the_deadline_wins_and_the_timeout_does_nothing(auth_client):
    table = timed_table(auth_client)
    game = row(table)
    seat, version, late = game.turn, game.version, due(table)
    view = table.view(seat)
    assert table.act(seat, view["legal_actions"][0], version).status_code == 201
    count = len(stored(table.game_id, "seq"))
    assert not services.turn_time_out(
        game_id=UUID(table.game_id), expected_version=version, now=late
    )
    assert len(stored(table.game_id, "seq")) == count
    assert "turn_timed_out" not in stored(table.game_id, "type")


def test_a_move_inside_the_grace_counts_and_empties_the_bank(auth_client):
    table = timed_table(auth_client)
    game = row(table)
    Game.objects.filter(pk=game.pk).update(
        turn_deadline=timezone.now() - timedelta(milliseconds=500)
    )
    seat = game.turn
    answer = table.act(seat, table.view(seat)["legal_actions"][0], game.version)
    assert answer.status_code == 201
    assert answer.json()["game"]["time_banks_ms"][seat] == 0
    assert sorted(answer.json()["game"]["time_banks_ms"]) == [0, 60_000, 60_000, 60_000]


def until_a_seat_is_absent(table: Table) -> int:
    """Let every turn time out until a seat has timed out `absent_after` times running."""
    for _ in range(12):
        if events_of(table, "seat_absent"):
            break
        assert services.due_turns_expire(now=due(table)) == 1
    (absent,) = events_of(table, "seat_absent")
    return int(absent.payload["seat"])


def test_after_absent_after_timeouts_a_bot_holds_the_seat_until_its_player_returns(
    auth_client,
):
    table = timed_table(auth_client)
    seat = until_a_seat_is_absent(table)
    assert events_of(table, "seat_absent")[0].payload == {"seat": seat, "reason": "timeout"}
    assert [mark["consecutive"] for mark in marks(table) if mark["seat"] == seat] == [1, 2]
    seat_row = Seat.objects.get(game_id=table.game_id, seat=seat)
    assert (seat_row.user is not None, seat_row.bot_level) == (True, "basic")
    view = table.view(seat)
    assert view["absent_seats"] == [seat]
    assert view["hand"]  # the player still sees their own hand

    returned = table.clients[seat].post(f"{table.url}/seats/{seat}/return")
    assert returned.status_code == 200, returned.content
    assert returned.json()["absent_seats"] == []
    assert returned.json()["timeouts"][seat] == 0
    assert stored(table.game_id, "type")[-1] == "seat_returned"
    assert Seat.objects.get(game_id=table.game_id, seat=seat).bot_level is None


def test_an_absent_player_who_acts_is_told_to_return_first(auth_client):
    table = timed_table(auth_client, absent_after=1)
    seat = until_a_seat_is_absent(table)
    for _ in range(12):  # the others play until it is the absent seat's turn: a bot's
        game = row(table)
        if game.turn == seat:
            break
        view = table.view(game.turn)
        assert table.act(game.turn, view["legal_actions"][0], view["version"]).status_code == 201
    game = row(table)
    assert (game.turn, game.turn_deadline) == (seat, None)
    view = table.view(seat)
    answer = table.act(seat, view["legal_actions"][0], view["version"])
    assert (answer.status_code, answer.json()["code"]) == (409, "seat_absent")
    table.clients[seat].post(f"{table.url}/seats/{seat}/return")
    assert row(table).turn_deadline is not None  # a fresh clock for the returned player
    view = table.view(seat)
    assert table.act(seat, view["legal_actions"][0], view["version"]).status_code == 201


def test_leaving_a_running_game_hands_the_seat_to_a_bot_at_once(auth_client):
    table = timed_table(auth_client)
    seat = row(table).turn
    left = table.clients[seat].post(f"{table.url}/seats/{seat}/leave")
    assert left.status_code == 200, left.content
    assert left.json()["absent_seats"] == [seat]
    assert events_of(table, "seat_absent")[0].payload == {"seat": seat, "reason": "left"}
    assert row(table).turn_deadline is None
    # leaving again changes nothing
    count = len(stored(table.game_id, "seq"))
    assert table.clients[seat].post(f"{table.url}/seats/{seat}/leave").status_code == 200
    assert len(stored(table.game_id, "seq")) == count
    version = row(table).version
    assert services.bot_play(game_id=UUID(table.game_id), expected_version=version)
    assert GameEvent.objects.get(game_id=table.game_id, seq=version + 1).payload["seat"] == seat


def test_a_player_leaving_on_someone_elses_turn_leaves_that_clock_alone(auth_client):
    table = timed_table(auth_client)
    game = row(table)
    other = (game.turn + 1) % 4
    assert table.clients[other].post(f"{table.url}/seats/{other}/leave").status_code == 200
    assert row(table).turn_deadline == game.turn_deadline


def test_nobody_leaves_or_returns_to_someone_elses_seat(auth_client):
    table = timed_table(auth_client)
    answer = table.clients[0].post(f"{table.url}/seats/1/leave")
    assert (answer.status_code, answer.json()["code"]) == (403, "not_seated")


def test_two_sweepers_racing_for_one_due_turn_append_one_timeout(auth_client):
    table = timed_table(auth_client)
    now = due(table)
    results = _all_at_once([lambda: services.due_turns_expire(now=now) for _ in range(4)])
    assert sorted(results) == [0, 0, 0, 1]
    assert stored(table.game_id, "type").count("turn_timed_out") == 1
    seqs = stored(table.game_id, "seq")
    assert seqs == list(range(1, len(seqs) + 1))


def test_the_event_that_starts_a_timed_turn_carries_its_deadline(auth_client):
    table = timed_table(auth_client)
    game = row(table)
    seat = game.turn
    answer = table.act(seat, table.view(seat)["legal_actions"][0], game.version).json()
    *earlier, last = answer["events"]
    assert last["turn_deadline"] == answer["game"]["turn_deadline"] is not None
    assert all(event["turn_deadline"] is None for event in earlier)
    feed = table.clients[0].get(f"{table.url}/events", {"after": game.version}).json()
    assert feed["events"][-1]["turn_deadline"] == answer["game"]["turn_deadline"]


def test_the_clock_columns_are_rebuilt_from_the_events(auth_client):
    table = timed_table(auth_client)
    assert services.due_turns_expire(now=due(table)) == 1  # a bank spent whole
    for _ in range(3):  # moves in time, a leave (a bot's turn), a return on one's turn
        game = row(table)
        view = table.view(game.turn)
        assert table.act(game.turn, view["legal_actions"][0], view["version"]).status_code == 201
    leaver = row(table).turn
    table.clients[leaver].post(f"{table.url}/seats/{leaver}/leave")
    assert services.bot_play(game_id=UUID(table.game_id), expected_version=row(table).version)
    while (game := row(table)).turn != leaver:
        view = table.view(game.turn)
        assert table.act(game.turn, view["legal_actions"][0], view["version"]).status_code == 201
    table.clients[leaver].post(f"{table.url}/seats/{leaver}/return")
    assert services.due_turns_expire(now=due(table)) == 1
    kept = Game.objects.values("turn_deadline", "time_banks_ms").get(pk=table.game_id)
    assert 0 in kept["time_banks_ms"]
    assert 60_000 in kept["time_banks_ms"]
    assert kept["turn_deadline"] is not None

    Game.objects.filter(pk=table.game_id).update(turn_deadline=None, time_banks_ms=[1, 2, 3, 4])
    call_command("rebuild_read_model", table.game_id, stdout=io.StringIO())
    assert Game.objects.values("turn_deadline", "time_banks_ms").get(pk=table.game_id) == kept
