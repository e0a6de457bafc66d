"""The read model: the `Game` row's cached columns, derived from the rules' summary of a state.

They are a cache of the events (listing tables, finding bot turns, the feed's cheap
"anything new?" check) and can be rebuilt from the events at any time. Written in plain
SQL: the guarded UPDATE runs in every append (games/store/stream.py says why).
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from django.db import connection

from games import rules
from games.store.records import Progress
from games.store.sql import datetime_param, json_param, uuid_param

_WRITE = """
UPDATE games_game
SET version = %s, status = %s, phase = %s, turn = %s, scores = %s, winner = %s,
    updated_at = %s
WHERE id = %s
"""


def progress_of(state: rules.GameState, version: int) -> Progress:
    """The read model of a game whose state after event `version` is `state`."""
    return Progress(version=version, summary=rules.summary(state))


def write(
    game_id: UUID, progress: Progress, now: datetime, *, from_version: int | None = None
) -> bool:
    """Store `progress` in the game's row; with `from_version`, only if the row is still
    at that version (the optimistic check of an append). Whether the row was written."""
    summary = progress.summary
    params = [
        progress.version,
        summary.status,
        summary.phase,
        summary.turn,
        json_param(list(summary.scores)),
        summary.winner,
        datetime_param(now),
        uuid_param(game_id),
    ]
    query = _WRITE
    if from_version is not None:
        query, params = f"{query} AND version = %s", [*params, from_version]
    with connection.cursor() as cursor:
        cursor.execute(query, params)
        written: int = cursor.rowcount
    return written == 1
