"""Events: the facts a game is made of. `decide` emits them, `apply` folds them.

Cards are ids and hands masks here (see `cards.py`); `wire.py` turns events into
their stored JSON form and back.
"""

from __future__ import annotations

from typing import NamedTuple

from games.rules.declarations import Declaration, SeatDeclaration
from games.rules.options import Options


class GameStarted(NamedTuple):
    """The fourth seat filled; the first dealer comes from the game seed.

    `secret_chain` is the commitment to every hand's secret, published when the table
    was created, and `client_seeds` the seats' contributions (docs/fairness.md); both
    empty in a game started before commit-reveal.
    """

    options: Options
    first_dealer: int
    game_seed: str
    secret_chain: str = ""
    client_seeds: tuple[str, str, str, str] = ("", "", "", "")


class HandDealt(NamedTuple):
    """3 + 2 cards each, the turned card, the 11-card stock in order.

    `seed` is the hand's secret seed and `secret` the service's secret it was derived
    from (docs/fairness.md, empty before commit-reveal): stored so that the end of the
    hand can reveal them, never shown to anyone before (see `view.redact`).
    `client_seeds` are the contributions the seed was derived from.
    """

    hand: int
    dealer: int
    seed_commitment: str
    cards: tuple[int, int, int, int]
    turned_card: int
    stock: tuple[int, ...]
    seed: str
    secret: str = ""
    client_seeds: tuple[str, str, str, str] = ("", "", "", "")


class Bid(NamedTuple):
    """`bid` is `take`, `pass` or (round 2) a suit letter."""

    seat: int
    round: int
    bid: str


class HandThrownIn(NamedTuple):
    """Everybody passed twice; the seed and the hand's secret are revealed."""

    hand: int
    seed: str
    secret: str = ""


class TrumpSet(NamedTuple):
    """The bidding ended with a taker."""

    taker: int
    trump: int


class RestDealt(NamedTuple):
    """The cards each seat receives after the take: 3 each, the taker 2 (its
    third card is the turned card, already public)."""

    cards: tuple[int, int, int, int]


class Declared(NamedTuple):
    """A seat announced declarations with its first card."""

    seat: int
    declarations: tuple[Declaration, ...]


class CardPlayed(NamedTuple):
    """`belote` is None, `"belote"` or `"rebelote"`."""

    seat: int
    card: int
    belote: str | None


class TrickWon(NamedTuple):
    """`cards` in play order from `leader`; `points` include the last-trick 10."""

    trick: int
    leader: int
    winner: int
    cards: tuple[int, ...]
    points: int


class DeclarationsShown(NamedTuple):
    """After trick 1: the team whose declarations count (or None) and those cards."""

    team: int | None
    declarations: tuple[SeatDeclaration, ...]


class HandScored(NamedTuple):
    """The result of a played hand (see docs/rules.md, "Scoring")."""

    hand: int
    taker: int
    trump: int
    card_points: tuple[int, int]
    counted_team: int | None
    counted_points: int
    belote_team: int | None
    totals: tuple[int, int]
    outcome: str
    scores: tuple[int, int]
    waiting_before: int
    waiting_after: int
    waiting_to: int | None
    deltas: tuple[int, int]
    game_scores: tuple[int, int]
    seed: str
    #: the hand's secret, revealed (docs/fairness.md; empty before commit-reveal)
    secret: str = ""


class GameFinished(NamedTuple):
    """A side reached the target with nothing waiting and the scores unequal, or
    the last hand allowed (`scoring.MAX_HANDS`) ended: `winner` None is a draw."""

    winner: int | None
    scores: tuple[int, int]


class TurnTimedOut(NamedTuple):
    """The service played for `seat`, whose time ran out (the seat's own move comes just
    before); `consecutive` counts that seat's timeouts since it last played itself."""

    seat: int
    consecutive: int


class SeatAbsent(NamedTuple):
    """A bot plays for `seat` from now on; `reason` is `timeout` or `left`."""

    seat: int
    reason: str


class SeatReturned(NamedTuple):
    """The player of `seat` plays it again."""

    seat: int


class TableClosed(NamedTuple):
    """A table that never filled was closed before any game started; `reason` is
    `never_filled` (the service decides when: docs/clocks.md)."""

    reason: str


Event = (
    GameStarted
    | HandDealt
    | Bid
    | HandThrownIn
    | TrumpSet
    | RestDealt
    | Declared
    | CardPlayed
    | TrickWon
    | DeclarationsShown
    | HandScored
    | GameFinished
    | TurnTimedOut
    | SeatAbsent
    | SeatReturned
    | TableClosed
)
