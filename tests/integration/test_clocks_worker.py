"""Turn clocks with a real Celery worker (docs/clocks.md): the bots play through the worker,
a timed player's turns time out, a bot holds their seat, and they take it back.

The sweeper is driven with a fixed `now` where the test needs a timeout at a given moment;
the last test lets the worker's embedded beat run it, as production does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from uuid import UUID

import pytest

from games import services
from games.models import Game, GameEvent
from games.services.clocks import GRACE
from tests.games.helpers import GAMES
from tests.integration.test_celery_round_trip import (  # noqa: F401 (fixtures)
    beat_worker_process,
    worker_process,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True), pytest.mark.slow]

WAIT_SECONDS = 90
OPTIONS = {"target": 1000, "turn_seconds": 5, "absent_after": 2}


def table_with_three_bots(client) -> UUID:
    created = client.post(GAMES, {"seat": 0, "options": OPTIONS}, format="json").json()
    for seat in (1, 2, 3):
        client.post(
            f"{GAMES}/{created['id']}/bots", {"seat": seat, "level": "basic"}, format="json"
        )
    return UUID(created["id"])


def wait_for(found: Callable[[], bool]) -> None:
    """Poll the database while the worker plays; fail if nothing comes in time."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not found():
        assert time.monotonic() < deadline, "the worker did not get there in time"
        time.sleep(0.05)


def players_turn(game_id: UUID) -> Callable[[], bool]:
    def found() -> bool:
        game = Game.objects.get(pk=game_id)
        return game.turn == 0 and game.turn_deadline is not None

    return found


def time_out_seat_0(game_id: UUID) -> None:
    wait_for(players_turn(game_id))
    deadline = Game.objects.get(pk=game_id).turn_deadline
    assert deadline is not None
    assert services.due_turns_expire(now=deadline + GRACE) == 1


def of_type(game_id: UUID, kind: str) -> list[GameEvent]:
    return list(GameEvent.objects.filter(game_id=game_id, type=kind).order_by("seq"))


@pytest.mark.usefixtures("worker_process")
def test_a_timed_out_player_gives_way_to_a_bot_and_takes_the_seat_back(auth_client):
    player = auth_client()
    game_id = table_with_three_bots(player)
    url = f"{GAMES}/{game_id}"

    time_out_seat_0(game_id)
    (mark,) = of_type(game_id, "turn_timed_out")
    assert (mark.payload, mark.actor_kind) == ({"seat": 0, "consecutive": 1}, "system")
    time_out_seat_0(game_id)
    (absent,) = of_type(game_id, "seat_absent")
    assert absent.payload == {"seat": 0, "reason": "timeout"}

    # the worker now plays seat 0 as a bot
    def bot_played_seat_0() -> bool:
        return GameEvent.objects.filter(
            game_id=game_id, seq__gt=absent.seq, actor_kind="bot", payload__seat=0
        ).exists()

    wait_for(bot_played_seat_0)
    assert player.post(f"{url}/seats/0/return").status_code == 200
    wait_for(players_turn(game_id))
    view = player.get(url).json()
    answer = player.post(
        f"{url}/actions",
        {"action": view["legal_actions"][0], "expected_version": view["version"]},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    mine = GameEvent.objects.get(game_id=game_id, seq=view["version"] + 1)
    assert (mine.actor_kind, mine.payload["seat"]) == ("user", 0)
    assert len(of_type(game_id, "turn_timed_out")) == 2
    seqs = list(GameEvent.objects.filter(game_id=game_id).values_list("seq", flat=True))
    assert sorted(seqs) == list(range(1, len(seqs) + 1))


def first_timeout_of_seat_0(player) -> GameEvent:
    """A table where seat 0 never plays: its first timeout, once the worker played it."""
    game_id = table_with_three_bots(player)
    wait_for(lambda: bool(of_type(game_id, "turn_timed_out")))
    mark = of_type(game_id, "turn_timed_out")[0]
    assert (mark.payload["seat"], mark.actor_kind) == (0, "system")
    return mark


@pytest.mark.usefixtures("beat_worker_process")
def test_the_workers_beat_times_out_a_player_who_does_not_play(auth_client):
    mark = first_timeout_of_seat_0(auth_client())
    move = GameEvent.objects.get(game_id=mark.game_id, seq=mark.seq - 1)
    assert (move.payload["seat"], move.actor_kind) == (0, "system")


@pytest.mark.usefixtures("worker_process")
def test_a_game_with_no_player_left_is_played_to_its_end_by_the_bots(auth_client):
    player = auth_client()
    created = player.post(GAMES, {"seat": 0, "options": {"target": 1}}, format="json").json()
    game_id = UUID(created["id"])
    for seat in (1, 2, 3):
        player.post(f"{GAMES}/{game_id}/bots", {"seat": seat, "level": "basic"}, format="json")
    assert player.post(f"{GAMES}/{game_id}/seats/0/leave").status_code == 200

    wait_for(lambda: Game.objects.get(pk=game_id).status == "finished")
    (finished,) = of_type(game_id, "game_finished")
    assert GameEvent.objects.filter(game_id=game_id, seq__gt=finished.seq).count() == 0
    notices = player.get("/api/v1/me/events").json()["notices"]
    assert [notice["type"] for notice in notices if notice["type"] != "your_turn"] == [
        "game_started",
        "seat_absent",
        "game_finished",
    ]
    seqs = list(GameEvent.objects.filter(game_id=game_id).values_list("seq", flat=True))
    assert sorted(seqs) == list(range(1, len(seqs) + 1))


@pytest.mark.usefixtures("worker_process")
def test_with_no_beat_a_due_turn_is_timed_out_by_its_hint_task(auth_client):
    # The worker runs no beat here, so no sweeper: only the task queued with the turn's
    # deadline as its ETA can play it (docs/clocks.md, "Exactly once").
    mark = first_timeout_of_seat_0(auth_client())
    started = GameEvent.objects.get(game_id=mark.game_id, seq=mark.seq - 2)
    assert started.turn_deadline is not None
    assert mark.created_at >= started.turn_deadline + GRACE
