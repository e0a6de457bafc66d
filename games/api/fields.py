"""The leaves of the game's wire format: cards, suits, seats, teams and their pairs."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

#: A card: rank (7 8 9 T J Q K A) then suit (C D H S), e.g. `JH`, `TS`.
CARD_PATTERN = r"^[789TJQKA][CDHS]$"
#: Suits by their letter: clubs, diamonds, hearts, spades.
SUIT_CHOICES = ("C", "D", "H", "S")
BELOTE_CALLS = ("belote", "rebelote")
DECLARATION_KINDS = ("tierce", "quarte", "quint", "four")
PHASES = ("waiting", "bidding_1", "bidding_2", "playing", "finished")


def card_field(**kwargs: Any) -> serializers.RegexField:
    return serializers.RegexField(CARD_PATTERN, **kwargs)


def seat_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, max_value=3, **kwargs)


def team_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, max_value=1, **kwargs)


def team_pair(help_text: str, *, allow_null: bool = False) -> serializers.ListField:
    """Two numbers, team 0's (seats 0 and 2) then team 1's (seats 1 and 3)."""
    return serializers.ListField(
        child=serializers.IntegerField(),
        min_length=2,
        max_length=2,
        allow_null=allow_null,
        help_text=help_text,
    )


def suit_field(**kwargs: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=SUIT_CHOICES, **kwargs)
