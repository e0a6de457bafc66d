"""Who plays a seat: timeouts, and seats a bot holds for an absent player (docs/clocks.md).

The rules have no clock: the service says a seat's time ran out by deciding the move it
plays for the seat with `PlayerAction(timed_out=True)`. What follows is a rule, so it
is decided here: the timeout is counted, and the seat goes to a bot after the table's
`absent_after` consecutive ones.
"""

from __future__ import annotations

from games.rules.commands import LeaveSeat, ReturnSeat
from games.rules.errors import RuleError
from games.rules.events import Event, GameFinished, SeatAbsent, SeatReturned, TurnTimedOut
from games.rules.state import FINISHED, WAITING, GameState


def timed_out(state: GameState, seat: int, move: tuple[Event, ...]) -> tuple[Event, ...]:
    """`move` (the events of the seat's action, its own event first) marked as a timeout.

    The mark follows the seat's own event, whose fold clears the count, and records the
    new count; a bot takes the seat when the count reaches `absent_after`.
    """
    if state.absent[seat]:
        raise RuleError("seat_absent", "a bot plays this seat: it has no clock")
    consecutive = state.timeouts[seat] + 1
    marked = (move[0], TurnTimedOut(seat, consecutive), *move[1:])
    game_over = any(isinstance(event, GameFinished) for event in move)
    if consecutive >= state.options.absent_after and not game_over:
        return (*marked, SeatAbsent(seat, "timeout"))
    return marked


def decide_presence(state: GameState, command: LeaveSeat | ReturnSeat) -> tuple[Event, ...]:
    """A player leaves a running game (a bot plays on) or takes their seat back."""
    seat = command.seat
    if type(seat) is not int or not 0 <= seat < 4:
        raise RuleError("invalid_action", "seats are 0 to 3")
    if state.phase == WAITING:
        raise RuleError("wrong_phase", "the game has not started")
    if state.phase == FINISHED:
        raise RuleError("game_over", "the game is over")
    if isinstance(command, LeaveSeat):
        if state.absent[seat]:
            raise RuleError("seat_absent", "a bot already plays this seat")
        return (SeatAbsent(seat, "left"),)
    if not state.absent[seat]:
        raise RuleError("seat_present", "the seat's player already plays it")
    return (SeatReturned(seat),)
