"""The failures of game commands, as problem+json errors with stable codes."""

from http import HTTPStatus
from typing import Any

from belote_project.errors import (
    ApplicationError,
    ConflictError,
    FieldError,
    ForbiddenError,
    NotFoundError,
    UnprocessableError,
)
from games import rules


class GameNotFoundError(NotFoundError):
    code = "game_not_found"
    title = "No such game"


class NotSeatedError(ForbiddenError):
    code = "not_seated"
    title = "You have no seat at this table"


class NotOrganiserError(ForbiddenError):
    code = "not_organiser"
    title = "Only the table's creator or a seated player may do this"


class SeatTakenError(ConflictError):
    code = "seat_taken"
    title = "That seat is taken"


class TableFullError(ConflictError):
    code = "table_full"
    title = "No seat is free"


class AlreadySeatedError(ConflictError):
    code = "already_seated"
    title = "You already have a seat at this table"


class SeatEmptyError(ConflictError):
    code = "seat_empty"
    title = "Nobody sits there"


class NoHumanSeatedError(ConflictError):
    code = "no_human_seated"
    title = "A table starts only with a person seated"


class GameAlreadyStartedError(ConflictError):
    code = "game_already_started"
    title = "The game has started"


class GameNotStartedError(ConflictError):
    code = "game_not_started"
    title = "The game has not started yet"


class GameOverError(ConflictError):
    code = "game_over"
    title = "The game is over"


class VersionConflictError(ConflictError):
    """The client's `expected_version` is stale; `extra` carries the current view."""

    code = "version_conflict"
    title = "The game has moved on"

    def __init__(self, *, expected: int, current: int, game: dict[str, Any]) -> None:
        super().__init__(
            f"You acted on version {expected}; the game is at version {current}.",
            extra={"current_version": current, "game": game},
        )


class SeatAbsentError(ConflictError):
    """The player acted while a bot holds their seat (docs/clocks.md)."""

    code = "seat_absent"
    title = "A bot plays your seat while you are away: take it back first"


class VersionRequiredError(ApplicationError):
    status = HTTPStatus.PRECONDITION_REQUIRED
    code = "version_required"
    title = "Say which version you act on"


class RuleViolationError(UnprocessableError):
    """A rules `RuleError`, keeping its code (`must_follow_suit`, `not_your_turn`, ...)."""

    title = "Not allowed by the rules"

    def __init__(self, error: rules.RuleError) -> None:
        super().__init__(error.message, code=error.code)


class InvalidTableOptionsError(UnprocessableError):
    code = "invalid_options"
    title = "Invalid table options"

    def __init__(self, error: rules.InvalidOptions) -> None:
        super().__init__(
            error.message,
            errors=[
                FieldError(field=f"options.{error.field}", code=error.reason, message=error.message)
            ],
        )
