"""The `basic` card-play heuristic, also the policy of the expert's playouts.

It sees a seat's legal cards and, for every seat, the mask of cards that seat
may still hold (`holdings`): the seat's own hand for itself, and what it
cannot rule out for the others. In a playout the holdings are the sampled
hands themselves, so the same code plays a cheap double-dummy game.
"""

from __future__ import annotations

from games.bots.tables import ABOVE, BEATS, CHEAP, POINTS, STRENGTH, SUIT_MASKS, highest, lowest
from games.rules.tricks import winning

_KEEP_MASTER = 12  # a master plain card is worth keeping about this much
PULL_WITH_LOW_TRUMPS_FROM = 3  # the taker without the master trump leads low from this many


def play_card(  # noqa: PLR0917 (positional: the playouts' inner loop)
    seat: int,
    legal: int,
    trick: tuple[int, ...],
    leader: int,
    trump: int,
    taker: int,
    holdings: list[int],
) -> int:
    """The card (id) the heuristic plays from `legal`."""
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    others = 0
    for other in range(4):
        if other != seat:
            others |= holdings[other]
    if not trick:
        return _lead(seat, legal, trump, taker, holdings, others)
    return _follow(seat, legal, trick, leader, trump, holdings, others)


def _is_master(card: int, trump: int, others: int) -> bool:
    return not ABOVE[trump][card] & others


def _opponents_may_ruff(seat: int, suit: int, trump: int, holdings: list[int]) -> bool:
    for opponent in ((seat + 1) & 3, (seat + 3) & 3):
        held = holdings[opponent]
        if not held & SUIT_MASKS[suit] and held & SUIT_MASKS[trump]:
            return True
    return False


def _lead(  # noqa: PLR0917 (positional: the playouts' inner loop)
    seat: int, hand: int, trump: int, taker: int, holdings: list[int], others: int
) -> int:
    trump_mask = SUIT_MASKS[trump]
    strength = STRENGTH[trump]
    my_trumps = hand & trump_mask
    opponents_trumps = (holdings[(seat + 1) & 3] | holdings[(seat + 3) & 3]) & trump_mask
    if my_trumps and opponents_trumps and taker & 1 == seat & 1:
        top = highest(my_trumps, strength)
        if _is_master(top, trump, others):
            return top
        if seat == taker and my_trumps.bit_count() >= PULL_WITH_LOW_TRUMPS_FROM:
            return lowest(my_trumps, strength)
    best_master = -1
    best_points = -1
    points = POINTS[trump]
    for suit in range(4):
        in_suit = hand & SUIT_MASKS[suit]
        if suit == trump or not in_suit:
            continue
        top = highest(in_suit, strength)
        if (
            _is_master(top, trump, others)
            and others & SUIT_MASKS[suit]
            and not _opponents_may_ruff(seat, suit, trump, holdings)
            and points[top] > best_points
        ):
            best_master, best_points = top, points[top]
    if best_master >= 0:
        return best_master
    return _low_lead(seat, hand, trump, holdings, others)


def _low_lead(seat: int, hand: int, trump: int, holdings: list[int], others: int) -> int:
    """A cheap card from a plain suit, away from unguarded tens, towards a ruffing partner."""
    plain = hand & ~SUIT_MASKS[trump]
    if not plain:
        return lowest(hand, CHEAP[trump])
    cheap = CHEAP[trump]
    partner = holdings[seat ^ 2]
    best = -1
    best_key = 1 << 30
    for suit in range(4):
        in_suit = plain & SUIT_MASKS[suit]
        if not in_suit:
            continue
        card = lowest(in_suit, cheap)
        key = cheap[card]
        top = highest(in_suit, STRENGTH[trump])
        if top != card and not _is_master(top, trump, others):
            key += 200  # leading away from a king or ten that is not master
        if not partner & SUIT_MASKS[suit] and partner & SUIT_MASKS[trump]:
            key -= 300
        if key < best_key:
            best, best_key = card, key
    return best


def _follow(  # noqa: PLR0917 (positional: the playouts' inner loop)
    seat: int,
    legal: int,
    trick: tuple[int, ...],
    leader: int,
    trump: int,
    holdings: list[int],
    others: int,
) -> int:
    led = trick[0] & 3
    table = 4 * trump + led
    beats = BEATS[table]
    strength = STRENGTH[trump]
    winner, winning_card = winning(trick, trump)
    threat = _threat(seat, len(trick), led, trump, holdings)
    partner_wins = (leader + winner) & 3 == seat ^ 2
    if partner_wins and not beats[winning_card] & threat:
        return _smear(legal, trump, others)
    winners = legal & beats[winning_card]
    if not winners:
        return _discard(seat, legal, trump, holdings, others)
    if len(trick) == 3:
        plain_winners = winners & ~SUIT_MASKS[trump]
        if plain_winners:
            return highest(plain_winners, POINTS[trump])
        return lowest(winners, strength)
    safe = 0
    rest = winners
    while rest:
        low = rest & -rest
        if not beats[low.bit_length() - 1] & threat:
            safe |= low
        rest ^= low
    if safe:
        return lowest(safe, strength)
    ruffs = winners & SUIT_MASKS[trump]
    if ruffs and led != trump:
        return lowest(ruffs, strength)
    if partner_wins:
        return _discard(seat, legal, trump, holdings, others)
    return lowest(legal, CHEAP[trump]) if legal & ~winners else lowest(winners, strength)


def _threat(seat: int, played: int, led: int, trump: int, holdings: list[int]) -> int:
    """The cards the opponents still to play in this trick might beat us with."""
    threat = 0
    for step in range(1, 4 - played):
        other = (seat + step) & 3
        if other & 1 == seat & 1:
            continue
        held = holdings[other]
        threat |= held & SUIT_MASKS[led] or held & SUIT_MASKS[trump]
    return threat


def _smear(legal: int, trump: int, others: int) -> int:
    """Partner holds the trick: give it the most points we can spare."""
    points = POINTS[trump]
    best = -1
    best_key = -(1 << 30)
    rest = legal
    while rest:
        low = rest & -rest
        card = low.bit_length() - 1
        rest ^= low
        if card & 3 == trump:
            key = -points[card] - 20
        else:
            key = points[card]
            if _is_master(card, trump, others) and others & SUIT_MASKS[card & 3]:
                key -= _KEEP_MASTER
        if key > best_key:
            best, best_key = card, key
    return best


def _discard(seat: int, legal: int, trump: int, holdings: list[int], others: int) -> int:
    """Lose the trick cheaply; keep guards of tens and kings and keep masters."""
    cheap = CHEAP[trump]
    strength = STRENGTH[trump]
    best = -1
    best_key = 1 << 30
    rest = legal
    while rest:
        low = rest & -rest
        card = low.bit_length() - 1
        rest ^= low
        key = cheap[card]
        suit_cards = holdings[seat] & SUIT_MASKS[card & 3]
        if card & 3 != trump:
            top = highest(suit_cards, strength)
            if _is_master(card, trump, others) and others & SUIT_MASKS[card & 3]:
                key += 400
            elif top != card and suit_cards.bit_count() == 2 and not _is_master(top, trump, others):
                key += 150  # the last guard of a ten or king
        if key < best_key:
            best, best_key = card, key
    return best
