"""Small helpers that build positions and drive the rules engine the way the service does."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from games import rules

SEED = bytes(32)


def cards(text: str) -> list[str]:
    """`cards("JH 9H 7S")` -> `["JH", "9H", "7S"]`."""
    return text.split()


def hands(*rows: str) -> list[list[str]]:
    """Four 8-card hands, seat 0 first, each written as one string."""
    assert len(rows) == 4
    dealt = [cards(row) for row in rows]
    flat = [card for row in dealt for card in row]
    assert all(len(row) == 8 for row in dealt), "each seat holds 8 cards"
    assert len(set(flat)) == 32, "the four hands must hold the 32 cards once each"
    return dealt


def position(
    rows: Sequence[str],
    *,
    trump: str,
    taker: int,
    dealer: int = 0,
    **option_values: Any,
) -> rules.GameState:
    """A hand after bidding and the full deal, `dealer + 1` to lead."""
    return rules.playing_position(
        options=rules.Options.from_dict(option_values),
        dealer=dealer,
        hands=hands(*rows),
        taker=taker,
        trump=trump,
    )


def act(
    state: rules.GameState, seat: int, action: Mapping[str, Any], seed: bytes = SEED
) -> tuple[rules.GameState, list[dict[str, Any]]]:
    """Decide and apply one action; return the new state and the events as dicts."""
    command = rules.PlayerAction(
        seat=seat, action=rules.parse_action(dict(action)), next_hand_seed=seed
    )
    produced = rules.decide(state, command)
    for event in produced:
        state = rules.apply(state, event)
    return state, [rules.event_to_dict(event) for event in produced]


def play(
    state: rules.GameState, seat: int, card: str
) -> tuple[rules.GameState, list[dict[str, Any]]]:
    return act(state, seat, {"type": "play", "card": card})


def play_cards(
    state: rules.GameState, plays: Iterable[tuple[int, str]]
) -> tuple[rules.GameState, list[dict[str, Any]]]:
    """Play `(seat, card)` pairs in order; return the final state and every event."""
    events: list[dict[str, Any]] = []
    for seat, card in plays:
        state, produced = play(state, seat, card)
        events.extend(produced)
    return state, events


def rejection(state: rules.GameState, seat: int, action: Mapping[str, Any]) -> str:
    """The code of the rule error `decide` raises for this action."""
    command = rules.PlayerAction(
        seat=seat, action=rules.parse_action(dict(action)), next_hand_seed=SEED
    )
    with pytest.raises(rules.RuleError) as raised:
        rules.decide(state, command)
    return raised.value.code


def legal_cards(state: rules.GameState, seat: int) -> set[str]:
    return {a["card"] for a in rules.legal_actions(state, seat) if a["type"] == "play"}


def of_type(events: Iterable[Mapping[str, Any]], kind: str) -> list[Mapping[str, Any]]:
    return [event for event in events if event["type"] == kind]


REPO = Path(__file__).resolve().parents[2]


def _vectors_path() -> Path:
    """The repo's copy first, then $BELOTE_VECTORS, then the shared checkout beside the repo."""
    candidates = [
        Path(__file__).parent / "data" / "hands.json",
        *([Path(os.environ["BELOTE_VECTORS"])] if os.environ.get("BELOTE_VECTORS") else []),
        REPO.parent / "shared" / "vectors" / "hands.json",
    ]
    return next(path for path in candidates if path.is_file())


@cache
def vector_file() -> dict[str, Any]:
    """The conformance vectors (format: the vectors' README)."""
    return json.loads(_vectors_path().read_text())  # type: ignore[no-any-return]


def vector(name: str) -> dict[str, Any]:
    (found,) = [v for v in vector_file()["vectors"] if v["name"] == name]
    return dict(found)


def vector_position(
    hand: Mapping[str, Any],
    options: Mapping[str, Any],
    *,
    scores: tuple[int, int] = (0, 0),
    number: int = 1,
    waiting: int | None = None,
) -> rules.GameState:
    """A vector hand after its deal, with the game so far (`scores`, `waiting`) carried in."""
    return rules.playing_position(
        options=rules.Options.from_dict(dict(options)),
        dealer=hand["dealer"],
        hands=hand["hands"],
        taker=hand["taker"],
        trump=hand["trump"],
        waiting_points=hand["waiting_before"] if waiting is None else waiting,
        scores=scores,
        hand_number=number,
    )


def play_vector_hand(
    state: rules.GameState, spec: Mapping[str, Any], *, check_legal: bool = False
) -> tuple[rules.GameState, list[dict[str, Any]]]:
    """Play a vector hand's 32 cards from `state`, announcing as the vector says.

    With `check_legal`, compare the legal cards before each play with the vector's.
    """
    announced = {int(seat): listed for seat, listed in spec["announced"].items() if listed}
    started: set[int] = set()
    events: list[dict[str, Any]] = []
    for index, (seat, card) in enumerate(spec["plays"]):
        offered = rules.legal_actions(state, seat)
        if check_legal:
            legal = {a["card"] for a in offered if a["type"] == "play"}
            assert legal == set(spec["expected"]["legal"][index]), f"legal before plays[{index}]"
        if seat in announced and seat not in started:
            state, produced = act(state, seat, {"type": "declare", "declarations": announced[seat]})
            events.extend(produced)
        started.add(seat)
        action: dict[str, Any] = {"type": "play", "card": card}
        if any(a.get("belote") is not None for a in offered if a.get("card") == card):
            action["belote"] = spec["belote_announced"] == seat
        state, produced = act(state, seat, action)
        events.extend(produced)
    return state, events


def scored_in(events: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    (scored,) = of_type(events, "hand_scored")
    return dict(scored)


def play_vector(name: str, **option_overrides: Any) -> tuple[rules.GameState, dict[str, Any]]:
    """Play the named vector hand; return the final state and its `hand_scored` payload."""
    spec = vector(name)
    state, events = play_vector_hand(
        vector_position(spec, {**spec["options"], **option_overrides}), spec
    )
    return state, scored_in(events)
