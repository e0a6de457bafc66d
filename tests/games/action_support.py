"""What the action tests share: whose turn it is, and the checks of a refused action."""

from __future__ import annotations

from typing import Any

from tests.games.helpers import Table, stored
from tests.games.leaks import assert_no_leak


def turn(table: Table) -> tuple[int, dict[str, Any]]:
    seat = table.view(0)["turn"]
    return seat, table.view(seat)


def assert_refused(
    table: Table,
    seat: int | None,
    response: Any,
    status: int,
    code: str,
    events_before: int,
    sent: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code
    assert response["Content-Type"].startswith("application/problem+json")
    assert len(stored(table.game_id, "seq")) == events_before
    assert_no_leak(table.game_id, seat, body, sent)
    return body
