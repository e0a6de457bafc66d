"""The game endpoints' wire format for OpenAPI: table options, actions and the game view.

The game view itself is built by `games.rules.view` and `games.selectors`; these
serializers describe it, to the leaves (tests/api/test_schema_matches_rules.py keeps
the two in step). The events are described in `event_serializers.py`.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from games import rules
from games.api.fairness import FairnessSerializer
from games.api.fields import (
    BELOTE_CALLS,
    DECLARATION_KINDS,
    PHASES,
    SUIT_CHOICES,
    card_field,
    seat_field,
    suit_field,
    team_field,
    team_pair,
)
from games.models import BotLevel, GameStatus

Serializer = serializers.Serializer[Any]


class OptionsSerializer(Serializer):
    """Table options (docs/rules.md, "Table options"); omitted ones take their default,
    and an option this service does not know is refused (422 `invalid_options`)."""

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
    board = serializers.BooleanField(
        required=False,
        help_text="A game of one hand, a duplicate board (docs/rules.md, Boards); default false.",
    )


@extend_schema_field(OptionsSerializer)
class OptionsField(serializers.DictField):
    """Passed as-is to the rules' `Options.from_dict`, which owns the validation."""


class DeclarationSerializer(Serializer):
    kind = serializers.ChoiceField(choices=DECLARATION_KINDS)
    cards = serializers.ListField(child=card_field())


class ActionSerializer(Serializer):
    """One action; `legal_actions` lists exactly these shapes, to be POSTed as-is."""

    type = serializers.ChoiceField(choices=("take", "pass", "choose_trump", "declare", "play"))
    suit = suit_field(required=False, help_text="choose_trump: the trump suit.")
    declarations = DeclarationSerializer(many=True, required=False)
    card = card_field(required=False, help_text="play: rank then suit, e.g. `JH`.")
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
    """drf-spectacular postprocessing hook (SPECTACULAR_SETTINGS): request bodies the rules
    parse are closed; the table options answered are not bound by today's limits."""
    schemas = result.get("components", {}).get("schemas", {})
    for name in _CLOSED_REQUEST_COMPONENTS:
        if name in schemas:
            schemas[name]["additionalProperties"] = False
    # The bounds are what a new table may ask for; a table made before them keeps its own.
    answered_target = schemas.get("Options", {}).get("properties", {}).get("target")
    if answered_target is not None:
        answered_target.pop("minimum", None)
        answered_target.pop("maximum", None)
        answered_target["description"] = (
            f"Points to reach. New tables ask for {rules.TARGET_MIN} to {rules.TARGET_MAX}; "
            "older ones may hold another."
        )
    return result


class SeatSerializer(Serializer):
    """Who sits at a seat: a player (`username`), a bot (`bot_level`), or nobody."""

    seat = seat_field()
    username = serializers.CharField(allow_null=True)
    bot_level = serializers.ChoiceField(choices=BotLevel.choices, allow_null=True)


class BidSerializer(Serializer):
    seat = seat_field()
    round = serializers.IntegerField(min_value=1, max_value=2, help_text="Bidding round.")
    bid = serializers.ChoiceField(
        choices=("take", "pass", *SUIT_CHOICES),
        help_text="`take` or `pass`; in round 2, the suit chosen as trump.",
    )


class TrickCardSerializer(Serializer):
    seat = seat_field()
    card = card_field()


class TrickSerializer(Serializer):
    """A trick played in full; `cards` in play order from `leader`."""

    trick = serializers.IntegerField(min_value=1, max_value=8, help_text="1 to 8.")
    leader = seat_field()
    winner = seat_field()
    cards = TrickCardSerializer(many=True)
    points = serializers.IntegerField(help_text="Card points, the last trick's 10 included.")


class SeatDeclarationSerializer(Serializer):
    """A declaration announced at a seat; its `cards` are null until shown (your own: always)."""

    seat = seat_field()
    kind = serializers.ChoiceField(choices=DECLARATION_KINDS)
    cards = serializers.ListField(child=card_field(), allow_null=True)


class BeloteCallSerializer(Serializer):
    seat = seat_field()
    call = serializers.ChoiceField(choices=BELOTE_CALLS)


class CountedDeclarationsSerializer(Serializer):
    team = team_field(allow_null=True, help_text="The team whose declarations count, if any.")
    points = serializers.IntegerField()


