"""The append transaction notifies listeners, and PostgreSQL delivers only on commit."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection

from games.models import Seat
from games.store.stream import NOTIFY_CHANNEL
from tests.games.helpers import create_table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_a_committed_action_notifies_and_a_refused_one_does_not(auth_client):
    table = create_table([auth_client() for _ in range(4)])
    seat = table.view(0)["turn"]
    view = table.view(seat)
    params = connection.get_connection_params()
    with psycopg.connect(**params, autocommit=True) as listener:
        listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
        refused = table.act(seat, {"type": "fold"}, view["version"])
        assert refused.status_code == 422
        assert list(listener.notifies(timeout=0.5)) == []
        assert table.act(seat, {"type": "pass"}, view["version"]).status_code == 201
        notes = list(listener.notifies(timeout=5, stop_after=2))
    # the game's, then the next player's own feed's ("your turn", docs/feed.md)
    game, player = (note.payload for note in notes)
    assert game == f"{table.game_id}:{view['version'] + 1}"
    following = Seat.objects.get(game_id=table.game_id, seat=(seat + 1) % 4).user_id
    assert player == f"player-{following}:2"
