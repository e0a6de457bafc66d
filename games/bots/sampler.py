"""Deals of the unseen cards consistent with everything a seat has seen.

Cards go one by one, in a random order, to a slot (a seat, or the stock while
bidding) that may hold them, chosen with odds proportional to the room left;
a choice that would leave the rest impossible to place (Hall's condition over
the slots) is never taken, so a consistent deal is always found in one pass.
The result is close to, not exactly, uniform over the consistent deals.
Announced but hidden declarations are enforced by rejection (a few retries).
"""

from __future__ import annotations

import random
from itertools import combinations

from games.bots.bidding import basic_bid
from games.bots.knowledge import Knowledge
from games.rules.declarations import best_sets

_RETRIES = 16


def _subsets(slots: int) -> list[int]:
    return [
        sum(1 << s for s in chosen)
        for size in range(1, slots)
        for chosen in combinations(range(slots), size)
    ]


def _feasible(by_signature: dict[int, int], room: list[int], subsets: list[int]) -> bool:
    for subset in subsets:
        need = sum(n for sig, n in by_signature.items() if sig & ~subset == 0)
        if need and need > sum(room[s] for s in range(len(room)) if subset >> s & 1):
            return False
    return True


def distribute(
    cards: list[int], allowed: list[int], room: list[int], rng: random.Random
) -> list[int]:
    """Place `cards` (ids) into slots: slot `s` takes `room[s]` of the cards in `allowed[s]`.

    Raises ValueError when no placement exists.
    """
    room = list(room)
    placed = [0] * len(room)
    order = list(cards)
    rng.shuffle(order)
    everyone = (1 << len(room)) - 1
    signatures = [sum(1 << s for s in range(len(room)) if allowed[s] >> c & 1) for c in order]
    by_signature: dict[int, int] = {}
    for sig in signatures:
        by_signature[sig] = by_signature.get(sig, 0) + 1
    subsets = _subsets(len(room))
    if 0 in by_signature or sum(room) != len(order) or not _feasible(by_signature, room, subsets):
        raise ValueError("no deal is consistent with these constraints")
    if set(by_signature) == {everyone}:
        start = 0
        for slot, size in enumerate(room):
            for card in order[start : start + size]:
                placed[slot] |= 1 << card
            start += size
        return placed
    for card, sig in zip(order, signatures, strict=True):
        by_signature[sig] -= 1
        candidates = [s for s in range(len(room)) if sig >> s & 1 and room[s]]
        while True:
            slot = rng.choices(candidates, [room[s] for s in candidates])[0]
            room[slot] -= 1
            if len(candidates) == 1 or _feasible(by_signature, room, subsets):
                break
            room[slot] += 1
            candidates.remove(slot)
        placed[slot] |= 1 << card
    return placed


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def sample_hands(knowledge: Knowledge, rng: random.Random) -> list[int]:
    """The four hands now (cards not yet played), the seat's own as it is."""
    me = knowledge.seat
    others = [s for s in range(4) if s != me]
    free = knowledge.unseen
    for seat in others:
        free &= ~knowledge.known[seat]
    allowed = [knowledge.holdings[s] & ~knowledge.known[s] for s in others]
    room = [knowledge.sizes[s] - knowledge.known[s].bit_count() for s in others]
    fallback: list[int] = []
    for _ in range(_RETRIES):
        placed = distribute(_cards(free), allowed, room, rng)
        hands = [knowledge.hand] * 4
        for seat, cards in zip(others, placed, strict=True):
            hands[seat] = cards | knowledge.known[seat]
        if all(_announced_fits(knowledge, s, hands[s]) for s in others):
            if _bids_fit(knowledge, hands, rng):
                return hands
            fallback = fallback or hands
    return fallback or hands


def _bids_fit(knowledge: Knowledge, hands: list[int], rng: random.Random) -> bool:
    """Whether the other seats' bids are what the basic heuristic would have said.

    Which 5 of a seat's cards it held while bidding is drawn at random (the
    deal is uniform), so accepting a deal when one such draw agrees keeps it
    with the probability the bidding model gives it: a soft inference, bounded
    by the retries, so that players who bid otherwise cannot make it fail.
    """
    first_cards: dict[int, int] = {}
    for seat, round_, bid in knowledge.bids:
        if seat == knowledge.seat:
            continue
        if seat not in first_cards:
            full = (hands[seat] | knowledge.played_by[seat]) & ~(1 << knowledge.turned)
            first_cards[seat] = _mask(rng.sample(_cards(full), 5))
        said = basic_bid(seat, knowledge.dealer, round_, first_cards[seat], knowledge.turned)
        if (said == "pass") != (bid == "pass"):
            return False
    return True


def _mask(cards: list[int]) -> int:
    result = 0
    for card in cards:
        result |= 1 << card
    return result


def _announced_fits(knowledge: Knowledge, seat: int, hand: int) -> bool:
    kinds = knowledge.hidden_kinds[seat]
    if not kinds:
        return True
    wanted = sorted(kinds)
    full = hand | knowledge.played_by[seat]
    return any(sorted(d.kind for d in offer) == wanted for offer in best_sets(full))


def sample_deal(knowledge: Knowledge, rng: random.Random) -> tuple[list[int], list[int]]:
    """While bidding: the four hands of 5 and the 11 cards of the stock in a random order."""
    me = knowledge.seat
    others = [s for s in range(4) if s != me]
    free = knowledge.unseen
    stock_size = free.bit_count() - sum(knowledge.sizes[s] for s in others)
    room = [knowledge.sizes[s] for s in others] + [stock_size]
    for _ in range(_RETRIES):
        placed = distribute(_cards(free), [free] * 4, room, rng)
        hands = [knowledge.hand] * 4
        for seat, cards in zip(others, placed[:3], strict=True):
            hands[seat] = cards
        if all(
            basic_bid(seat, knowledge.dealer, round_, hands[seat], knowledge.turned) == "pass"
            for seat, round_, _ in knowledge.bids
            if seat != knowledge.seat
        ):
            break
    stock = _cards(placed[3])
    rng.shuffle(stock)
    return hands, stock
