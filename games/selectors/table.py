"""The read behind every game request: a game's row and its seats with their occupants.

One hand-written SQL statement returning plain frozen values, not the ORM: compiling the
ORM's three-table join cost more than the rest of the read (bench/floor_bench.py, the
figures in docs/deploy.md). Works on PostgreSQL and on SQLite alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from django.core.exceptions import ValidationError
from django.db import connection

from games import store
from games.errors import GameNotFoundError
from games.store.sql import datetime_column, json_column, uuid_param

# LEFT JOINs: a table nobody sits at yet still has its one row, with NULL seat columns.
_TABLE = """
SELECT game.status, game.version, game.turn, game.options,
       game.turn_deadline, game.time_banks_ms, game.hand_secrets, game.secret_chain,
       game.deal_sealed,
       seat.seat, seat.user_id, occupant.username, seat.bot_level, seat.client_seed
FROM games_game AS game
LEFT JOIN games_seat AS seat ON seat.game_id = game.id
LEFT JOIN accounts_user AS occupant ON occupant.id = seat.user_id
WHERE game.id = %s
ORDER BY seat.seat
"""


@dataclass(frozen=True)
class SeatRow:
    """A taken seat: a user (with the name they go by) or a bot of some level."""

    seat: int
    user_id: int | None
    username: str | None
    bot_level: str | None
    #: the seat's contribution to every deal (docs/fairness.md): public
    client_seed: str = ""


@dataclass(frozen=True)
class GameTable:
    """A game's read model (games/store/projection.py), its turn clock (docs/clocks.md)
    and its taken seats, by number."""

    id: UUID
    status: str
    version: int
    turn: int | None
    options: Mapping[str, Any]
    #: when the service plays the turn for its seat; None when no clock runs
    turn_deadline: datetime | None
    #: each seat's time bank left, in ms; empty until a started game's first append
    time_banks_ms: tuple[int, ...]
    seats: tuple[SeatRow, ...]
    #: the published commitment to the table's hand secrets (docs/fairness.md)
    secret_chain: str = ""
    #: the secret end of that chain: for the services' deals only, never in an answer
    hand_secrets: str = field(default="", repr=False)
    #: a board whose deal is not released yet: its log is not published (docs/fairness.md)
    deal_sealed: bool = False

    @property
    def log_published(self) -> bool:
        """Whether the game's log (every seed in it) is anyone's: once it has ended, and
        for a board once its deal is released."""
        return self.status == "finished" and not self.deal_sealed


@dataclass(frozen=True)
class TableState:
    """A game's table and its current state, as one request read them."""

    table: GameTable
    loaded: store.LoadedGame


def game_table(game_id: UUID | str) -> GameTable:
    """The game and its seats; GameNotFoundError."""
    try:
        key = uuid_param(game_id)
    except ValidationError as error:
        raise GameNotFoundError() from error
    with connection.cursor() as cursor:
        cursor.execute(_TABLE, [key])
        rows = cursor.fetchall()
    if not rows:
        raise GameNotFoundError()
    status, version, turn, options, deadline, banks, hand_secrets, secret_chain = rows[0][:8]
    return GameTable(
        id=UUID(str(game_id)),
        status=status,
        version=version,
        turn=turn,
        options=json_column(options),
        turn_deadline=None if deadline is None else datetime_column(deadline),
        time_banks_ms=tuple(json_column(banks)),
        seats=tuple(
            SeatRow(
                seat=seat,
                user_id=user_id,
                username=username,
                bot_level=bot_level,
                client_seed=client_seed,
            )
            for *_, seat, user_id, username, bot_level, client_seed in rows
            if seat is not None
        ),
        secret_chain=secret_chain,
        hand_secrets=hand_secrets,
        deal_sealed=rows[0][8],
    )


def table_state(game_id: UUID | str) -> TableState:
    """The game, its seats and its current state; GameNotFoundError."""
    table = game_table(game_id)
    return TableState(table=table, loaded=store.load(table.id))
