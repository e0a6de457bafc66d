"""What a client sends the game endpoints, for OpenAPI: table options and actions.

The rules parse both (`Options.from_dict`, `parse_action`) and own their validation;
these serializers only describe them, and `close_rules_objects` tells the schema that
an unknown key is refused.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games import rules
from games.api.fields import DECLARATION_KINDS, card_field, suit_field

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
