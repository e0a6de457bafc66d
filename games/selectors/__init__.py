"""Reads: a table as one request reads it, a game as one viewer may see it, lists of tables.

- `table`: the game's row and seats in one hand-written SQL statement, plain values;
- `views`: the viewer's seat, their view of the game and its ETag;
- `lists`: the table list, from the read model;
- `audit`: a game's log, its readable record, its audit and its state as of any event
  (docs/audit.md).
"""

from games.selectors.audit import (
    game_audit,
    game_log,
    game_record_text,
    game_replay,
    stored_audit,
    stored_log,
)
from games.selectors.lists import game_list, game_summary
from games.selectors.table import GameTable, SeatRow, TableState, game_table, table_state
from games.selectors.views import (
    SEAT_COUNT,
    clock_view,
    deadline_text,
    game_view,
    game_view_for,
    seat_of,
    seats_summary,
    view_etag,
)

__all__ = [
    "SEAT_COUNT",
    "GameTable",
    "SeatRow",
    "TableState",
    "clock_view",
    "deadline_text",
    "game_audit",
    "game_list",
    "game_log",
    "game_record_text",
    "game_replay",
    "game_summary",
    "game_table",
    "game_view",
    "game_view_for",
    "seat_of",
    "seats_summary",
    "stored_audit",
    "stored_log",
    "table_state",
    "view_etag",
]
