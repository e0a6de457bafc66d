"""Fixtures of the audit tests: four players and a game of theirs played to its end."""

from uuid import UUID

import pytest

from accounts.models import User
from games.models import Game
from tests.audit.stored import play_stored, seated_table


@pytest.fixture
def players(make_user) -> list[User]:  # type: ignore[no-untyped-def]
    return [make_user() for _ in range(4)]


@pytest.fixture
def finished(players: list[User]) -> UUID:
    game_id = seated_table(players)
    play_stored(game_id, 5)
    assert Game.objects.get(pk=game_id).status == "finished"
    return game_id
