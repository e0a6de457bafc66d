"""Belote and rebelote: the K and Q of trump in one hand (docs/rules.md, "Belote and rebelote")."""

from __future__ import annotations

from games.rules.cards import CARD_IDS, SUITS
from games.rules.errors import RuleError
from games.rules.state import NO_SEAT, GameState

#: BELOTE_PAIRS[trump]: the mask of the K and Q of that suit
BELOTE_PAIRS = tuple((1 << CARD_IDS["K" + s]) | (1 << CARD_IDS["Q" + s]) for s in SUITS)


def belote_holder(hands: tuple[int, ...], trump: int) -> int:
    """The seat whose 8-card hand holds the K and Q of trump, or -1."""
    pair = BELOTE_PAIRS[trump]
    for seat, hand in enumerate(hands):
        if hand & pair == pair:
            return seat
    return NO_SEAT


def is_first_of_pair(state: GameState, seat: int, card: int) -> bool:
    """Whether playing `card` now would be the holder's first card of the pair."""
    pair = BELOTE_PAIRS[state.trump]
    return (
        seat == state.belote_holder and bool(pair >> card & 1) and state.hands[seat] & pair == pair
    )


def belote_call(state: GameState, seat: int, card: int, choice: bool | None) -> str | None:
    """What playing `card` announces: `"belote"`, `"rebelote"` or None.

    `choice` is the player's explicit announcement, required on the first
    card of the pair when `auto_belote` is off and refused everywhere else.
    """
    if seat != state.belote_holder or not BELOTE_PAIRS[state.trump] >> card & 1:
        if choice is not None:
            raise RuleError("belote_not_allowed", "this card announces no belote")
        return None
    if is_first_of_pair(state, seat, card):
        if state.options.auto_belote:
            if choice is not None:
                raise RuleError("belote_not_allowed", "belote is announced for you at this table")
            return "belote"
        if choice is None:
            raise RuleError(
                "belote_choice_required", "say whether you announce belote with this card"
            )
        return "belote" if choice else None
    if choice is not None:
        raise RuleError("belote_not_allowed", "only the first card of the pair carries a choice")
    return "rebelote" if state.belote_calls else None


def belote_team(state: GameState) -> int | None:
    """The team whose belote was announced, or None."""
    return state.belote_calls[0][0] % 2 if state.belote_calls else None
