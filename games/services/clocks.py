"""Turn clocks: the deadline of the turn and each seat's time bank (docs/clocks.md).

The rules have no clock, so the services keep it: every append computes, from the time
it stamps on its events, when the service will play the new turn for its seat, and
writes that deadline and the banks to the `Game` row in the same conditional update as
the events (`store.append(read_model=...)`). Views read them from there, so every
client shows the same clock and none guesses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from games import rules
from games.models import Game, GameStatus, Seat

#: how long after its deadline a turn is expired: a move sent just in time still
#: arrives first over a slow network
GRACE = timedelta(seconds=1)
COLUMNS = ("turn_deadline", "time_banks_ms")
SEAT_COUNT = 4


@dataclass(frozen=True)
class Clock:
    """When the turn's seat is played for (None: no clock runs), and the banks (ms)."""

    deadline: datetime | None
    banks_ms: tuple[int, ...]

    def columns(self) -> dict[str, Any]:
        """The `Game` columns of this clock, as `store.append(read_model=...)` takes them."""
        return {"turn_deadline": self.deadline, "time_banks_ms": list(self.banks_ms)}

    def stamp(self, game: Game) -> None:
        """Keep an instance read before the append in step with the row it wrote."""
        game.turn_deadline = self.deadline
        game.time_banks_ms = list(self.banks_ms)


def clock_after(
    *,
    game: Game,
    seats: Sequence[Seat],
    state_after: rules.GameState,
    moved: bool,
    now: datetime,
) -> Clock:
    """The clock once an append stamped `now` leaves the game in `state_after`.

    `game` holds the clock before the append. `moved`: the append is a seat's move, which
    spends the part of the mover's bank its turn overran and starts the next turn's clock;
    any other append (a seat left or came back) leaves a running clock alone.
    """
    options = rules.Options.from_record(game.options)
    # empty until the first append of a started game: every seat's bank is full
    banks = list(game.time_banks_ms) or [options.time_bank_seconds * 1000] * SEAT_COUNT
    before, mover = game.turn_deadline, game.turn
    if moved and before is not None and mover is not None:
        left_ms = int((before - now) / timedelta(milliseconds=1))
        banks[mover] = max(0, min(banks[mover], left_ms))
    progress = rules.summary(state_after)
    turn = progress.turn
    if (
        options.turn_seconds is None
        or progress.status != GameStatus.PLAYING
        or turn is None
        or not _played_by_its_player(seats, state_after, turn)
    ):
        return Clock(deadline=None, banks_ms=tuple(banks))
    if not moved and turn == mover and before is not None:
        return Clock(deadline=before, banks_ms=tuple(banks))
    allowed = timedelta(seconds=options.turn_seconds, milliseconds=banks[turn])
    return Clock(deadline=now + allowed, banks_ms=tuple(banks))


def _played_by_its_player(seats: Sequence[Seat], state: rules.GameState, seat: int) -> bool:
    row = next((row for row in seats if row.seat == seat), None)
    return row is not None and row.user_id is not None and not state.absent[seat]
