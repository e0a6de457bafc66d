"""Serializer fields that take a JSON string and nothing else.

DRF's CharField turns a number into its text (`0` becomes `"0"`): a field whose schema
says `string` would then accept what the schema refuses.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


def _refuse_non_text(field: serializers.Field[Any, Any, Any, Any], data: Any) -> Any:
    if not isinstance(data, str):
        field.fail("invalid")
    return data


class TextField(serializers.CharField):
    """A string, and only a string."""

    def to_internal_value(self, data: Any) -> str:
        return str(super().to_internal_value(_refuse_non_text(self, data)))


class TextPatternField(serializers.RegexField):
    """A string matching a pattern, and only a string."""

    def to_internal_value(self, data: Any) -> str:
        return str(super().to_internal_value(_refuse_non_text(self, data)))
