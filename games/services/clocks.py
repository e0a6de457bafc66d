"""Turn clocks: the deadline of the turn and each seat's time bank (docs/clocks.md).

The rules have no clock, so the services keep it: every append computes, from the time
it stamps on its events, when the service will play the new turn for its seat, and
writes that deadline and the banks to the `Game` row in the same conditional update as
the events (`store.append(read_model=...)`). Views read them from there, so every
client shows the same clock and none guesses it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import pairwise
from typing import Any

from celery import current_app
from django.db import transaction

from games import rules, selectors, store
from games.models import GameStatus
from games.rules.events import Bid, CardPlayed, Declared

#: how long after its deadline a turn is expired: a move sent just in time still
#: arrives first over a slow network
GRACE = timedelta(seconds=1)
SEAT_COUNT = 4
#: The Celery task that times out one turn when it is due (games/tasks.py): a hint, so
#: that a timeout lands at its moment rather than at the sweeper's next tick.
EXPIRE_TURN_TASK = "games.tasks.expire_turn"
#: Turns due further out get no hint, only the sweeper: a message held this long by a
#: worker could be handed out again by the broker (Redis's visibility timeout is an hour).
HINT_HORIZON = timedelta(minutes=15)


@dataclass(frozen=True)
class Clock:
    """When the turn's seat is played for (None: no clock runs), and the banks (ms)."""

    deadline: datetime | None
    banks_ms: tuple[int, ...]

    def columns(self) -> dict[str, Any]:
        """The `Game` columns of this clock, as `store.append(read_model=...)` takes them."""
        return {"turn_deadline": self.deadline, "time_banks_ms": list(self.banks_ms)}


def clock_after(
    *,
    table: selectors.GameTable,
    state_after: rules.GameState,
    moved: bool,
    now: datetime,
) -> Clock:
    """The clock once an append stamped `now` leaves the game in `state_after`.

    `table` holds the clock before the append. `moved`: the append is a seat's move, which
    spends the part of the mover's bank its turn overran and starts the next turn's clock;
    any other append (a seat left or came back) leaves a running clock alone.
    """
    options = rules.Options.from_record(table.options)
    # empty until the first append of a started game: every seat's bank is full
    banks = list(table.time_banks_ms) or [options.time_bank_seconds * 1000] * SEAT_COUNT
    before, mover = table.turn_deadline, table.turn
    if moved and before is not None and mover is not None:
        left_ms = int((before - now) / timedelta(milliseconds=1))
        banks[mover] = max(0, min(banks[mover], left_ms))
    progress = rules.summary(state_after)
    turn = progress.turn
    if (
        options.turn_seconds is None
        or progress.status != GameStatus.PLAYING
        or turn is None
        or not _played_by_its_player(table.seats, state_after, turn)
    ):
        return Clock(deadline=None, banks_ms=tuple(banks))
    if not moved and turn == mover and before is not None:
        return Clock(deadline=before, banks_ms=tuple(banks))
    allowed = timedelta(seconds=options.turn_seconds, milliseconds=banks[turn])
    return Clock(deadline=now + allowed, banks_ms=tuple(banks))


def _played_by_its_player(
    seats: Sequence[selectors.SeatRow], state: rules.GameState, seat: int
) -> bool:
    row = next((row for row in seats if row.seat == seat), None)
    return row is not None and row.user_id is not None and not state.absent[seat]


def clock_replayed(options: Mapping[str, Any], stream: Sequence[store.StoredEvent]) -> Clock:
    """The clock the appends of `stream` (all of a game's events, in order) left, from
    the events alone: what `clock_after` wrote, for rebuilding the read model.

    The last event of every append carries the deadline it set, so the game's is the
    last event's. A move spends its seat's bank against the deadline stamped on the
    event before it: only the last event of an append has one, so an event following
    a deadline starts an append, and when that append is a seat's move (its first event
    is the seat's bid, declaration or card) it is the turn the deadline timed.
    """
    if not stream:
        return Clock(deadline=None, banks_ms=())  # not started: no bank yet
    bank_ms = rules.Options.from_record(options).time_bank_seconds * 1000
    banks = [bank_ms] * SEAT_COUNT
    for before, stored in pairwise(stream):
        if before.turn_deadline is None or not isinstance(stored.event, _OWN_MOVES):
            continue
        seat = stored.event.seat
        left_ms = int((before.turn_deadline - stored.created_at) / timedelta(milliseconds=1))
        banks[seat] = max(0, min(banks[seat], left_ms))
    return Clock(deadline=stream[-1].turn_deadline, banks_ms=tuple(banks))


#: the events that open a seat's move (docs/clocks.md: bidding, declaring, playing)
_OWN_MOVES = (Bid, Declared, CardPlayed)


def expiry_hint(game_id: Any, version: int, deadline: datetime | None, now: datetime) -> None:
    """After commit, ask for the turn that starts at `version` to be timed out when it is
    due (`deadline` + the grace), by a task with an ETA. Only a hint: the sweeper does it
    anyway if the message is lost, and the task does nothing if the game moved on or the
    turn is not due yet (`turn_time_out`); a redelivered one, likewise."""
    if deadline is None or deadline + GRACE - now > HINT_HORIZON:
        return

    def enqueue() -> None:
        current_app.send_task(EXPIRE_TURN_TASK, args=(str(game_id), version), eta=deadline + GRACE)

    transaction.on_commit(enqueue, robust=True)
