"""Declarations: sequences and fours of a kind (docs/rules.md, "Declarations")."""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from games.rules.cards import (
    CARD_IDS,
    RANK_OF,
    SEQUENCE_INDEX,
    SUITS,
    cards_in,
    mask_of,
)

SEQUENCE_KINDS = {3: "tierce", 4: "quarte"}  # 5 and more: "quint"
KINDS = ("tierce", "quarte", "quint", "four")
SEQUENCE_POINTS = {"tierce": 20, "quarte": 50, "quint": 100}
FOUR_POINTS = {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100}
#: fours of a kind rank J, 9, A, T, K, Q at equal points
FOUR_RANKING = {"J": 6, "9": 5, "A": 4, "T": 3, "K": 2, "Q": 1}
FOUR_MASKS = {rank: mask_of(CARD_IDS[rank + s] for s in SUITS) for rank in FOUR_POINTS}
#: the card ids of each suit in the order 7 8 9 T J Q K A
SUIT_RUNS = tuple(
    tuple(sorted((c for c in range(32) if c & 3 == suit), key=SEQUENCE_INDEX.__getitem__))
    for suit in range(4)
)


class Declaration(NamedTuple):
    """One declaration: its kind and the mask of its cards."""

    kind: str
    cards: int


class SeatDeclaration(NamedTuple):
    """A declaration with the seat that announced it and its points."""

    seat: int
    kind: str
    cards: int
    points: int


class DeclarationCount(NamedTuple):
    """Which team's declarations count, their sum, and the ones that count."""

    team: int | None
    points: int
    counted: tuple[SeatDeclaration, ...]


def points_of(declaration: Declaration) -> int:
    """What a declaration is worth."""
    if declaration.kind == "four":
        return FOUR_POINTS[RANK_OF[(declaration.cards & -declaration.cards).bit_length() - 1]]
    return SEQUENCE_POINTS[declaration.kind]


def strength(declaration: Declaration, trump: int) -> tuple[int, int, int, int, int]:
    """Sort key of the comparison in docs/rules.md, "Declarations": points, four
    over sequence, then the four's rank, or the sequence's length, top card and trump."""
    points = points_of(declaration)
    cards = list(cards_in(declaration.cards))
    if declaration.kind == "four":
        return (points, 1, FOUR_RANKING[RANK_OF[cards[0]]], 0, 0)
    top = max(SEQUENCE_INDEX[c] for c in cards)
    return (points, 0, len(cards), top, int(cards[0] & 3 == trump))


def _runs_of_suit(sparse: int) -> tuple[Declaration, ...]:
    """Runs of clubs held in `sparse` (a mask of clubs): each maximal run of 3+ is one."""
    found = []
    run = 0
    for card in (*SUIT_RUNS[0], -1):
        if card >= 0 and sparse >> card & 1:
            run |= 1 << card
            continue
        if run.bit_count() >= 3:
            found.append(Declaration(SEQUENCE_KINDS.get(run.bit_count(), "quint"), run))
        run = 0
    return tuple(found)


#: RUNS_OF_CLUBS[held clubs mask]: the run declarations; other suits are shifted by the suit
RUNS_OF_CLUBS = {
    sparse: _runs_of_suit(sparse)
    for sparse in (mask_of(c for i, c in enumerate(SUIT_RUNS[0]) if n >> i & 1) for n in range(256))
}
_CLUBS = sum(1 << c for c in SUIT_RUNS[0])


#: RUNS_BY_SUIT[suit][hand & SUIT_MASKS[suit]]: the run declarations of that suit, in place
RUNS_BY_SUIT: tuple[dict[int, tuple[Declaration, ...]], ...] = tuple(
    {
        clubs << suit: tuple(Declaration(run.kind, run.cards << suit) for run in runs)
        for clubs, runs in RUNS_OF_CLUBS.items()
    }
    for suit in range(4)
)
_RUNS_C, _RUNS_D, _RUNS_H, _RUNS_S = RUNS_BY_SUIT
_MASK_C, _MASK_D, _MASK_H, _MASK_S = (_CLUBS << suit for suit in range(4))
#: the lowest card of each rank that scores a four (the other three are its next bits)
_FOUR_LOW_BITS = sum(mask & -mask for mask in FOUR_MASKS.values())


def _runs(mask: int) -> tuple[Declaration, ...]:
    """Each maximal run of 3+ cards in a suit is one declaration (low cards first)."""
    return (
        _RUNS_C[mask & _MASK_C]
        + _RUNS_D[mask & _MASK_D]
        + _RUNS_H[mask & _MASK_H]
        + _RUNS_S[mask & _MASK_S]
    )


def _by_cards(declaration: Declaration) -> int:
    return declaration.cards


def best_sets(hand: int) -> tuple[tuple[Declaration, ...], ...]:
    """The disjoint sets of declarations worth the most in an 8-card hand.

    A card counts once: each choice of the fours held leaves runs among the
    other cards, a run being one declaration. Empty when nothing scores.
    """
    # the four cards of a rank are the bits 4r..4r+3: a four leaves its low bit here
    if not hand & hand >> 1 & hand >> 2 & hand >> 3 & _FOUR_LOW_BITS:
        # most hands: no four, so the runs are the only choice
        runs = _runs(hand)
        if not runs:
            return ()
        if len(runs) > 1:
            runs = tuple(sorted(runs, key=_by_cards))
        return (runs,)
    return _best_sets_searched(hand)


def _best_sets_searched(hand: int) -> tuple[tuple[Declaration, ...], ...]:
    """`best_sets` the long way: every choice of the fours held, then the runs left."""
    fours = [Declaration("four", m) for m in FOUR_MASKS.values() if hand & m == m]
    best_points = 0
    offers: list[tuple[Declaration, ...]] = []
    for size in range(len(fours) + 1):
        for chosen in combinations(fours, size):
            used = 0
            for four in chosen:
                used |= four.cards
            candidate = tuple(sorted((*chosen, *_runs(hand & ~used)), key=_by_cards))
            points = sum(points_of(d) for d in candidate)
            if points > best_points:
                best_points, offers = points, [candidate]
            elif points == best_points and points and candidate not in offers:
                offers.append(candidate)
    return tuple(offers)


def count_declarations(
    declared: tuple[tuple[Declaration, ...], ...], trump: int
) -> DeclarationCount:
    """Only the side with the best single declaration counts, all of its
    declarations; equal best on both sides: none counts."""
    best: list[tuple[int, ...] | None] = [None, None]
    for seat, declarations in enumerate(declared):
        for declaration in declarations:
            key = strength(declaration, trump)
            current = best[seat % 2]
            if current is None or key > current:
                best[seat % 2] = key
    if best[0] is None and best[1] is None:
        return DeclarationCount(None, 0, ())
    if best[0] is not None and best[1] is not None and best[0] == best[1]:
        return DeclarationCount(None, 0, ())
    team = 0 if best[1] is None or (best[0] is not None and best[0] > best[1]) else 1
    counted = tuple(
        SeatDeclaration(seat, d.kind, d.cards, points_of(d))
        for seat in (team, team + 2)
        for d in declared[seat]
    )
    return DeclarationCount(team, sum(d.points for d in counted), counted)
