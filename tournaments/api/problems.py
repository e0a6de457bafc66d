"""The problem answers of the tournament endpoints, for OpenAPI: per status, its codes."""

from __future__ import annotations

from belote_project.schema import Responses, problem
from games.api.problems import IDEMPOTENCY_KEY_CODES

TOURNAMENT_NOT_FOUND = problem(
    404, "TournamentNotFound", ["tournament_not_found", "not_found"], "No such tournament."
)
TEAM_NOT_FOUND = problem(
    404,
    "TeamNotFound",
    ["tournament_not_found", "team_not_found", "not_found"],
    "No such tournament, or no such team in it.",
)
NOT_ORGANISER = problem(
    403, "NotTournamentOrganiser", ["not_tournament_organiser"], "You do not organise it."
)
CREATE_REFUSED: Responses = problem(
    422,
    "TournamentRefused",
    ["invalid_options", "invalid_tournament", "untimed_tournament", *IDEMPOTENCY_KEY_CODES],
    "`invalid_options`: the table options (see `errors`); `invalid_tournament`: rounds "
    "given or missing for the format, or a registration window that closes before it opens; "
    "`untimed_tournament`: `turn_seconds` null (a tournament's games always have a clock); "
    "or an Idempotency-Key problem (`idempotency_key_invalid`, `idempotency_key_reused`).",
)
REGISTRATION_CONFLICT = problem(
    409,
    "RegistrationConflict",
    ["registration_closed", "already_registered"],
    "`registration_closed`: outside the window, full, or started (a Swiss takes late "
    "entries until half its rounds have started); `already_registered`: you or your "
    "partner are in a team of it already.",
)
REGISTER_REFUSED = problem(
    422, "BotPartnerRefused", ["bot_partner_refused"], "This tournament allows no bot partners."
)
PLAYER_NOT_FOUND = problem(
    404,
    "RegisterNotFound",
    ["tournament_not_found", "player_not_found", "not_found"],
    "No such tournament, or no player by the partner's name.",
)
BOT_TEAM_CONFLICT = problem(
    409, "BotTeamConflict", ["registration_closed"], "Registration is not open."
)
INVITATION_CONFLICT = problem(
    409,
    "InvitationConflict",
    ["invitation_not_pending", "registration_closed"],
    "The team is not waiting for its partner, or registration closed meanwhile.",
)
NOT_INVITED = problem(403, "NotInvited", ["not_invited"], "The invitation is for another player.")
WITHDRAWAL_CONFLICT = problem(
    409,
    "WithdrawalConflict",
    ["withdrawal_closed"],
    "Withdrawn already, over, or started in a format without withdrawals (all but Swiss).",
)
NOT_MEMBER = problem(
    403, "NotTeamMember", ["not_team_member"], "Only its players or the organiser may."
)
START_CONFLICT = problem(
    409,
    "StartConflict",
    ["tournament_started", "not_enough_teams"],
    "Started already, or too few registered teams (two, and for a Swiss one more than its rounds).",
)
PLAYER_HAS_NO_RATING = problem(
    404,
    "RatingNotFound",
    ["player_not_found"],
    "No player by that name, or one who has played no rated game.",
)
