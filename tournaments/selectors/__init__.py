"""Reads: a tournament, its teams, standings, rounds and progress feed; the ratings."""

from tournaments.selectors.ratings import leaderboard, rating_history, rating_line, rating_of
from tournaments.selectors.tournament import (
    events_after,
    rounds_of,
    standings_of,
    team_line,
    tournament_detail,
    tournament_get,
    tournament_list,
)

__all__ = [
    "events_after",
    "leaderboard",
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
