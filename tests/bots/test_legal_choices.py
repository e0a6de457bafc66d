"""Every level answers with one of the seat's legal actions, in every phase."""

import time
from collections import Counter

import pytest

from games import rules
from games.bots import LEVELS, Budget, choose_action
from tests.bots.helpers import positions

SMALL = Budget(samples=3, bid_samples=3)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_returns_a_legal_action(level):
    phases = Counter()
    for number, (state, seat) in enumerate(positions(150, seed=11)):
        seen = rules.view(state, seat)
        action = choose_action(seen, number, level, budget=SMALL)
        assert action in seen["legal_actions"]
        phases[seen["phase"]] += 1
        if any(a["type"] == "declare" for a in seen["legal_actions"]):
            phases["declare"] += 1
        if any("belote" in a for a in seen["legal_actions"]):
            phases["belote choice"] += 1
    assert {"bidding_1", "bidding_2", "playing", "declare"} <= set(phases)


def test_expert_with_its_default_budget_returns_legal_actions():
    for number, (state, seat) in enumerate(positions(12, seed=5)):
        seen = rules.view(state, seat)
        assert choose_action(seen, number, "expert") in seen["legal_actions"]


def test_unknown_level_is_refused():
    state, seat = next(positions(1, seed=1))
    with pytest.raises(ValueError, match="unknown bot level"):
        choose_action(rules.view(state, seat), 0, "grandmaster")


def test_a_seat_with_nothing_to_do_is_refused():
    state, seat = next(positions(1, seed=1))
    with pytest.raises(ValueError, match="no legal action"):
        choose_action(rules.view(state, (seat + 1) % 4), 0, "basic")


def test_a_passed_deadline_still_gives_a_legal_expert_choice():
    expired = Budget(deadline=time.monotonic() - 1.0)
    for number, (state, seat) in enumerate(positions(20, seed=9)):
        seen = rules.view(state, seat)
        assert choose_action(seen, number, "expert", budget=expired) in seen["legal_actions"]


def test_the_budget_may_be_a_dict_of_its_fields():
    state, seat = next(positions(1, seed=2))
    seen = rules.view(state, seat)
    as_dict = choose_action(seen, 4, "expert", budget={"samples": 2, "bid_samples": 2})
    assert as_dict == choose_action(seen, 4, "expert", budget=Budget(samples=2, bid_samples=2))
