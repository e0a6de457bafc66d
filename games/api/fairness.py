"""What a game view shows of commit-reveal (docs/fairness.md): public from the start."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

Serializer = serializers.Serializer[Any]


@extend_schema_serializer(component_name="Fairness")
class FairnessSerializer(Serializer):
    secret_chain = serializers.CharField(
        allow_blank=True,
        help_text=(
            "The commitment to every hand's secret, published when the table is created: "
            "each hand's secret is revealed when it ends (docs/fairness.md). Empty for a "
            "table from before commit-reveal."
        ),
    )
    client_seeds = serializers.ListField(
        child=serializers.CharField(allow_null=True, allow_blank=True),
        min_length=4,
        max_length=4,
        help_text="Each seat's contribution to every deal, by seat (null: nobody sits there).",
    )
