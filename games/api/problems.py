"""The problem answers of the game endpoints, for OpenAPI: per status, the codes it carries."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, PolymorphicProxySerializer
from rest_framework import serializers

from belote_project.problems import PROBLEM_CONTENT_TYPE
from belote_project.schema import Responses, invalid_request, problem, problem_serializer
from games import rules
from games.api.examples import CONFLICT_EXAMPLE
from games.api.serializers import GameViewSerializer

IDEMPOTENCY_KEY_CODES = ("idempotency_key_reused", "idempotency_key_invalid")
IN_FLIGHT = "idempotency_key_in_flight"

GAME_NOT_FOUND = problem(
    404, "GameNotFound", ["game_not_found", "not_found"], "No such game (or no such seat)."
)


def table_refused(description: str) -> Responses:
    """422: the table's options cannot be played (checked when a table is created and when
    its fourth seat fills), or an Idempotency-Key problem."""
    return problem(422, "TableRefused", ["invalid_options", *IDEMPOTENCY_KEY_CODES], description)


FOURTH_SEAT_REFUSED = table_refused(
    "`invalid_options`: this seat would start a table whose options can no longer be "
    "played (see `errors`); or an Idempotency-Key problem (`idempotency_key_invalid`, "
    "`idempotency_key_reused`)."
)
IN_FLIGHT_CONFLICT = problem(
    409, "IdempotencyKeyInFlight", [IN_FLIGHT], "A request with this key is being processed."
)


def seat_conflict(name: str, codes: list[str], description: str) -> Responses:
    """409 for a seat change that the table's state refuses (or a key still in flight)."""
    return problem(409, name, [*codes, IN_FLIGHT], description)


def _play_conflict() -> Responses:
    version_conflict = problem_serializer(
        "VersionConflict",
        ["version_conflict"],
        {
            "current_version": serializers.IntegerField(help_text="The game's version now."),
            "game": GameViewSerializer(help_text="Your view of the game now: decide again."),
        },
    )
    game_state = problem_serializer(
        "GameStateConflict", ["game_not_started", "game_over", "seat_absent", IN_FLIGHT], {}
    )
    either = PolymorphicProxySerializer(
        component_name="ActionConflictProblem",
        serializers=[version_conflict, game_state],
        resource_type_field_name=None,
    )
    description = (
        "`version_conflict`: someone acted first; the problem's `game` is your view now and "
        "`current_version` its version. Otherwise `game_not_started`, `game_over`, "
        "`seat_absent` (a bot plays your seat while you are away: return to it first), or "
        f"`{IN_FLIGHT}`."
    )
    return {
        (409, PROBLEM_CONTENT_TYPE): OpenApiResponse(
            either, description=description, examples=[CONFLICT_EXAMPLE]
        )
    }


#: 409 of a move or a change of who plays a seat: the game moved on, or is not being played
PLAY_CONFLICT = _play_conflict()

ACTION_PROBLEMS: Responses = {
    **invalid_request(
        "Malformed JSON or invalid fields (see `errors`); `invalid_if_match`: If-Match is "
        "not a list of entity tags, names several versions or another than expected_version.",
        "invalid_if_match",
        name="ActionInvalid",
    ),
    **problem(403, "NotSeated", ["not_seated"], "You have no seat at this table."),
    **GAME_NOT_FOUND,
    **PLAY_CONFLICT,
    **problem(
        412,
        "PreconditionFailed",
        ["precondition_failed"],
        "If-Match names no version a game can have (a weak tag, not digits).",
    ),
    **problem(
        422,
        "ActionRefused",
        [*sorted(rules.ERROR_CODES), *IDEMPOTENCY_KEY_CODES],
        "Not allowed by the rules: `code` is the rule's (`not_your_turn`, "
        "`must_follow_suit`, `invalid_action`, ...); or an Idempotency-Key problem.",
    ),
    **problem(
        428,
        "VersionRequired",
        ["version_required"],
        'Neither `expected_version` nor `If-Match: "<version>"` was sent (`If-Match: *` '
        "names none).",
    ),
}

PRESENCE_PROBLEMS: Responses = {
    **problem(403, "NotSeated", ["not_seated"], "You have no seat at this table."),
    **GAME_NOT_FOUND,
    **PLAY_CONFLICT,
    **problem(
        422,
        "IdempotencyKeyRefused",
        list(IDEMPOTENCY_KEY_CODES),
        "An Idempotency-Key problem (`idempotency_key_invalid`, `idempotency_key_reused`).",
    ),
}
