"""Every answer the test client receives here is checked against the API's schema; and
the fixtures several games test modules share."""

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from tests.games.helpers import Table, create_table
from tests.openapi_contract import schema_checked_answers

__all__ = ["schema_checked_answers"]


@pytest.fixture
def table(auth_client: Callable[[], APIClient]) -> Table:
    """A started game of four signed-in players (game_started + hand_dealt stored)."""
    return create_table([auth_client() for _ in range(4)])
