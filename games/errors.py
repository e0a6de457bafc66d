"""The failures of game commands, as problem+json errors with stable codes."""

from http import HTTPStatus
from typing import Any

from django.utils.translation import gettext as gettext_now
from django.utils.translation import gettext_lazy as _

from belote_project.errors import (
    ApplicationError,
    ConflictError,
    FieldError,
    ForbiddenError,
    NotFoundError,
    UnprocessableError,
)
from games import rules
from games.rule_messages import option_detail, rule_detail, rule_title


class GameNotFoundError(NotFoundError):
    code = "game_not_found"
    title = _("No such game")


class NotSeatedError(ForbiddenError):
    code = "not_seated"
    title = _("You have no seat at this table")


class NotOrganiserError(ForbiddenError):
    code = "not_organiser"
    title = _("Only the table's creator or a seated player may do this")


class SeatTakenError(ConflictError):
    code = "seat_taken"
    title = _("That seat is taken")


class TableFullError(ConflictError):
    code = "table_full"
    title = _("No seat is free")


class AlreadySeatedError(ConflictError):
    code = "already_seated"
    title = _("You already have a seat at this table")


class SeatEmptyError(ConflictError):
    code = "seat_empty"
    title = _("Nobody sits there")


class NoHumanSeatedError(ConflictError):
    code = "no_human_seated"
    title = _("A table starts only with a person seated")


class GameAlreadyStartedError(ConflictError):
    code = "game_already_started"
    title = _("The game has started")


class TableClosedError(ConflictError):
    code = "table_closed"
    title = _("The table is closed")


class GameNotStartedError(ConflictError):
    code = "game_not_started"
    title = _("The game has not started yet")


class GameOverError(ConflictError):
    code = "game_over"
    title = _("The game is over")


class VersionConflictError(ConflictError):
    """The client's `expected_version` is stale; `extra` carries the current view."""

    code = "version_conflict"
    title = _("The game has moved on")

    def __init__(self, *, expected: int, current: int, game: dict[str, Any]) -> None:
        super().__init__(
            gettext_now("You acted on version %(expected)d; the game is at version %(current)d.")
            % {"expected": expected, "current": current},
            extra={"current_version": current, "game": game},
        )


class SeatAbsentError(ConflictError):
    """The player acted while a bot holds their seat (docs/clocks.md)."""

    code = "seat_absent"
    title = _("A bot plays your seat while you are away: take it back first")


class VersionRequiredError(ApplicationError):
    status = HTTPStatus.PRECONDITION_REQUIRED
    code = "version_required"
    title = _("Say which version you act on")


class RuleViolationError(UnprocessableError):
    """A rules `RuleError`, keeping its code (`must_follow_suit`, `not_your_turn`, ...);
    its title and detail are the code's, in the request's language (games/rule_messages.py)."""

    title = _("Not allowed by the rules")

    def __init__(self, error: rules.RuleError) -> None:
        super().__init__(rule_detail(error), code=error.code, title=rule_title(error))


class InvalidTableOptionsError(UnprocessableError):
    code = "invalid_options"
    title = _("Invalid table options")

    def __init__(self, error: rules.InvalidOptions) -> None:
        message = option_detail(error)
        super().__init__(
            message,
            errors=[FieldError(field=f"options.{error.field}", code=error.reason, message=message)],
        )


class GameNotOverError(ConflictError):
    """A running game's log or audit: its seeds are still secret (docs/audit.md)."""

    code = "game_not_over"
    title = _("The game is not over yet")


class EventNotFoundError(NotFoundError):
    code = "event_not_found"
    title = _("The game has no event at that seq")
