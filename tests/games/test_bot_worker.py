"""Bots play through a real Celery worker: queued after commit, one task per bot turn."""

from __future__ import annotations

import random
import time

import pytest

from games.models import Game
from tests.games.helpers import GAMES, stored
from tests.integration.test_celery_round_trip import worker_process  # noqa: F401 (fixture)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

DEADLINE_SECONDS = 90


@pytest.mark.slow
@pytest.mark.usefixtures("worker_process")
def test_a_player_and_three_bots_finish_a_game_through_the_worker(auth_client):
    player = auth_client()
    created = player.post(GAMES, {"seat": 0, "options": {"target": 1}}, format="json").json()
    url = f"{GAMES}/{created['id']}"
    for seat, level in ((1, "random"), (2, "basic"), (3, "random")):
        player.post(f"{url}/bots", {"seat": seat, "level": level}, format="json")
    rng = random.Random(13)
    deadline = time.monotonic() + DEADLINE_SECONDS
    while time.monotonic() < deadline:
        view = player.get(url).json()
        if view["status"] == "finished":
            break
        if view["legal_actions"]:
            player.post(
                f"{url}/actions",
                {"action": rng.choice(view["legal_actions"]), "expected_version": view["version"]},
                format="json",
            )
        else:
            time.sleep(0.05)
    assert Game.objects.get(pk=created["id"]).status == "finished"
    assert {"bot", "user", "system"} == set(stored(created["id"], "actor_kind"))
    assert stored(created["id"], "seq") == list(range(1, len(stored(created["id"], "seq")) + 1))
