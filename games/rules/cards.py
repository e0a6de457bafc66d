"""Cards as small ints, hands as 32-bit masks, and the tables every rule reads.

A card's id is its index in the 32 wire strings sorted in ASCII order
(`7C 7D 7H 7S 8C ... TS`), so iterating a mask from the low bit gives cards
already sorted the way the wire lists them. `id = 4 * rank_index + suit_index`
with ranks in the order `7 8 9 A J K Q T` (ASCII) and suits `C D H S`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

SUITS = "CDHS"
ASCII_RANKS = "789AJKQT"
SEQUENCE_RANKS = "789TJQKA"
TRUMP_RANKS_HIGH_FIRST = "J9ATKQ87"
PLAIN_RANKS_HIGH_FIRST = "ATKQJ987"

TRUMP_POINTS_BY_RANK = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS_BY_RANK = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}

ALL_CARDS = (1 << 32) - 1
LAST_TRICK_BONUS = 10
CARD_POINTS_TOTAL = 162


CARD_NAMES: tuple[str, ...] = tuple(r + s for r in ASCII_RANKS for s in SUITS)
CARD_IDS: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}
RANK_OF: tuple[str, ...] = tuple(name[0] for name in CARD_NAMES)
SUIT_MASKS: tuple[int, ...] = tuple(
    sum(1 << c for c in range(32) if c & 3 == suit) for suit in range(4)
)
#: position of a card's rank in the sequence order 7 8 9 T J Q K A (0..7)
SEQUENCE_INDEX: tuple[int, ...] = tuple(SEQUENCE_RANKS.index(r) for r in RANK_OF)
#: 8 = highest trump (J) ... 1 = lowest (7)
TRUMP_ORDER: tuple[int, ...] = tuple(8 - TRUMP_RANKS_HIGH_FIRST.index(r) for r in RANK_OF)
#: 8 = highest plain card (A) ... 1 = lowest (7)
PLAIN_ORDER: tuple[int, ...] = tuple(8 - PLAIN_RANKS_HIGH_FIRST.index(r) for r in RANK_OF)

#: POINTS[trump][card]: what the card is worth when `trump` is trumps.
POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (TRUMP_POINTS_BY_RANK if c & 3 == trump else PLAIN_POINTS_BY_RANK)[RANK_OF[c]]
        for c in range(32)
    )
    for trump in range(4)
)

#: TRUMP_ABOVE[card]: the cards of the same suit that beat it as trumps.
TRUMP_ABOVE: tuple[int, ...] = tuple(
    sum(
        1 << other
        for other in range(32)
        if other & 3 == c & 3 and TRUMP_ORDER[other] > TRUMP_ORDER[c]
    )
    for c in range(32)
)


def _win_key(card: int, trump: int, led: int) -> int:
    if card & 3 == trump:
        return 16 + TRUMP_ORDER[card]
    if card & 3 == led:
        return PLAIN_ORDER[card]
    return 0


#: WIN_KEYS[4 * trump + led][card]: higher wins the trick; 0 never wins.
WIN_KEYS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_win_key(c, trump, led) for c in range(32)) for trump in range(4) for led in range(4)
)


def suit_id(letter: str) -> int:
    """The index of a wire suit letter (`"H"`); raises ValueError for anything else."""
    if len(letter) != 1 or letter not in SUITS:
        raise ValueError(letter)
    return SUITS.index(letter)


def mask_of(cards: Iterable[int]) -> int:
    """The mask holding these card ids."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def mask_from_names(names: Iterable[str]) -> int:
    """The mask holding these wire cards."""
    return mask_of(CARD_IDS[name] for name in names)


def cards_in(mask: int) -> Iterator[int]:
    """The card ids of a mask, lowest first (which is wire-sorted order)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


#: IDS_BY_BYTE[k][b]: the card ids of the mask `b << 8 * k`
IDS_BY_BYTE: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256)) for k in range(4)
)
#: NAMES_BY_BYTE[k][b]: the wire cards of the mask `b << 8 * k`
NAMES_BY_BYTE: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(tuple(CARD_NAMES[c] for c in ids) for ids in by_byte) for by_byte in IDS_BY_BYTE
)


def ids_of(mask: int) -> list[int]:
    """The card ids of a mask, lowest first (a list, faster than `cards_in`)."""
    return [
        *IDS_BY_BYTE[0][mask & 255],
        *IDS_BY_BYTE[1][mask >> 8 & 255],
        *IDS_BY_BYTE[2][mask >> 16 & 255],
        *IDS_BY_BYTE[3][mask >> 24],
    ]


def names_of(mask: int) -> list[str]:
    """The wire cards of a mask, sorted as plain strings."""
    return [
        *NAMES_BY_BYTE[0][mask & 255],
        *NAMES_BY_BYTE[1][mask >> 8 & 255],
        *NAMES_BY_BYTE[2][mask >> 16 & 255],
        *NAMES_BY_BYTE[3][mask >> 24],
    ]
