"""What a finished hand is worth to one team: the expert's objective.

The score itself comes from the rules package (`score_hand`); this only turns
it into one number, one team's delta minus the other's, with no waiting points
(a litige's waiting half counts for nobody, as in the benchmark).
"""

from __future__ import annotations

from games.rules.options import Options
from games.rules.scoring import score_hand


class Objective:
    """The margin of `team` at the end of a hand, from the trick points and counts."""

    __slots__ = (
        "_belote_team",
        "_cache",
        "_counted_points",
        "_counted_team",
        "_options",
        "_taker_team",
        "team",
    )

    def __init__(
        self,
        options: Options,
        *,
        team: int,
        taker_team: int,
        counted_team: int | None,
        counted_points: int,
        belote_team: int | None,
    ) -> None:
        self._options = options
        self.team = team
        self._taker_team = taker_team
        self._counted_team = counted_team
        self._counted_points = counted_points
        self._belote_team = belote_team
        self._cache: dict[tuple[int, int], int] = {}

    def __call__(self, points: list[int], tricks: list[int]) -> int:
        """The margin for final trick points and tricks won (team 0, team 1)."""
        key = (points[0], tricks[0])
        value = self._cache.get(key)
        if value is None:
            result = score_hand(
                self._options,
                taker_team=self._taker_team,
                trick_points=(points[0], points[1]),
                tricks_won=(tricks[0], tricks[1]),
                counted_team=self._counted_team,
                counted_points=self._counted_points,
                belote_team=self._belote_team,
                waiting_before=0,
            )
            value = result.deltas[self.team] - result.deltas[1 - self.team]
            self._cache[key] = value
        return value
