"""The append path chains every event; views and action answers name the chain's head."""

from __future__ import annotations

import pytest

from games import store
from games.audit.chain import GENESIS, Link, first_break
from games.models import GameEvent
from games.store.cache import recent_states
from tests.audit.stored import play_stored, seated_table
from tests.games.helpers import create_table

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def _links(game_id):
    rows = GameEvent.objects.filter(game_id=game_id).order_by("seq")
    return [Link(row.seq, row.type, row.schema_version, row.payload, row.hash) for row in rows]


def test_every_stored_event_is_chained_from_the_first(make_user):
    game_id = seated_table([make_user() for _ in range(4)])
    loaded = play_stored(game_id, 3)
    links = _links(game_id)
    assert len(links) == loaded.version > 100
    assert first_break(links) is None
    assert loaded.head_hash == links[-1].hash
    # however it is loaded: from the cache, a snapshot and a tail, or every event
    recent_states().clear()
    assert store.load(game_id).head_hash == links[-1].hash
    assert store.replay_all(game_id).head_hash == links[-1].hash
    assert store.state_at(game_id, 7).head_hash == links[6].hash


def test_views_and_action_answers_carry_the_version_and_head_hash(auth_client):
    table = create_table([auth_client() for _ in range(4)])
    view = table.view(0)
    hashes = GameEvent.objects.filter(game_id=table.game_id).order_by("seq")
    assert view["head_hash"] == hashes.get(seq=view["version"]).hash
    seat = view["turn"]
    own = table.view(seat)
    answer = table.act(seat, own["legal_actions"][0], own["version"]).json()
    game = answer["game"]
    assert game["head_hash"] == hashes.get(seq=game["version"]).hash != view["head_hash"]
    watcher = auth_client().get(table.url).json()
    assert (watcher["version"], watcher["head_hash"]) == (game["version"], game["head_hash"])


def test_a_table_nobody_played_yet_shows_the_genesis_hash(auth_client):
    client = auth_client()
    created = client.post("/api/v1/games", {"options": {}, "seat": 0}, format="json").json()
    view = client.get(f"/api/v1/games/{created['id']}").json()
    assert (view["version"], view["head_hash"]) == (0, GENESIS)
