"""The game endpoints' answers for OpenAPI: the game view, to the leaves, and the lists.

The game view itself is built by `games.rules.view` and `games.selectors`; these
serializers describe it (tests/api/test_schema_matches_rules.py keeps the two in step).
What a client sends (table options, actions) is in `request_bodies.py`, the events in
`event_serializers.py`.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

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
from games.api.request_bodies import ActionSerializer, OptionsSerializer
from games.models import BotLevel, GameStatus

Serializer = serializers.Serializer[Any]


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
