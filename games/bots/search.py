"""Exact minimax (alpha-beta with a transposition table) over the last tricks.

Perfect information: the expert runs it on each sampled deal once few tricks
remain. The value is the final `margin` for one team, so the made / inside /
capot thresholds are searched exactly, not approximated by card points.
"""

from __future__ import annotations

from collections.abc import Callable

from games.bots.playout import Table, close_trick
from games.bots.tables import STRENGTH
from games.rules.tricks import legal_cards_mask

#: final margin for the searching team from (points, tricks) of both teams (an Objective)
Leaf = Callable[[list[int], list[int]], int]
_INFINITY = 1 << 20


class Solver:
    """Alpha-beta over one perfect-information table, for one team."""

    def __init__(self, table: Table, team: int, leaf: Leaf) -> None:
        self.trump = table.trump
        self.overtrump_partner = table.overtrump_partner
        self.team = team
        self.leaf = leaf
        self.order = STRENGTH[table.trump]
        self.cache: dict[tuple[int, ...], tuple[int, int]] = {}
        self.nodes = 0

    def card_values(self, table: Table, cards: list[int]) -> dict[int, int]:
        """The exact value of playing each of `cards` now (the seat to play's choices)."""
        values = {}
        for card in cards:
            child = table.copy()
            child.play(card)
            values[card] = self._search(
                child.hands,
                child.trick,
                child.leader,
                child.points,
                child.tricks,
                -_INFINITY,
                _INFINITY,
            )
        return values

    def _search(  # noqa: PLR0917 (positional: the search's inner loop)
        self,
        hands: list[int],
        trick: tuple[int, ...],
        leader: int,
        points: list[int],
        tricks: list[int],
        alpha: int,
        beta: int,
    ) -> int:
        self.nodes += 1
        seat = (leader + len(trick)) & 3
        if not hands[seat]:
            return self.leaf(points, tricks)
        key: tuple[int, ...] = ()
        if not trick:
            key = (hands[0], hands[1], hands[2], hands[3], leader, points[0], tricks[0])
            bounds = self.cache.get(key)
            if bounds is not None:
                lower, upper = bounds
                if lower >= beta or lower == upper:
                    return lower
                if upper <= alpha:
                    return upper
                alpha, beta = max(alpha, lower), min(beta, upper)
        start_alpha, start_beta = alpha, beta
        maximizing = seat & 1 == self.team
        best = -_INFINITY if maximizing else _INFINITY
        for card in self._ordered(
            legal_cards_mask(hands[seat], trick, self.trump, self.overtrump_partner)
        ):
            value = self._child(hands, trick, leader, points, tricks, seat, card, alpha, beta)
            if maximizing:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        if key:
            lower = best if best > start_alpha else -_INFINITY
            upper = best if best < start_beta else _INFINITY
            self.cache[key] = (lower, upper)
        return best

    def _child(  # noqa: PLR0917 (positional: the search's inner loop)
        self,
        hands: list[int],
        trick: tuple[int, ...],
        leader: int,
        points: list[int],
        tricks: list[int],
        seat: int,
        card: int,
        alpha: int,
        beta: int,
    ) -> int:
        hands[seat] ^= 1 << card
        trick = (*trick, card)
        try:
            if len(trick) < 4:
                return self._search(hands, trick, leader, points, tricks, alpha, beta)
            winner, won = close_trick(trick, leader, self.trump, last=not hands[0])
            team = winner & 1
            points[team] += won
            tricks[team] += 1
            value = self._search(hands, (), winner, points, tricks, alpha, beta)
            points[team] -= won
            tricks[team] -= 1
            return value
        finally:
            hands[seat] ^= 1 << card

    def _ordered(self, legal: int) -> list[int]:
        cards = []
        while legal:
            low = legal & -legal
            cards.append(low.bit_length() - 1)
            legal ^= low
        order = self.order
        cards.sort(key=lambda card: -order[card])
        return cards
