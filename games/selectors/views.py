"""A game as one viewer may see it: the viewer's seat, the view, and the view's ETag."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from accounts.models import User
from games import rules, store
from games.models import GameStatus
from games.selectors.table import GameTable, SeatRow, TableState

SEAT_COUNT = 4


def seat_of(table: GameTable, user: User) -> int | None:
    """The viewer's seat, or None for a spectator."""
    return next((row.seat for row in table.seats if row.user_id == user.pk), None)


def seats_summary(seats: Iterable[SeatRow]) -> list[dict[str, Any]]:
    """All four seats: who sits there (a username, a bot level, or nobody)."""
    by_number = {row.seat: row for row in seats}
    summary = []
    for number in range(SEAT_COUNT):
        row = by_number.get(number)
        summary.append(
            {
                "seat": number,
                "username": row.username if row else None,
                "bot_level": row.bot_level if row else None,
            }
        )
    return summary


def deadline_text(deadline: datetime | None) -> str | None:
    """ISO 8601 in UTC with milliseconds (`2026-12-01T10:00:05.250Z`), as views show it."""
    if deadline is None:
        return None
    return deadline.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def clock_view(table: GameTable) -> dict[str, Any]:
    """The turn clock of the table (docs/clocks.md): its deadline and every seat's bank."""
    full_bank = int(table.options.get("time_bank_seconds", 0)) * 1000
    return {
        "turn_deadline": deadline_text(table.turn_deadline),
        "time_banks_ms": list(table.time_banks_ms) or [full_bank] * SEAT_COUNT,
    }


def view_etag(table: GameTable) -> str:
    """The version, quoted; while seats still change (no event yet) a digest of them too."""
    if table.status != GameStatus.WAITING:
        return f'"{table.version}"'
    layout = ",".join(f"{row.seat}:{row.user_id}:{row.bot_level}" for row in table.seats)
    return f'"{table.version}-{hashlib.sha256(layout.encode()).hexdigest()[:12]}"'


def fairness_view(table: GameTable) -> dict[str, Any]:
    """What the table committed to and each seat contributes (docs/fairness.md): public,
    from the table's creation on, before any hand is dealt."""
    by_number = {row.seat: row.client_seed for row in table.seats}
    return {
        "secret_chain": table.secret_chain,
        "client_seeds": [by_number.get(number) for number in range(SEAT_COUNT)],
    }


def game_view(*, table: GameTable, loaded: store.LoadedGame, seat: int | None) -> dict[str, Any]:
    """rules.view for `seat` (None: a spectator; legal_actions included) plus id, version,
    the head of the hash chain (a receipt: docs/audit.md), seats and the turn clock."""
    return {**state_view(table=table, loaded=loaded, seat=seat), **clock_view(table)}


def state_view(*, table: GameTable, loaded: store.LoadedGame, seat: int | None) -> dict[str, Any]:
    """`game_view` without the turn clock: the game as of `loaded`, which may be a past
    state (the replay, games/selectors/audit.py)."""
    body = rules.view(loaded.state, seat)
    body.update(
        id=str(table.id),
        version=loaded.version,
        head_hash=loaded.head_hash,
        seat=seat,
        seats=seats_summary(table.seats),
        # Before game_started the state holds default options, not the table's.
        options=dict(table.options),
        fairness=fairness_view(table),
    )
    return body


def game_view_for(read: TableState, user: User) -> tuple[dict[str, Any], str]:
    """The game as `user` may see it (seated or spectator) and that view's ETag."""
    seat = seat_of(read.table, user)
    view = game_view(table=read.table, loaded=read.loaded, seat=seat)
    return view, view_etag(read.table)
