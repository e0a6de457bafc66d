"""The frozen game state that `apply` folds events into, and the facts derived from it."""

from __future__ import annotations

from typing import NamedTuple

from games.rules.declarations import Declaration, SeatDeclaration
from games.rules.events import HandScored, TrickWon
from games.rules.options import Options
from games.rules.tricks import legal_cards_mask

#: bump whenever the shape or meaning of `GameState` changes (old snapshots are rebuilt)
ENGINE_VERSION = 8

WAITING = "waiting"
BIDDING_1 = "bidding_1"
BIDDING_2 = "bidding_2"
PLAYING = "playing"
HAND_OVER = "hand_over"  # between the last event of a hand and the next deal
FINISHED = "finished"

NO_SEAT = -1


class GameState(NamedTuple):
    """Everything the rules know about a game. Cards are ids, hands masks.

    Immutable (a NamedTuple: hashable, pickles; `apply` returns a new one through
    `_replace`, by field name). The fields not in `GAME_FIELDS` belong to the current
    hand and start afresh with each `hand_dealt`; what can be worked out from them
    (the cards the seat to play may play) is a property, not a field.
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
    #: each seat's timeouts since it last played itself (docs/clocks.md)
    timeouts: tuple[int, int, int, int] = (0, 0, 0, 0)
    #: the seats a bot plays for their player, who left or timed out too often
    absent: tuple[bool, bool, bool, bool] = (False, False, False, False)
    #: the commitment to every hand's secret and the seats' client seeds (docs/fairness.md)
    secret_chain: str = ""
    client_seeds: tuple[str, str, str, str] = ("", "", "", "")
    # the current hand
    hand_seed: str = ""
    #: the service's secret the hand's seed was derived from (docs/fairness.md)
    hand_secret: str = ""
    seed_commitment: str = ""
    turned_card: int = -1
    stock: tuple[int, ...] = ()
    bids: tuple[tuple[int, int, str], ...] = ()
    taker: int = NO_SEAT
    trump: int = -1
    #: the seat dealt the K and Q of trump (a fact of the deal: cards played later hide it)
    belote_holder: int = NO_SEAT
    belote_calls: tuple[tuple[int, str], ...] = ()
    declared: tuple[tuple[Declaration, ...], ...] = ((), (), (), ())
    shown: tuple[SeatDeclaration, ...] | None = None
    shown_team: int | None = None
    trick_leader: int = NO_SEAT
    tricks: tuple[TrickWon, ...] = ()
    trick_points: tuple[int, int] = (0, 0)
    tricks_won: tuple[int, int] = (0, 0)
    hands: tuple[int, int, int, int] = (0, 0, 0, 0)
    trick: tuple[int, ...] = ()
    turn: int = NO_SEAT

    @property
    def legal(self) -> int:
        """The cards the seat to play may play now, as a mask (0 when no card is due)."""
        if self.phase != PLAYING or self.turn == NO_SEAT or len(self.trick) == 4:
            return 0
        return legal_cards_mask(
            self.hands[self.turn],
            self.trick,
            self.trump,
            self.options.overtrump_partner_on_trump_lead,
        )


#: the fields of the game as a whole, which a new deal keeps (`phase`, `dealer` and
#: `hand_number` it sets); every other field belongs to the hand and starts afresh
GAME_FIELDS = (
    "options",
    "game_seed",
    "first_dealer",
    "scores",
    "waiting_points",
    "results",
    "winner",
    "timeouts",
    "absent",
    "secret_chain",
    "client_seeds",
)


def new_game() -> GameState:
    """The empty state before `game_started`."""
    return GameState()
