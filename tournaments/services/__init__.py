"""Tournament commands: every write to a tournament goes through one of these."""

from tournaments.services.pausing import held_round_repair, tournament_pause, tournament_resume
from tournaments.services.ratings import game_rate, ratings_rebuild
from tournaments.services.registration import (
    Settings,
    bot_team_add,
    invitation_answer,
    team_register,
    team_withdraw,
    tournament_create,
)
from tournaments.services.results import game_result_record, unrecorded_games_sweep
from tournaments.services.running import due_tournaments_start, round_close, tournament_start

__all__ = [
    "Settings",
    "bot_team_add",
    "due_tournaments_start",
    "game_rate",
    "game_result_record",
    "held_round_repair",
    "invitation_answer",
    "ratings_rebuild",
    "round_close",
    "team_register",
    "team_withdraw",
    "tournament_create",
    "tournament_pause",
    "tournament_resume",
    "tournament_start",
    "unrecorded_games_sweep",
]
