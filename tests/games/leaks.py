"""Hidden-information checks: what a response to one seat may not contain."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from uuid import UUID

from games import rules, store

CARD = re.compile(r"^[789TJQKA][SHDC]$")
SEATS = range(4)


def card_strings(value: Any) -> Iterator[str]:
    """Every string in a JSON document that is a card, plus cards named inside texts."""
    if isinstance(value, dict):
        for item in value.values():
            yield from card_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_strings(item)
    elif isinstance(value, str):
        if CARD.match(value):
            yield value
        else:
            yield from re.findall(r"\b[789TJQKA][SHDC]\b", value)


def hidden_from(game_id: str, viewer: int | None) -> set[str]:
    """The unplayed cards of the other seats that nobody but their holder knows now."""
    state = store.load(UUID(game_id)).state
    public = set(card_strings(rules.view(state, None)))
    others = set()
    for seat in SEATS:
        if seat != viewer:
            others.update(rules.view(state, seat)["hand"])
    return others - public


def assert_no_leak(
    game_id: str, viewer: int | None, body: Any, sent: frozenset[str] = frozenset()
) -> None:
    """`body` (a view, an error, a conflict) names none of the others' hidden cards.

    `sent`: cards the viewer named in the request, which an error may echo.
    """
    leaked = set(card_strings(body)) & hidden_from(game_id, viewer) - sent
    assert not leaked, f"seat {viewer} was shown {sorted(leaked)}"


def assert_events_redacted(viewer: int | None, events: list[dict[str, Any]]) -> None:
    """Dealt cards only for the viewer's own seat; stock and unrevealed seeds never."""
    own = {str(viewer)} if viewer is not None else set()
    for event in events:
        data = event["data"]
        if event["type"] == "hand_dealt":
            assert "stock" not in data
            assert "seed" not in data
            assert set(data["cards"]) <= own
        if event["type"] == "rest_dealt":
            assert set(data["cards"]) <= own
        if event["type"] == "declared" and data["seat"] != viewer:
            for declaration in data["declarations"]:
                assert "cards" not in declaration or declaration["cards"] == []
