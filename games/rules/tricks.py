"""Tricks: which card wins one, which cards a player may play on it, what it is worth.

docs/rules.md, "Play". `legal_cards_mask` is the one place the legality of a card is
decided: `decide`, `legal_moves` and the bots' simulations all call it.
"""

from __future__ import annotations

from games.rules.cards import LAST_TRICK_BONUS, POINTS, SUIT_MASKS, TRUMP_ABOVE, WIN_KEYS


def winning(trick: tuple[int, ...], trump: int) -> tuple[int, int]:
    """(index in the trick, card id) of the card winning a (partial) trick so far."""
    keys = WIN_KEYS[4 * trump + (trick[0] & 3)]
    best_index = 0
    for index in range(1, len(trick)):
        if keys[trick[index]] > keys[trick[best_index]]:
            best_index = index
    return best_index, trick[best_index]


def legal_cards_mask(
    hand: int, trick: tuple[int, ...], trump: int, overtrump_partner_on_trump_lead: bool = True
) -> int:
    """The cards of `hand` (a mask) that may be played on `trick` (card ids in
    play order, leader first; the player is the next one after them)."""
    if not trick:
        return hand
    win_index, win_card = winning(trick, trump)
    led = trick[0] & 3
    following = hand & SUIT_MASKS[led]
    partner_winning = win_index == len(trick) - 2
    if following:
        if led != trump:
            return following
        higher = following & TRUMP_ABOVE[win_card]
        if higher and (overtrump_partner_on_trump_lead or not partner_winning):
            return higher
        return following
    if partner_winning:
        return hand
    trumps = hand & SUIT_MASKS[trump]
    if not trumps:
        return hand
    if win_card & 3 == trump:
        return trumps & TRUMP_ABOVE[win_card] or trumps
    return trumps


def trick_points(cards: tuple[int, ...], trump: int, last: bool) -> int:
    """What a full trick is worth, with the 10 of the hand's last trick."""
    return sum(POINTS[trump][card] for card in cards) + (LAST_TRICK_BONUS if last else 0)
