"""The shapes of the audit endpoints' answers (games/api/audit.py, docs/audit.md)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from games.api.fields import card_field, team_field, team_pair
from games.api.serializers import GameViewSerializer
from games.models import ActorKind, BotLevel

Serializer = serializers.Serializer[Any]
HASH_PATTERN = r"^[0-9a-f]{64}$"

#: the names of the verifier's checks (games/audit/report.py)
DISCREPANCIES = (
    "line",
    "seq",
    "chain",
    "receipt",
    "event",
    "illegal_action",
    "unexpected_event",
    "missing_event",
    "seed_commitment",
    "deal",
    "seed_reveal",
    "game_seed",
    "secret_commitment",
    "contribution_changed",
    "hand_seed",
    "secret_reveal",
    "hand_score",
    "result",
    "bot_move",
)


@extend_schema_serializer(component_name="ExportedEvent")
class ExportEventSerializer(Serializer):
    """One line of a game's exported log: a stored event and its link of the chain."""

    seq = serializers.IntegerField(min_value=1)
    type = serializers.CharField(help_text="The event's type (see the `Event` schema).")
    schema_version = serializers.IntegerField(min_value=1)
    payload = serializers.DictField(help_text="The event as stored, without `type` and `v`.")
    hash = serializers.RegexField(
        HASH_PATTERN, help_text="SHA-256 of the previous hash and this event's record."
    )
    actor_kind = serializers.ChoiceField(choices=ActorKind.choices)
    created_at = serializers.DateTimeField()
    bot_level = serializers.ChoiceField(
        choices=BotLevel.choices,
        required=False,
        allow_null=True,
        help_text="On a bot's move: the level that chose it (not hashed).",
    )


class DiscrepancySerializer(Serializer):
    seq = serializers.IntegerField(min_value=1, help_text="The first event found wrong.")
    what = serializers.ChoiceField(choices=DISCREPANCIES, help_text="The check that failed.")
    expected = serializers.JSONField(help_text="What the check expected there.")
    found = serializers.JSONField(help_text="What the log holds there.")


@extend_schema_serializer(component_name="AuditReport")
class AuditReportSerializer(Serializer):
    id = serializers.UUIDField()
    valid = serializers.BooleanField()
    events = serializers.IntegerField(min_value=0)
    head_hash = serializers.RegexField(HASH_PATTERN, help_text="The last event's hash.")
    finished = serializers.BooleanField(help_text="Whether the log reaches the game's end.")
    hands = serializers.IntegerField(min_value=0, help_text="Hands dealt.")
    checks = serializers.ListField(
        child=serializers.CharField(), help_text="The checks that passed, in order."
    )
    discrepancy = DiscrepancySerializer(allow_null=True)
    scores = team_pair("The final scores, once finished.", allow_null=True)
    winner = team_field(allow_null=True, help_text="The winning team, once finished.")


def _all_hands() -> type[Serializer]:
    cards = {str(seat): serializers.ListField(child=card_field()) for seat in range(4)}
    cls = type("AllHandsSerializer", (Serializer,), cards)
    return extend_schema_serializer(component_name="AllHands")(cls)


AllHandsSerializer = _all_hands()


@extend_schema_serializer(component_name="ReplayView")
class ReplayViewSerializer(GameViewSerializer):
    """The game as of event `version`, as the caller may see it (GameView, no clock)."""

    # DRF's documented way to drop an inherited field; the clock is not replayed
    turn_deadline = None  # type: ignore[assignment]
    time_banks_ms = None  # type: ignore[assignment]
    complete = serializers.BooleanField(
        help_text="The game has ended: the replay shows everything (`all_hands`)."
    )
    all_hands = AllHandsSerializer(
        allow_null=True, help_text="Every seat's cards then, once the game has ended."
    )
