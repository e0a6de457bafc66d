"""A table closed before it filled (docs/clocks.md): one event, and the game is over."""

from __future__ import annotations

import pytest

from games import rules
from tests.rules.helpers import SEED


def test_a_waiting_table_closes_with_one_event_and_is_over_without_a_winner() -> None:
    events = rules.decide(rules.new_game(), rules.CloseTable("never_filled"))
    assert [rules.event_to_dict(event) for event in events] == [
        {"type": "table_closed", "v": 1, "reason": "never_filled"}
    ]
    closed = rules.replay(events)
    assert rules.summary(closed) == rules.Summary(
        status="finished", phase="finished", turn=None, scores=(0, 0), winner=None
    )
    assert rules.legal_actions(closed, 0) == []


def test_a_started_game_cannot_be_closed() -> None:
    start = rules.StartGame(game_seed=SEED, hand_seed=SEED)
    started = rules.replay(rules.decide(rules.new_game(), start))
    with pytest.raises(rules.RuleError) as refused:
        rules.decide(started, rules.CloseTable("never_filled"))
    assert refused.value.code == "game_already_started"


def test_a_closed_table_cannot_start() -> None:
    closed = rules.replay(rules.decide(rules.new_game(), rules.CloseTable("never_filled")))
    with pytest.raises(rules.RuleError) as refused:
        rules.decide(closed, rules.StartGame(game_seed=SEED, hand_seed=SEED))
    assert refused.value.code == "game_already_started"


def test_the_closing_event_is_public() -> None:
    (event,) = rules.decide(rules.new_game(), rules.CloseTable("never_filled"))
    closed = rules.apply(rules.new_game(), event)
    for seat in (None, 0, 1, 2, 3):
        assert rules.redact(event, seat, closed) == rules.event_to_dict(event)
