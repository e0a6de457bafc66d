"""The values the formats work on: pairings to play and results already played."""

from __future__ import annotations

import enum
from dataclasses import dataclass

#: match points of a win, a draw and a loss (a bye counts as a win)
WIN, DRAW, LOSS = 2, 1, 0


class Outcome(enum.Enum):
    """How a match ended, from the home team's side of the table."""

    HOME = "home"
    AWAY = "away"
    DRAW = "draw"
    BYE = "bye"
    #: no-show forfeits (docs/tournaments.md): the named side forfeited
    HOME_FORFEIT = "home_forfeit"
    AWAY_FORFEIT = "away_forfeit"
    DOUBLE_FORFEIT = "double_forfeit"


@dataclass(frozen=True, slots=True)
class Pairing:
    """One match of a round: `away` None is a bye for `home`."""

    home: int
    away: int | None


@dataclass(frozen=True, slots=True)
class Result:
    """A match as played: its teams, outcome and game scores (0 for a bye or forfeit)."""

    round: int
    home: int
    away: int | None
    outcome: Outcome
    home_score: int = 0
    away_score: int = 0

    def match_points(self, team: int) -> int:
        """What the match gave `team` (2, 1 or 0)."""
        home = team == self.home
        if self.outcome is Outcome.BYE:
            return WIN
        if self.outcome is Outcome.DRAW:
            return DRAW
        if self.outcome is Outcome.DOUBLE_FORFEIT:
            return LOSS
        won = self.outcome in (Outcome.HOME, Outcome.AWAY_FORFEIT)
        return WIN if won == home else LOSS

    def opponent(self, team: int) -> int | None:
        return self.away if team == self.home else self.home

    def point_difference(self, team: int) -> int:
        """Game points scored minus conceded (a bye or forfeit counts nothing)."""
        if self.outcome in (Outcome.HOME, Outcome.AWAY, Outcome.DRAW):
            diff = self.home_score - self.away_score
            return diff if team == self.home else -diff
        return 0

    def winner(self) -> int | None:
        """The team that won, None for a draw or a double forfeit."""
        if self.outcome in (Outcome.HOME, Outcome.AWAY_FORFEIT, Outcome.BYE):
            return self.home
        if self.outcome in (Outcome.AWAY, Outcome.HOME_FORFEIT):
            return self.away
        return None


class PairingError(ValueError):
    """The teams given cannot be paired this way (too few, a duplicate, ...)."""
