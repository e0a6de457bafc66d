"""The frozen game state that `apply` folds events into."""

from __future__ import annotations

from typing import Any, NamedTuple

from games.rules.declarations import Declaration, SeatDeclaration
from games.rules.events import HandScored, TrickWon
from games.rules.options import Options

#: bump whenever the shape or meaning of `GameState` changes (old snapshots are rebuilt)
ENGINE_VERSION = 3

WAITING = "waiting"
BIDDING_1 = "bidding_1"
BIDDING_2 = "bidding_2"
PLAYING = "playing"
HAND_OVER = "hand_over"  # between the last event of a hand and the next deal
FINISHED = "finished"

NO_SEAT = -1


class GameState(NamedTuple):
    """Everything the rules know about a game. Cards are ids, hands masks.

    A tuple: immutable, hashable, cheap to copy and to pickle. Fields of the
    current hand are reset by each `hand_dealt`.
    """

    options: Options = Options()
    phase: str = WAITING
    game_seed: str = ""
    first_dealer: int = NO_SEAT
    dealer: int = NO_SEAT
    hand_number: int = 0
    scores: tuple[int, int] = (0, 0)
    waiting_points: int = 0
    results: tuple[HandScored, ...] = ()
    winner: int = NO_SEAT
    # the current hand, from `hand_seed` to the end
    hand_seed: str = ""
    seed_commitment: str = ""
    turned_card: int = -1
    stock: tuple[int, ...] = ()
    bids: tuple[tuple[int, int, str], ...] = ()
    taker: int = NO_SEAT
    trump: int = -1
    belote_holder: int = NO_SEAT
    belote_calls: tuple[tuple[int, str], ...] = ()
    offers: tuple[tuple[tuple[Declaration, ...], ...], ...] = ((), (), (), ())
    declared: tuple[tuple[Declaration, ...], ...] = ((), (), (), ())
    shown: tuple[SeatDeclaration, ...] | None = None
    shown_team: int | None = None
    # what a trick changes, last, so that the folds of the play rebuild the state from
    # one slice of it: trick_won the last ten fields, card_played the last six
    trick_leader: int = NO_SEAT
    tricks: tuple[TrickWon, ...] = ()
    trick_points: tuple[int, int] = (0, 0)
    tricks_won: tuple[int, int] = (0, 0)
    hands: tuple[int, int, int, int] = (0, 0, 0, 0)
    trick: tuple[int, ...] = ()
    #: index in `trick` and id of the card winning it so far (-1 on an empty trick)
    win_index: int = -1
    win_card: int = -1
    turn: int = NO_SEAT
    #: the cards the seat to play may play now (a mask; 0 when no card is due): derived
    #: by the folds from the fields above, so that legal_actions and decide only read it
    legal: int = 0


FIELD = {name: index for index, name in enumerate(GameState._fields)}
_new_tuple = tuple.__new__


def rebuild(values: list[Any]) -> GameState:
    """A GameState from a full list of field values (the folds' cheap replace)."""
    return _new_tuple(GameState, values)


def evolve(state: GameState, **changes: Any) -> GameState:
    """`state` with some fields changed (as `_replace`, at half its cost)."""
    values = list(state)
    for name, value in changes.items():
        values[FIELD[name]] = value
    return _new_tuple(GameState, values)


def new_game() -> GameState:
    """The empty state before `game_started`."""
    return GameState()
