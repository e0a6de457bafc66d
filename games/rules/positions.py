"""Building positions from given cards, through the same events as a real game.

Used by tests, the conformance vectors, bots (determinization) and audits.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.rules.cards import (
    ALL_CARDS,
    CARD_IDS,
    CARD_NAMES,
    SUIT_MASKS,
    cards_in,
    mask_from_names,
    suit_id,
)
from games.rules.commands import PASS, TAKE, Action, ChooseTrump, PlayerAction
from games.rules.engine import decide, replay
from games.rules.events import GameStarted, HandDealt
from games.rules.folds import apply
from games.rules.options import Options
from games.rules.shuffle import deal_first_cards
from games.rules.state import GameState

_NO_SEED = b""


def dealt_position(
    *,
    options: Options = Options(),  # noqa: B008 (frozen, so one shared default is safe)
    dealer: int,
    deck: Sequence[str],
    scores: tuple[int, int] = (0, 0),
    waiting_points: int = 0,
    hand_number: int = 1,
) -> GameState:
    """A hand just dealt from `deck` (32 wire cards, top first): bidding round 1 begins.

    The scores and waiting points are those left by earlier hands; the first
    dealer is set so that `dealer` deals hand `hand_number`.
    """
    ids = [CARD_IDS[name] for name in deck]
    if sorted(ids) != list(range(32)):
        raise ValueError("the deck must hold the 32 cards once each")
    first = (dealer - (hand_number - 1)) % 4
    state = apply(GameState(), GameStarted(options, first, ""))
    state = state._replace(scores=(scores[0], scores[1]), waiting_points=waiting_points)
    cards, turned_card, stock = deal_first_cards(ids, dealer)
    return apply(state, HandDealt(hand_number, dealer, "", cards, turned_card, stock, ""))


def playing_position(
    *,
    options: Options = Options(),  # noqa: B008 (frozen, so one shared default is safe)
    dealer: int,
    hands: Sequence[Sequence[str]],
    taker: int,
    trump: str,
    waiting_points: int = 0,
    scores: tuple[int, int] = (0, 0),
    hand_number: int = 1,
) -> GameState:
    """A hand after bidding and the full deal, `dealer + 1` to lead the first trick.

    `hands` are the four 8-card hands (the taker's includes the turned card).
    The turned card is one of the taker's trumps (a take in round 1) or, if
    the taker holds none, one of its other cards (trump named in round 2).
    """
    masks = [mask_from_names(hand) for hand in hands]
    union = 0
    for mask in masks:
        union |= mask
    if len(masks) != 4 or union != ALL_CARDS or any(m.bit_count() != 8 for m in masks):
        raise ValueError("the four hands must hold the 32 cards once each")
    trump_suit = suit_id(trump)
    taker_trumps = masks[taker] & SUIT_MASKS[trump_suit]
    turned_card = next(cards_in(taker_trumps or masks[taker]))
    deck = _deck_for(masks, dealer, taker, turned_card)
    state = dealt_position(
        options=options,
        dealer=dealer,
        deck=deck,
        scores=scores,
        waiting_points=waiting_points,
        hand_number=hand_number,
    )
    order = [(dealer + offset) % 4 for offset in range(1, 5)]
    passes: list[tuple[int, Action]] = [(seat, PASS) for seat in order[: order.index(taker)]]
    if taker_trumps:
        bids = [*passes, (taker, TAKE)]
    else:
        bids = [*((seat, PASS) for seat in order), *passes, (taker, ChooseTrump(trump_suit))]
    for seat, bid in bids:
        state = replay(decide(state, PlayerAction(seat, bid, _NO_SEED)), state)
    return state


def _deck_for(masks: list[int], dealer: int, taker: int, turned_card: int) -> list[str]:
    """A deck order whose deal (3 + 2, turned card, rest) gives these hands."""
    order = [(dealer + offset) % 4 for offset in range(1, 5)]
    held = [list(cards_in(m & ~(1 << turned_card))) for m in masks]
    deck: list[int] = []
    for start, stop in ((0, 3), (3, 5)):
        for seat in order:
            deck.extend(held[seat][start:stop])
    deck.append(turned_card)
    for seat in order:
        deck.extend(held[seat][5:])
    return [CARD_NAMES[c] for c in deck]
