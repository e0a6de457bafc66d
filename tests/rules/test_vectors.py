"""The shared conformance vectors (../shared/vectors/hands.json): 41 hands, 2 games."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from games import rules

REPO = Path(__file__).resolve().parents[2]


def _vectors_path() -> Path:
    """The repo's copy first, then $BELOTE_VECTORS, then the shared checkout beside the repo."""
    candidates = [
        Path(__file__).parent / "data" / "hands.json",
        *([Path(os.environ["BELOTE_VECTORS"])] if os.environ.get("BELOTE_VECTORS") else []),
        REPO.parent / "shared" / "vectors" / "hands.json",
    ]
    return next(path for path in candidates if path.is_file())


VECTORS: dict[str, Any] = json.loads(_vectors_path().read_text())


def _start(hand: dict[str, Any], options: dict[str, Any], scores=(0, 0), number=1) -> Any:
    return rules.playing_position(
        options=rules.Options.from_dict(options),
        dealer=hand["dealer"],
        hands=hand["hands"],
        taker=hand["taker"],
        trump=hand["trump"],
        waiting_points=hand["waiting_before"],
        scores=scores,
        hand_number=number,
    )


def _act(state: Any, seat: int, action: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
    command = rules.PlayerAction(seat, rules.parse_action(action), bytes(32))
    events = rules.decide(state, command)
    return rules.replay(events, state), [rules.event_to_dict(e) for e in events]


def _play_hand(state: Any, hand: dict[str, Any], check_legal: bool) -> tuple[Any, list[dict]]:
    """Play the 32 cards with the announcements; return the end state and all events."""
    events: list[dict[str, Any]] = []
    started: set[int] = set()
    belote_seat = hand["belote_announced"]
    for index, (seat, card) in enumerate(hand["plays"]):
        offered = rules.legal_actions(state, seat)
        legal = {a["card"] for a in offered if a["type"] == "play"}
        if check_legal:
            assert legal == set(hand["expected"]["legal"][index]), f"legal before plays[{index}]"
        if seat not in started and hand["announced"][str(seat)]:
            declare = {"type": "declare", "declarations": hand["announced"][str(seat)]}
            state, produced = _act(state, seat, declare)
            events += produced
        started.add(seat)
        play: dict[str, Any] = {"type": "play", "card": card}
        if any(a.get("belote") is not None for a in offered if a.get("card") == card):
            play["belote"] = belote_seat == seat
        state, produced = _act(state, seat, play)
        events += produced
    return state, events


def _scored(events: list[dict[str, Any]]) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "hand_scored")


@pytest.mark.parametrize("hand", VECTORS["vectors"], ids=lambda h: h["name"])
def test_vector_hand(hand: dict[str, Any]) -> None:
    state = _start(hand, hand["options"])
    _, events = _play_hand(state, hand, check_legal=True)
    expected = hand["expected"]
    winners = [e["winner"] for e in events if e["type"] == "trick_won"]
    assert winners == expected["trick_winners"]
    scored = _scored(events)
    for key in (
        "card_points",
        "counted_declarations",
        "belote_team",
        "totals",
        "outcome",
        "scores",
        "waiting_after",
        "waiting_to",
        "deltas",
    ):
        assert scored[key] == expected[key], key


def test_all_vectors_are_run() -> None:
    assert len(VECTORS["vectors"]) == 41
    assert len(VECTORS["games"]) == 2


@pytest.mark.parametrize("game", VECTORS["games"], ids=lambda g: g["name"])
def test_vector_game(game: dict[str, Any]) -> None:
    scores, waiting = (0, 0), 0
    for number, (hand, after) in enumerate(
        zip(game["hands"], game["expected"]["after_each_hand"], strict=True), start=1
    ):
        assert hand["dealer"] == (game["first_dealer"] + number - 1) % 4
        assert hand["waiting_before"] == waiting
        state = _start(hand, game["options"], scores, number)
        state, events = _play_hand(state, hand, check_legal=True)
        scored = _scored(events)
        finished = [e for e in events if e["type"] == "game_finished"]
        scores, waiting = tuple(scored["game_scores"]), scored["waiting_after"]
        assert list(scores) == after["scores"]
        assert waiting == after["waiting"]
        assert (finished[0]["winner"] if finished else None) == after["winner"]
        assert rules.view(state, None)["winner"] == after["winner"]