class HandScoredSerializer(Serializer):
    """How a played hand was scored (docs/rules.md, "Scoring")."""

    hand = serializers.IntegerField(min_value=1, help_text="Hand number, from 1.")
    taker = seat_field()
    trump = suit_field()
    card_points = team_pair("Card points won by each team.")
    counted_declarations = CountedDeclarationsSerializer()
    belote_team = team_field(allow_null=True, help_text="The team that called belote, if any.")
    totals = team_pair("Card points plus counted declarations and belote.")
    outcome = serializers.ChoiceField(
        choices=("made", "inside", "litige"),
        help_text="`made`: the takers won; `inside`: they lost; `litige`: a tie.",
    )
    scores = team_pair("Points scored by each team this hand.")
    waiting_before = serializers.IntegerField(help_text="Points held over before this hand.")
    waiting_after = serializers.IntegerField(help_text="Points held over after this hand.")
    waiting_to = team_field(allow_null=True, help_text="The team the held-over points go to.")
    deltas = team_pair("What each team's game score gained.")
    game_scores = team_pair("Game scores after this hand.")
    seed = serializers.CharField(help_text="The hand's seed, revealed now (docs/shuffle.md).")
    secret = serializers.CharField(
        allow_blank=True, help_text="The hand's secret, revealed now (docs/fairness.md)."
    )


@extend_schema_serializer(component_name="HandResult")
class HandResultSerializer(HandScoredSerializer):
    type = serializers.ChoiceField(choices=("hand_scored",))
    v = serializers.IntegerField(help_text="Schema version of this record.")


def _hand_sizes() -> type[Serializer]:
    seats = {str(seat): serializers.IntegerField(min_value=0, max_value=8) for seat in range(4)}
    cls = type("HandSizesSerializer", (Serializer,), seats)
    return extend_schema_serializer(component_name="HandSizes")(cls)


HandSizesSerializer = _hand_sizes()


class GameViewSerializer(Serializer):
    """What the caller may see of a game: the whole table, and its own hand only."""

    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=GameStatus.choices)
    version = serializers.IntegerField(help_text="Last event's seq; send as expected_version.")
    head_hash = serializers.RegexField(
        r"^[0-9a-f]{64}$",
        help_text=(
            "The hash of event `version` in the game's hash chain (all zeros before the "
            "first event): keep it with `version` as a receipt; the verifier checks that "
            "the log still leads to it (docs/audit.md)."
        ),
    )
    options = OptionsSerializer()
    fairness = FairnessSerializer(help_text="What the deals are drawn from (docs/fairness.md).")
    seats = SeatSerializer(many=True)
    seat = seat_field(allow_null=True, help_text="Yours, or null if you watch.")
    dealer = seat_field(allow_null=True)
    hand_number = serializers.IntegerField(min_value=0, help_text="0 before the first deal.")
    phase = serializers.ChoiceField(choices=PHASES)
    turn = seat_field(allow_null=True, help_text="The seat to act, if any.")
    turned_card = card_field(allow_null=True, help_text="The card turned up for bidding.")
    trump = suit_field(allow_null=True)
    taker = seat_field(allow_null=True)
    hand = serializers.ListField(child=card_field(), help_text="Your cards; `[]` if you watch.")
    hand_sizes = HandSizesSerializer(help_text="How many cards each seat holds.")
    bids = BidSerializer(many=True, help_text="This hand's bids, in order.")
    trick = TrickCardSerializer(many=True, help_text="The trick being played.")
    last_trick = TrickSerializer(allow_null=True, help_text="The last trick played in full.")
    tricks = TrickSerializer(many=True, help_text="This hand's tricks played in full.")
    tricks_won = team_pair("Tricks won by each team this hand.")
    trick_points = team_pair("Card points won by each team this hand.")
    declarations = SeatDeclarationSerializer(many=True)
    declarations_team = team_field(
        allow_null=True, help_text="The team whose declarations count, once shown."
    )
    belote = BeloteCallSerializer(many=True, help_text="Belote and rebelote called this hand.")
    scores = team_pair("Game scores.")
    waiting_points = serializers.IntegerField(help_text="Points held over by a tie (litige).")
    hands = HandResultSerializer(many=True, help_text="Results of the finished hands.")
    winner = team_field(allow_null=True, help_text="Winning team, once finished.")
    legal_actions = ActionSerializer(
        many=True, help_text="What you may do now, each to be POSTed as-is."
    )
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
        child=seat_field(),
        help_text="Seats a bot plays while their player is away (POST .../return).",
    )
    timeouts = serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        min_length=4,
        max_length=4,
        help_text="Each seat's timeouts since it last played itself (absent_after ends them).",
    )


class GameSummarySerializer(Serializer):
    """A row of the table list."""

    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=GameStatus.choices)
    version = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=PHASES)
    turn = seat_field(allow_null=True)
    scores = team_pair("Game scores.")
    winner = team_field(allow_null=True)
    turn_deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the turn's clock runs out (see the game's view)."
    )
    options = OptionsSerializer()
    seats = SeatSerializer(many=True)
    created_by = serializers.CharField(help_text="The creator's username.")
    created_at = serializers.DateTimeField()
