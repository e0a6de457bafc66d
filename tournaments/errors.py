"""The failures of tournament commands, as problem+json errors with stable codes."""

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from belote_project.errors import (
    ConflictError,
    FieldError,
    ForbiddenError,
    NotFoundError,
    UnprocessableError,
)


class TournamentNotFoundError(NotFoundError):
    code = "tournament_not_found"
    title = _("No such tournament")


class TeamNotFoundError(NotFoundError):
    code = "team_not_found"
    title = _("No such team in this tournament")


class PlayerNotFoundError(NotFoundError):
    code = "player_not_found"
    title = _("No player goes by that name")


class NotTournamentOrganiserError(ForbiddenError):
    code = "not_tournament_organiser"
    title = _("Only the tournament's organiser may do this")


class NotTeamMemberError(ForbiddenError):
    code = "not_team_member"
    title = _("You are not in this team")


class NotInvitedError(ForbiddenError):
    code = "not_invited"
    title = _("This invitation is for another player")


class RegistrationClosedError(ConflictError):
    code = "registration_closed"
    title = _("Registration is not open")


class AlreadyRegisteredError(ConflictError):
    code = "already_registered"
    title = _("That player is in a team of this tournament already")


class InvitationNotPendingError(ConflictError):
    code = "invitation_not_pending"
    title = _("This team is not waiting for its partner")


class WithdrawalClosedError(ConflictError):
    code = "withdrawal_closed"
    title = _("This team cannot withdraw now")


class TournamentStartedError(ConflictError):
    code = "tournament_started"
    title = _("The tournament has started")


class NotEnoughTeamsError(ConflictError):
    code = "not_enough_teams"
    title = _("Too few teams for this tournament")


class BotPartnerRefusedError(UnprocessableError):
    code = "bot_partner_refused"
    title = _("This tournament does not allow bot partners")


class InvalidTournamentError(UnprocessableError):
    code = "invalid_tournament"
    title = _("Invalid tournament settings")


class UntimedTournamentError(UnprocessableError):
    code = "untimed_tournament"
    title = _("A tournament's games need a turn clock")

    def __init__(self) -> None:
        message = gettext(
            "Give turn_seconds a number of seconds, or leave it out for the default: an "
            "untimed game would wait for ever on an absent player."
        )
        super().__init__(
            message,
            errors=[FieldError(field="options.turn_seconds", code="required", message=message)],
        )


class TournamentOverError(ConflictError):
    code = "tournament_over"
    title = _("The tournament is over")


class NoHeldRoundError(ConflictError):
    code = "no_held_round"
    title = _("No round of this tournament waits to be opened")


class HeldRoundStaleError(ConflictError):
    code = "held_round_stale"
    title = _("The teams changed since the waiting round was paired: pair it again first")


class RoundUnpairableError(ConflictError):
    code = "round_unpairable"
    title = _("The teams left cannot be paired for this round")
