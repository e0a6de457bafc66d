"""Reads: a tournament, its teams, standings, rounds and progress feed; the ratings."""

from tournaments.selectors.ratings import leaderboard, rating_history, rating_line, rating_of
from tournaments.selectors.tournament import (
    ProgressPage,
    progress_page,
    rounds_of,
    standings_of,
    team_line,
    tournament_detail,
    tournament_get,
    tournament_list,
)

__all__ = [
    "ProgressPage",
    "leaderboard",
    "progress_page",
    "rating_history",
    "rating_line",
    "rating_of",
    "rounds_of",
    "standings_of",
    "team_line",
    "tournament_detail",
    "tournament_get",
    "tournament_list",
]
