"""drf-spectacular's settings: how the OpenAPI document is titled, typed and tagged."""

from typing import Any

OPENAPI_SETTINGS: dict[str, Any] = {
    "TITLE": "Belote API",
    "DESCRIPTION": (
        "A hosted French Belote service. Authenticate with `Authorization: Bearer <token>` "
        "(from /api/v1/auth/register or /api/v1/auth/token). Every error is "
        "`application/problem+json` (RFC 9457) with a stable `code`. A problem's `title` "
        "and `detail` are written in the language `Accept-Language` asks for, English or "
        "French (English for any other), and `Content-Language` says which; its `code` is "
        "the same in every language. The rules this service plays, with every table option, "
        "are in docs/rules.md of the service's repository."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "OAS_VERSION": "3.1.0",
    "COMPONENT_SPLIT_REQUEST": True,
    # Our choices' labels repeat their values: listing them in descriptions says nothing.
    "ENUM_GENERATE_CHOICE_DESCRIPTION": False,
    # One component per choice set that several fields share.
    "ENUM_NAME_OVERRIDES": {
        "BotLevelEnum": "games.models.BotLevel",
        "GameStatusEnum": "games.models.GameStatus",
        "SuitEnum": "games.api.fields.SUIT_CHOICES",
        "BeloteCallEnum": "games.api.fields.BELOTE_CALLS",
        "HandScoredTypeEnum": ["hand_scored"],
        # field names both apps use, each for its own choices: the games keep the names
        # they had, the tournaments name theirs
        "KindEnum": "games.api.fields.DECLARATION_KINDS",
        "OutcomeEnum": ["made", "inside", "litige"],
        "MatchOutcomeEnum": "tournaments.api.serializers.OUTCOMES",
        "TeamMemberKindEnum": "tournaments.api.serializers.MEMBER_KINDS",
    },
    "TAGS": [
        {"name": "auth", "description": "Accounts and bearer tokens."},
        {"name": "me", "description": "The signed-in player."},
        {"name": "games", "description": "Tables, seats, bots and moves."},
        {"name": "feed", "description": "A game's events: a page, a long-poll, or live (SSE)."},
        {
            "name": "audit",
            "description": "A game's hash-chained log, its audit, and the game as of any event.",
        },
        {"name": "tournaments", "description": "Tournaments: teams, rounds, standings."},
        {"name": "ratings", "description": "Players' ratings from rated tournament games."},
        {"name": "health", "description": "Whether the service's dependencies answer."},
    ],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.api.request_bodies.close_rules_objects",
        "belote_project.schema.document_retry_after",
    ],
}
