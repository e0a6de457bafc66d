"""The `basic` bidding heuristic: trump strength with the turned card counted.

A hand is valued in rough "trick units": the high trumps, the side aces and
tens that should win tricks, a bonus for belote and for short side suits when
trumps are long, and for leading the first trick. The same function bids for
every seat in the expert's bidding simulations.
"""

from __future__ import annotations

from games.rules.cards import CARD_IDS, SUIT_MASKS

TAKE_THRESHOLD = 6.0
LEADER_BONUS = 0.4

_TRUMP_VALUE = {"J": 3.4, "9": 2.4, "A": 1.6, "T": 1.3, "K": 0.9, "Q": 0.9, "8": 0.7, "7": 0.7}


def _card(name: str) -> int:
    return CARD_IDS[name]


_TRUMP_VALUES = tuple(
    tuple((_card(rank + suit), value) for rank, value in _TRUMP_VALUE.items()) for suit in "CDHS"
)
_ACES = tuple(_card("A" + suit) for suit in "CDHS")
_TENS = tuple(_card("T" + suit) for suit in "CDHS")
_KINGS = tuple(_card("K" + suit) for suit in "CDHS")
_QUEENS = tuple(_card("Q" + suit) for suit in "CDHS")


def hand_value(hand: int, trump: int) -> float:
    """Trick-taking value of a hand (a card mask) with `trump` as trumps."""
    value = sum(v for card, v in _TRUMP_VALUES[trump] if hand >> card & 1)
    trumps = (hand & SUIT_MASKS[trump]).bit_count()
    if trumps >= 4:
        value += 0.5 * (trumps - 3)
    if hand >> _KINGS[trump] & 1 and hand >> _QUEENS[trump] & 1:
        value += 1.0
    for suit in range(4):
        if suit == trump:
            continue
        in_suit = hand & SUIT_MASKS[suit]
        has_ace = hand >> _ACES[suit] & 1
        if has_ace:
            value += 1.2
        if hand >> _TENS[suit] & 1:
            value += 0.8 if has_ace else (0.3 if in_suit.bit_count() >= 2 else 0.0)
        if not in_suit and trumps >= 3:
            value += 0.4
    return value


def basic_bid(seat: int, dealer: int, round_: int, hand: int, turned: int) -> str:
    """`"take"`, `"pass"` or (round 2) a suit letter, for a seat holding `hand` (5 cards)."""
    bonus = LEADER_BONUS if seat == (dealer + 1) & 3 else 0.0
    with_turned = hand | 1 << turned
    turned_suit = turned & 3
    if round_ == 1:
        if hand_value(with_turned, turned_suit) + bonus >= TAKE_THRESHOLD:
            return "take"
        return "pass"
    best_suit = -1
    best_value = 0.0
    for suit in range(4):
        if suit == turned_suit:
            continue
        value = hand_value(with_turned, suit)
        if value > best_value:
            best_suit, best_value = suit, value
    if best_value + bonus >= TAKE_THRESHOLD:
        return "CDHS"[best_suit]
    return "pass"
