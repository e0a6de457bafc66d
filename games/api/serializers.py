"""Shapes shared by the game endpoints (the OpenAPI documentation of the wire format).

The game view itself is built by `games.rules.view` and `games.selectors`; these
serializers describe it. Examples hold made-up cards of the caller's own hand only.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema_field
from rest_framework import serializers

from games import rules
from games.models import BotLevel, GameStatus

Serializer = serializers.Serializer[Any]


class OptionsSerializer(Serializer):
    """Table options (docs/rules.md, "Table options"); omitted ones take their default.
    Validated by the rules."""

    target = serializers.IntegerField(
        required=False,
        min_value=rules.TARGET_MIN,
        max_value=rules.TARGET_MAX,
        help_text="Default 501.",
    )
    declarations = serializers.BooleanField(required=False, help_text="Default true.")
    auto_belote = serializers.BooleanField(required=False, help_text="Default true.")
    overtrump_partner_on_trump_lead = serializers.BooleanField(
        required=False, help_text="Default true."
    )
    tie_rule = serializers.ChoiceField(
        choices=("litige", "inside"), required=False, help_text="Default litige."
    )
    capot_points = serializers.ChoiceField(
        choices=(252, 250), required=False, help_text="Default 252."
    )
    turn_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=rules.RANGES["turn_seconds"][0],
        max_value=rules.RANGES["turn_seconds"][1],
        help_text="Seconds for each turn; default null: untimed (docs/clocks.md).",
    )
    time_bank_seconds = serializers.IntegerField(
        required=False,
        min_value=rules.RANGES["time_bank_seconds"][0],
        max_value=rules.RANGES["time_bank_seconds"][1],
        help_text="Each seat's reserve, spent when a turn overruns; default 0.",
    )
    absent_after = serializers.IntegerField(
        required=False,
        min_value=rules.RANGES["absent_after"][0],
        max_value=rules.RANGES["absent_after"][1],
        help_text="Consecutive timeouts before a bot takes the seat; default 2.",
    )


@extend_schema_field(OptionsSerializer)
class OptionsField(serializers.DictField):
    """Passed as-is to the rules' `Options.from_dict`, which owns the validation."""


class DeclarationSerializer(Serializer):
    kind = serializers.ChoiceField(choices=("tierce", "quarte", "quint", "four"))
    cards = serializers.ListField(child=serializers.CharField(max_length=2))


class ActionSerializer(Serializer):
    """One action; `legal_actions` lists exactly these shapes, to be POSTed as-is."""

    type = serializers.ChoiceField(choices=("take", "pass", "choose_trump", "declare", "play"))
    suit = serializers.CharField(required=False, help_text="choose_trump: S, H, D or C.")
    declarations = DeclarationSerializer(many=True, required=False)
    card = serializers.CharField(required=False, help_text="play: rank then suit, e.g. `JH`.")
    belote = serializers.BooleanField(
        required=False, allow_null=True, help_text="play, only where auto_belote is off."
    )


@extend_schema_field(ActionSerializer)
class ActionField(serializers.DictField):
    """Passed as-is to the rules' `parse_action`, which owns the validation."""


#: Request bodies the rules parse (`Options.from_dict`, `parse_action`): unlike a DRF
#: serializer, they refuse a key they do not know, and the schema says so.
_CLOSED_REQUEST_COMPONENTS = ("OptionsRequest", "ActionRequest")


def close_rules_objects(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook (SPECTACULAR_SETTINGS)."""
    schemas = result.get("components", {}).get("schemas", {})
    for name in _CLOSED_REQUEST_COMPONENTS:
        if name in schemas:
            schemas[name]["additionalProperties"] = False
    return result


class SeatSerializer(Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=3)
    username = serializers.CharField(allow_null=True)
    bot_level = serializers.ChoiceField(choices=BotLevel.choices, allow_null=True)


class TrickCardSerializer(Serializer):
    seat = serializers.IntegerField()
    card = serializers.CharField()


class GameViewSerializer(Serializer):
    """What the caller may see of a game (`hand` is the caller's own, `[]` for spectators)."""

    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=GameStatus.choices)
    version = serializers.IntegerField(help_text="Last event's seq; send as expected_version.")
    options = OptionsSerializer()
    seats = SeatSerializer(many=True)
    seat = serializers.IntegerField(allow_null=True, help_text="Yours, or null if you watch.")
    dealer = serializers.IntegerField(allow_null=True)
    hand_number = serializers.IntegerField()
    phase = serializers.CharField()
    turn = serializers.IntegerField(allow_null=True)
    turned_card = serializers.CharField(allow_null=True)
    trump = serializers.CharField(allow_null=True)
    taker = serializers.IntegerField(allow_null=True)
    hand = serializers.ListField(child=serializers.CharField())
    hand_sizes = serializers.DictField(child=serializers.IntegerField())
    bids = serializers.ListField(child=serializers.DictField())
    trick = TrickCardSerializer(many=True)
    last_trick = serializers.JSONField(allow_null=True)
    tricks = serializers.ListField(child=serializers.DictField())
    tricks_won = serializers.ListField(child=serializers.IntegerField())
    trick_points = serializers.ListField(child=serializers.IntegerField())
    declarations = serializers.ListField(child=serializers.DictField())
    declarations_team = serializers.IntegerField(
        allow_null=True, help_text="The team whose declarations count, once shown."
    )
    belote = serializers.JSONField()
    scores = serializers.ListField(child=serializers.IntegerField())
    waiting_points = serializers.IntegerField()
    hands = serializers.ListField(
        child=serializers.DictField(), help_text="Results of finished hands."
    )
    winner = serializers.IntegerField(allow_null=True, help_text="Winning team, when finished.")
    turn_deadline = serializers.DateTimeField(
        allow_null=True,
        help_text=(
            "When the service plays the turn for its seat (UTC, milliseconds), time bank "
            "included; null when no clock runs (untimed table, a bot's turn, nobody's turn). "
            "See docs/clocks.md."
        ),
    )
    time_banks_ms = serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        min_length=4,
        max_length=4,
        help_text="Each seat's remaining time bank in milliseconds, by seat.",
    )
    absent_seats = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=3),
        help_text="Seats a bot plays while their player is away (POST .../return).",
    )
    timeouts = serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        min_length=4,
        max_length=4,
        help_text="Each seat's timeouts since it last played itself (absent_after ends them).",
    )
    legal_actions = ActionSerializer(many=True)


