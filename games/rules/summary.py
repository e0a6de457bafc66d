"""A game's public progress in a few fields: what a table list or a read model shows."""

from __future__ import annotations

from dataclasses import dataclass

from games.rules.state import FINISHED, HAND_OVER, NO_SEAT, WAITING, GameState


@dataclass(frozen=True)
class Summary:
    """The same for every viewer: nothing in it is hidden information."""

    #: "waiting" (not started), "playing" or "finished"
    status: str
    #: "waiting", "bidding_1", "bidding_2", "playing" or "finished"
    phase: str
    #: the seat whose turn it is, None when nobody is to act
    turn: int | None
    #: game points of team 0 (seats 0 and 2) and team 1 (seats 1 and 3)
    scores: tuple[int, int]
    #: the winning team once the game is over
    winner: int | None
    #: the seats a bot plays for their absent player
    absent: tuple[int, ...] = ()


def summary(state: GameState) -> Summary:
    """The public progress of the game in `state`."""
    phase = state.phase
    status = "waiting" if phase == WAITING else "finished" if phase == FINISHED else "playing"
    return Summary(
        status=status,
        phase="playing" if phase == HAND_OVER else phase,
        turn=None if state.turn == NO_SEAT else state.turn,
        scores=(state.scores[0], state.scores[1]),
        winner=None if state.winner == NO_SEAT else state.winner,
        absent=tuple(seat for seat, away in enumerate(state.absent) if away),
    )
