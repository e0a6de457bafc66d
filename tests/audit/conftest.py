"""Fixtures of the audit tests: four players and a game of theirs played to its end; every
answer the test client receives here is checked against the API's schema."""

from uuid import UUID

import pytest

from accounts.models import User
from games.models import Game
from tests.audit.stored import play_stored, seated_table
from tests.openapi_contract import schema_checked_answers

__all__ = ["schema_checked_answers"]


@pytest.fixture
def players(make_user) -> list[User]:  # type: ignore[no-untyped-def]
    return [make_user() for _ in range(4)]


@pytest.fixture
def finished(players: list[User]) -> UUID:
    game_id = seated_table(players)
    play_stored(game_id, 5)
    assert Game.objects.get(pk=game_id).status == "finished"
    return game_id
