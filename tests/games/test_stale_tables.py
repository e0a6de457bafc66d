"""Tables that never fill are closed (docs/clocks.md, "Tables that never fill"): once
nobody has sat down for WAITING_TABLE_HOURS, exactly once, never a table that started."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.models import Game, Seat
from tests.games.helpers import GAMES, create_table, stored
from tests.games.test_races import _all_at_once

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

HOURS = 24


@pytest.fixture(autouse=True)
def _waiting_hours(settings: Any) -> None:
    settings.WAITING_TABLE_HOURS = HOURS


def waiting_table(client: Any, *, idle: timedelta) -> str:
    """A table with its creator seated, created and last joined `idle` ago."""
    game_id: str = client.post(GAMES, {"seat": 0, "options": {}}, format="json").json()["id"]
    then = timezone.now() - idle
    Game.objects.filter(pk=game_id).update(created_at=then)
    Seat.objects.filter(game_id=game_id).update(joined_at=then)
    return game_id


def test_a_table_nobody_joined_in_time_is_closed_by_an_event(auth_client):
    creator = auth_client()
    game_id = waiting_table(creator, idle=timedelta(hours=HOURS, minutes=1))

    assert services.stale_tables_close() == 1

    assert stored(game_id, "type") == ["table_closed"]
    assert stored(game_id, "payload") == [{"reason": "never_filled"}]
    assert stored(game_id, "actor_kind") == ["system"]
    view = creator.get(f"{GAMES}/{game_id}").json()
    assert (view["status"], view["phase"], view["winner"]) == ("finished", "finished", None)
    (notice,) = creator.get("/api/v1/me/events").json()["notices"]
    assert (notice["type"], notice["reason"], notice["game_id"]) == (
        "table_closed",
        "never_filled",
        game_id,
    )
    late = auth_client().post(f"{GAMES}/{game_id}/seats", {}, format="json")
    assert (late.status_code, late.json()["code"]) == (409, "table_closed")
    assert services.stale_tables_close() == 0


def test_a_table_someone_joined_lately_stays_open(auth_client):
    game_id = waiting_table(auth_client(), idle=timedelta(hours=HOURS + 5))
    joined = auth_client().post(f"{GAMES}/{game_id}/seats", {}, format="json")
    assert joined.status_code == 201
    young = waiting_table(auth_client(), idle=timedelta(hours=HOURS - 1))

    assert services.stale_tables_close() == 0
    assert stored(game_id, "type") == stored(young, "type") == []
    later = timezone.now() + timedelta(hours=HOURS, minutes=1)
    assert services.stale_tables_close(now=later) == 2


def test_a_game_that_started_is_never_closed(auth_client):
    table = create_table([auth_client() for _ in range(4)])
    Game.objects.filter(pk=table.game_id).update(created_at=timezone.now() - timedelta(days=9))
    version = Game.objects.get(pk=table.game_id).version
    assert services.stale_tables_close() == 0
    assert Game.objects.get(pk=table.game_id).version == version
    assert "table_closed" not in stored(table.game_id, "type")


def test_two_sweeps_at_once_close_a_table_once(auth_client):
    games = [waiting_table(auth_client(), idle=timedelta(days=2)) for _ in range(3)]
    closed = _all_at_once([services.stale_tables_close for _ in range(4)])
    assert sum(closed) == 3
    for game_id in games:
        assert stored(game_id, "type") == ["table_closed"]
