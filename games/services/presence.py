"""A player leaves a running game (a bot plays on for them) or takes their seat back.

Both are events (`seat_absent` with reason `left`, `seat_returned`), appended at the
current version like any command; a bot may be appending at the same time, so a lost
race is simply decided again. Asking for what already holds (leaving a seat a bot
already plays, returning to a seat one plays) changes nothing and answers the view.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.utils.translation import gettext as _

from accounts.models import User
from games import rules, selectors, store
from games.errors import GameNotStartedError, GameOverError, NotSeatedError, VersionConflictError
from games.models import GameStatus
from games.services.play import commit

#: tries against bots appending meanwhile; each lost race means the game moved on
ATTEMPTS = 5


def seat_absent_set(*, game_id: UUID, user: User, seat: int, absent: bool) -> dict[str, Any]:
    """`user` leaves their `seat` to a bot (`absent`) or takes it back; their new view.

    Takes effect at once: a bot that was to play the seat's turn plays it; a player who
    returns on their turn has a fresh clock for it.
    """
    for attempt in range(ATTEMPTS):
        table = selectors.table_state(game_id)
        row = next((row for row in table.seats if row.seat == seat), None)
        if row is None or row.user_id != user.pk:
            raise NotSeatedError(_("That seat is not yours."))
        state = table.loaded.state
        status = rules.summary(state).status
        if status == GameStatus.WAITING:
            raise GameNotStartedError(_("Before the start, leave with DELETE on the seat."))
        if status == GameStatus.FINISHED:
            raise GameOverError()
        if state.absent[seat] == absent:
            return selectors.game_view(
                game=table.game, seats=table.seats, loaded=table.loaded, seat=seat
            )
        command = rules.LeaveSeat(seat) if absent else rules.ReturnSeat(seat)
        events = rules.decide(state, command)
        actor = store.Actor.user(int(user.pk))
        try:
            result = commit(
                table.game, table.seats, seat, table.loaded, events, actor=actor, moved=False
            )
        except VersionConflictError:
            if attempt == ATTEMPTS - 1:
                raise
            continue
        return result.view
    raise AssertionError("unreachable: the last attempt returns or raises")
