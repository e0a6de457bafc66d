"""The shared conformance vectors (../shared/vectors/hands.json): 41 hands, 2 games."""

from __future__ import annotations

from typing import Any

import pytest

from games import rules
from tests.rules.helpers import play_vector_hand, scored_in, vector_file, vector_position

VECTORS = vector_file()


@pytest.mark.parametrize("hand", VECTORS["vectors"], ids=lambda h: h["name"])
def test_vector_hand(hand: dict[str, Any]) -> None:
    _, events = play_vector_hand(vector_position(hand, hand["options"]), hand, check_legal=True)
    expected = hand["expected"]
    winners = [e["winner"] for e in events if e["type"] == "trick_won"]
    assert winners == expected["trick_winners"]
    scored = scored_in(events)
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
        start = vector_position(hand, game["options"], scores=scores, number=number)
        state, events = play_vector_hand(start, hand, check_legal=True)
        scored = scored_in(events)
        finished = [e for e in events if e["type"] == "game_finished"]
        scores, waiting = tuple(scored["game_scores"]), scored["waiting_after"]
        assert list(scores) == after["scores"]
        assert waiting == after["waiting"]
        assert (finished[0]["winner"] if finished else None) == after["winner"]
        assert rules.view(state, None)["winner"] == after["winner"]
