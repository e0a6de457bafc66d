"""Lookup tables the bots derive from the rules package's card tables.

Nothing here is a rule: these are precomputed views (which cards beat which
in a trick, how cheap a card is to give away) of `games.rules.cards`.
"""

from __future__ import annotations

from games.rules.cards import (
    PLAIN_ORDER,
    POINTS,
    SUIT_MASKS,
    TRUMP_ORDER,
    WIN_KEYS,
)

FULL_DECK = (1 << 32) - 1


def _beats(keys: tuple[int, ...], card: int) -> int:
    return sum(1 << other for other in range(32) if keys[other] > keys[card])


#: BEATS[4 * trump + led][card]: the cards that would beat `card` in such a trick.
BEATS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_beats(keys, card) for card in range(32)) for keys in WIN_KEYS
)


def _above(card: int, trump: int) -> int:
    order = TRUMP_ORDER if card & 3 == trump else PLAIN_ORDER
    return sum(
        1 << other for other in range(32) if other & 3 == card & 3 and order[other] > order[card]
    )


#: ABOVE[trump][card]: the cards of the card's own suit ranking above it.
ABOVE: tuple[tuple[int, ...], ...] = tuple(
    tuple(_above(card, trump) for card in range(32)) for trump in range(4)
)


def _strength(card: int, trump: int) -> int:
    return 16 + TRUMP_ORDER[card] if card & 3 == trump else PLAIN_ORDER[card]


#: STRENGTH[trump][card]: trumps above every plain card, each suit in its own order.
STRENGTH: tuple[tuple[int, ...], ...] = tuple(
    tuple(_strength(card, trump) for card in range(32)) for trump in range(4)
)

#: CHEAP[trump][card]: smaller is cheaper to give away (points, then trumps, then rank).
CHEAP: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        POINTS[trump][card] * 64 + (32 if card & 3 == trump else 0) + STRENGTH[trump][card]
        for card in range(32)
    )
    for trump in range(4)
)


def lowest(mask: int, key: tuple[int, ...]) -> int:
    """The card of a non-empty mask with the smallest key."""
    best = -1
    best_key = 1 << 30
    while mask:
        low = mask & -mask
        card = low.bit_length() - 1
        if key[card] < best_key:
            best, best_key = card, key[card]
        mask ^= low
    return best


def highest(mask: int, key: tuple[int, ...]) -> int:
    """The card of a non-empty mask with the largest key."""
    best = -1
    best_key = -(1 << 30)
    while mask:
        low = mask & -mask
        card = low.bit_length() - 1
        if key[card] > best_key:
            best, best_key = card, key[card]
        mask ^= low
    return best


__all__ = ["ABOVE", "BEATS", "CHEAP", "FULL_DECK", "POINTS", "STRENGTH", "SUIT_MASKS"]
