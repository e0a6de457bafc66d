"""The game events for OpenAPI: one component per event type, `Event` their union on `type`.

Each describes an event as a viewer receives it (`games.rules.wire` and
`games.rules.view.redact`): dealt cards only for the viewer's own seat, the stock and
an unrevealed seed for nobody, declared cards only once shown.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_serializer
from rest_framework import serializers

from games.api.fields import (
    BELOTE_CALLS,
    DECLARATION_KINDS,
    card_field,
    seat_field,
    suit_field,
    team_field,
    team_pair,
)
from games.api.request_bodies import OptionsSerializer
from games.api.serializers import BidSerializer, HandScoredSerializer, TrickCardSerializer

Serializer = serializers.Serializer[Any]


def _seat_cards() -> type[Serializer]:
    seats = {
        str(seat): serializers.ListField(child=card_field(), required=False) for seat in range(4)
    }
    cls = type("SeatCardsSerializer", (Serializer,), seats)
    return extend_schema_serializer(component_name="SeatCards")(cls)


SeatCardsSerializer = _seat_cards()


def _client_seeds(help_text: str) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.CharField(allow_blank=True),
        min_length=4,
        max_length=4,
        help_text=help_text,
    )


class GameStartedSerializer(Serializer):
    options = OptionsSerializer()
    first_dealer = seat_field()
    game_seed = serializers.CharField(help_text="Public; drawn from hand 1's seed material.")
    secret_chain = serializers.CharField(
        allow_blank=True,
        help_text=(
            "The commitment to every hand's secret, published when the table was created "
            "(docs/fairness.md); empty for a game from before commit-reveal."
        ),
    )
    client_seeds = _client_seeds("Each seat's contribution to every deal, by seat.")


class HandDealtSerializer(Serializer):
    hand = serializers.IntegerField(min_value=1)
    dealer = seat_field()
    seed_commitment = serializers.CharField(help_text="Commits to the hand's seed, shown later.")
    cards = SeatCardsSerializer(help_text="Your five cards, under your seat; `{}` if you watch.")
    turned_card = card_field()
    client_seeds = _client_seeds("The contributions this hand's seed was derived from.")


class HandThrownInSerializer(Serializer):
    hand = serializers.IntegerField(min_value=1)
    seed = serializers.CharField(help_text="The hand's seed, revealed now.")
    secret = serializers.CharField(
        allow_blank=True, help_text="The hand's secret, revealed now (docs/fairness.md)."
    )


class TrumpSetSerializer(Serializer):
    taker = seat_field()
    trump = suit_field()


class RestDealtSerializer(Serializer):
    cards = SeatCardsSerializer(help_text="The cards you receive after the take, under your seat.")


class DeclaredItemSerializer(Serializer):
    kind = serializers.ChoiceField(choices=DECLARATION_KINDS)
    cards = serializers.ListField(
        child=card_field(), required=False, help_text="Absent until shown (your own: always)."
    )


class DeclaredSerializer(Serializer):
    seat = seat_field()
    declarations = DeclaredItemSerializer(many=True)


class CardPlayedSerializer(Serializer):
    seat = seat_field()
    card = card_field()
    belote = serializers.ChoiceField(choices=BELOTE_CALLS, allow_null=True)


class TrickWonSerializer(Serializer):
    trick = serializers.IntegerField(min_value=1, max_value=8)
    winner = seat_field()
    cards = TrickCardSerializer(many=True, help_text="In play order.")
    points = serializers.IntegerField(help_text="Card points, the last trick's 10 included.")


class ShownDeclarationSerializer(Serializer):
    seat = seat_field()
    kind = serializers.ChoiceField(choices=DECLARATION_KINDS)
    cards = serializers.ListField(child=card_field())
    points = serializers.IntegerField()


class DeclarationsShownSerializer(Serializer):
    team = team_field(allow_null=True, help_text="The team whose declarations count, if any.")
    declarations = ShownDeclarationSerializer(many=True)


class GameFinishedSerializer(Serializer):
    winner = team_field(allow_null=True, help_text="null: a draw.")
    scores = team_pair("Final game scores.")


class TurnTimedOutSerializer(Serializer):
    seat = seat_field(help_text="Whose time ran out; the move just before was played for it.")
    consecutive = serializers.IntegerField(
        min_value=1, help_text="That seat's timeouts in a row, this one included."
    )


class SeatAbsentSerializer(Serializer):
    seat = seat_field(help_text="A bot plays this seat from now on.")
    reason = serializers.ChoiceField(
        choices=("timeout", "left"),
        help_text="`timeout`: absent_after timeouts in a row; `left`: its player left.",
    )


class SeatReturnedSerializer(Serializer):
    seat = seat_field(help_text="Its player plays this seat again.")


class TableClosedSerializer(Serializer):
    reason = serializers.ChoiceField(
        choices=("never_filled",),
        help_text="`never_filled`: nobody filled the table in time (docs/clocks.md).",
    )


#: event type -> (component name, its payload, what it says)
EVENT_PAYLOADS: dict[str, tuple[str, type[Serializer], str]] = {
    "game_started": ("GameStarted", GameStartedSerializer, "The fourth seat filled."),
    "hand_dealt": ("HandDealt", HandDealtSerializer, "Five cards each, one turned up."),
    "bid": ("Bid", BidSerializer, "A seat took, passed or chose a suit."),
    "hand_thrown_in": ("HandThrownIn", HandThrownInSerializer, "Everybody passed twice."),
    "trump_set": ("TrumpSet", TrumpSetSerializer, "The bidding ended with a taker."),
    "rest_dealt": ("RestDealt", RestDealtSerializer, "The rest of the deal, after the take."),
    "declared": ("Declared", DeclaredSerializer, "A seat announced declarations."),
    "card_played": ("CardPlayed", CardPlayedSerializer, "A card was played."),
    "trick_won": ("TrickWon", TrickWonSerializer, "A trick was complete."),
    "declarations_shown": (
        "DeclarationsShown",
        DeclarationsShownSerializer,
        "After the first trick: the declarations that count.",
    ),
    "hand_scored": ("HandScored", HandScoredSerializer, "A played hand was scored."),
    "game_finished": ("GameFinished", GameFinishedSerializer, "The game is over."),
    "turn_timed_out": (
        "TurnTimedOut",
        TurnTimedOutSerializer,
        "The service played for a seat whose time ran out (docs/clocks.md).",
    ),
    "seat_absent": ("SeatAbsent", SeatAbsentSerializer, "A bot took a seat over."),
    "seat_returned": ("SeatReturned", SeatReturnedSerializer, "A player took their seat back."),
    "table_closed": ("TableClosed", TableClosedSerializer, "A table that never filled closed."),
}


def _event_serializer(event_type: str, name: str, payload: type[Serializer], doc: str) -> Any:
    members = {
        "__doc__": doc,
        "seq": serializers.IntegerField(
            min_value=1, help_text="Position in the game's stream (1, 2, 3 ...)."
        ),
        "type": serializers.ChoiceField(choices=(event_type,)),
        "v": serializers.IntegerField(help_text="Schema version of this event type."),
        "actor": serializers.ChoiceField(choices=("user", "bot", "system")),
        "created_at": serializers.DateTimeField(),
        "turn_deadline": serializers.DateTimeField(
            allow_null=True,
            help_text=(
                "On the event that starts a timed turn: that turn's deadline, as in the "
                "view (docs/clocks.md); else null."
            ),
        ),
        "data": payload(help_text="The payload, as you may see it."),
    }
    cls = type(f"{name}EventSerializer", (Serializer,), members)
    return extend_schema_serializer(component_name=f"{name}Event")(cls)


EVENT_SERIALIZERS = {
    event_type: _event_serializer(event_type, name, payload, doc)
    for event_type, (name, payload, doc) in EVENT_PAYLOADS.items()
}


def events_field(help_text: str) -> PolymorphicProxySerializer:
    """A list of events, each one of the event components, told apart by `type`."""
    return PolymorphicProxySerializer(
        component_name="Event",
        serializers=EVENT_SERIALIZERS,
        resource_type_field_name="type",
        many=True,
        help_text=help_text,
    )
