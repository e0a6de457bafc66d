"""Bidding: take or pass in round 1, name another suit or pass in round 2."""

from __future__ import annotations

from games.rules.cards import SUITS
from games.rules.commands import PASS, TAKE, Action, ChooseTrump, Pass, Take
from games.rules.dealing import after_thrown_in, revealed
from games.rules.errors import RuleError
from games.rules.events import Bid, Event, HandThrownIn, RestDealt, TrumpSet
from games.rules.shuffle import deal_rest
from games.rules.state import BIDDING_1, GameState


def _taken(state: GameState, seat: int, round_number: int, trump: int) -> tuple[Event, ...]:
    bid = "take" if round_number == 1 else SUITS[trump]
    rest = deal_rest(state.stock, state.dealer, seat)
    return Bid(seat, round_number, bid), TrumpSet(seat, trump), RestDealt(rest)


def decide_bid(
    state: GameState, seat: int, action: Action, next_seed: bytes, next_secret: bytes = b""
) -> tuple[Event, ...]:
    """The events of a bid by the seat whose turn it is."""
    round_number = 1 if state.phase == BIDDING_1 else 2
    turned_suit = state.turned_card & 3
    if isinstance(action, Pass):
        passed = Bid(seat, round_number, "pass")
        if round_number == 2 and seat == state.dealer:
            return (
                passed,
                HandThrownIn(state.hand_number, *revealed(state)),
                *after_thrown_in(state, next_seed, next_secret),
            )
        return (passed,)
    if isinstance(action, Take):
        if round_number == 2:
            raise RuleError("wrong_phase", "round 2: name a suit other than the turned card's")
        return _taken(state, seat, 1, turned_suit)
    if isinstance(action, ChooseTrump):
        if round_number == 1:
            raise RuleError("wrong_phase", "round 1: take the turned card's suit or pass")
        if action.suit == turned_suit:
            raise RuleError(
                "suit_refused_in_round_2", "the turned card's suit was refused in round 1"
            )
        return _taken(state, seat, 2, action.suit)
    raise RuleError("wrong_phase", "the bidding is not over")


def legal_bids(state: GameState) -> list[Action]:
    """The bids open to the seat whose turn it is."""
    if state.phase == BIDDING_1:
        return [TAKE, PASS]
    turned_suit = state.turned_card & 3
    return [*(ChooseTrump(suit) for suit in range(4) if suit != turned_suit), PASS]
