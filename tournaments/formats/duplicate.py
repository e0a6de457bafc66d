"""Duplicate: each board (a deal) played at two tables with the teams' seats swapped,
scored board by board on an IMP-like scale (docs/tournaments.md, "Duplicate").

At the first table of a board the home team holds seats 0 and 2, at the second the away
team does, so each team holds both sides of the deal once. A board's swing is what the
home team did better than the away team with the same cards; the scale turns it into
board points (IMPs) so that one wild board cannot outweigh every other. The pairings of
the rounds are those of a round robin.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.formats.records import Outcome

#: the swing (Belote points) from which each further IMP is won: a swing under 10 is
#: worth nothing, 10-29 one IMP, ..., 410 or more (a capot swung) the most, 10
IMP_STEPS = (10, 30, 50, 80, 120, 160, 210, 260, 330, 410)
IMP_MAX = len(IMP_STEPS)


@dataclass(frozen=True, slots=True)
class BoardPlayed:
    """One board of a match: each table's scores as the game reports them, team 0
    (seats 0 and 2) first. The home team is team 0 at `first`, team 1 at `second`."""

    first: tuple[int, int]
    second: tuple[int, int]

    @property
    def swing(self) -> int:
        """The home team's points at both tables minus the away team's."""
        return (self.first[0] - self.first[1]) + (self.second[1] - self.second[0])


def imps(swing: int) -> int:
    """A swing on the IMP scale, with its sign (the home team's side)."""
    size = bisect.bisect_right(IMP_STEPS, abs(swing))
    return size if swing >= 0 else -size


def match_imps(boards: Sequence[BoardPlayed]) -> tuple[int, int]:
    """The IMPs each side won over the boards (home, away): a board's IMPs go to the
    side that did better on it."""
    won = [imps(board.swing) for board in boards]
    return sum(value for value in won if value > 0), -sum(value for value in won if value < 0)


def match_outcome(boards: Sequence[BoardPlayed]) -> Outcome:
    """The side with more IMPs wins the match; equal IMPs are a draw."""
    home, away = match_imps(boards)
    if home == away:
        return Outcome.DRAW
    return Outcome.HOME if home > away else Outcome.AWAY