class EventSerializer(Serializer):
    """One event as the caller may see it (others' hidden cards removed)."""

    seq = serializers.IntegerField()
    type = serializers.CharField()
    v = serializers.IntegerField(help_text="Schema version of this event type.")
    actor = serializers.ChoiceField(choices=("user", "bot", "system"))
    created_at = serializers.DateTimeField()
    turn_deadline = serializers.DateTimeField(
        allow_null=True,
        help_text=(
            "On the event that starts a timed turn: that turn's deadline, as in the view "
            "(docs/clocks.md); else null."
        ),
    )
    data = serializers.DictField()  # type: ignore[assignment]


class GameSummarySerializer(Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=GameStatus.choices)
    version = serializers.IntegerField()
    phase = serializers.CharField()
    turn = serializers.IntegerField(allow_null=True)
    scores = serializers.ListField(child=serializers.IntegerField())
    winner = serializers.IntegerField(allow_null=True)
    turn_deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the turn's clock runs out (see the game's view)."
    )
    options = OptionsSerializer()
    seats = SeatSerializer(many=True)
    created_by = serializers.CharField()
    created_at = serializers.DateTimeField()


_EXAMPLE_SEATS = [
    {"seat": 0, "username": "alice", "bot_level": None},
    {"seat": 1, "username": "bob", "bot_level": None},
    {"seat": 2, "username": None, "bot_level": "basic"},
    {"seat": 3, "username": "dan", "bot_level": None},
]

EXAMPLE_VIEW: dict[str, Any] = {
    "id": "5f0c4a8e-0000-4000-8000-000000000000",
    "status": "playing",
    "version": 7,
    "options": rules.Options(turn_seconds=30, time_bank_seconds=60).to_dict(),
    "seats": _EXAMPLE_SEATS,
    "seat": 0,
    "dealer": 3,
    "hand_number": 1,
    "phase": "bidding_1",
    "turn": 0,
    "turned_card": "9D",
    "trump": None,
    "taker": None,
    "hand": ["7S", "8S", "QS", "AH", "KC"],
    "hand_sizes": {"0": 5, "1": 5, "2": 5, "3": 5},
    "bids": [],
    "trick": [],
    "last_trick": None,
    "tricks": [],
    "tricks_won": [0, 0],
    "trick_points": [0, 0],
    "declarations": [],
    "declarations_team": None,
    "belote": [],
    "scores": [0, 0],
    "waiting_points": 0,
    "hands": [],
    "winner": None,
    "turn_deadline": "2026-12-01T10:00:30.125Z",
    "time_banks_ms": [60000, 60000, 60000, 60000],
    "absent_seats": [],
    "timeouts": [0, 0, 0, 0],
    "legal_actions": [{"type": "take"}, {"type": "pass"}],
}

VIEW_EXAMPLE = OpenApiExample(
    "Seat 0 to bid (made-up cards: only the caller's own hand is ever shown)",
    value=EXAMPLE_VIEW,
    response_only=True,
)

ACT_EXAMPLES = [
    OpenApiExample(
        "Take the turned card",
        value={"action": {"type": "take"}, "expected_version": 7},
        request_only=True,
    ),
    OpenApiExample(
        "Play a card",
        value={"action": {"type": "play", "card": "JH"}, "expected_version": 31},
        request_only=True,
    ),
    OpenApiExample(
        "Declare a tierce",
        value={
            "action": {
                "type": "declare",
                "declarations": [{"kind": "tierce", "cards": ["7S", "8S", "9S"]}],
            },
            "expected_version": 12,
        },
        request_only=True,
    ),
]

CONFLICT_EXAMPLE = OpenApiExample(
    "Someone acted first: resync from `game` (made-up cards, the caller's own only)",
    value={
        "type": "urn:belote:problem:version_conflict",
        "title": "The game has moved on",
        "status": 409,
        "detail": "You acted on version 6; the game is at version 7.",
        "code": "version_conflict",
        "instance": "/api/v1/games/5f0c4a8e-0000-4000-8000-000000000000/actions",
        "current_version": 7,
        "game": EXAMPLE_VIEW,
    },
    response_only=True,
)
