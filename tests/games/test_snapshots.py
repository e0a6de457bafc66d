"""The snapshot encoding: JSON that round-trips every state and can build rules types only."""

from __future__ import annotations

import json
import random

import pytest

from games import rules
from games.store.snapshots import UndecodableSnapshotError, decode, encode


def _states_of_a_random_game(seed: int) -> list[rules.GameState]:
    rng = random.Random(seed)
    state = rules.new_game()
    command = rules.StartGame(
        options=rules.Options(), game_seed=rng.randbytes(32), hand_seed=rng.randbytes(32)
    )
    states = []
    events = rules.decide(state, command)
    while True:
        state = rules.replay(events, state)
        states.append(state)
        public = rules.view(state, None)
        if public["status"] == "finished":
            return states
        action = rng.choice(rules.legal_actions(state, public["turn"]))
        events = rules.decide(
            state, rules.PlayerAction(public["turn"], rules.parse_action(action), rng.randbytes(32))
        )


@pytest.mark.parametrize("seed", [1, 2])
def test_every_state_of_a_game_survives_a_json_round_trip(seed):
    for state in _states_of_a_random_game(seed):
        stored = json.loads(json.dumps(encode(state)))
        assert decode(stored) == state


@pytest.mark.parametrize(
    "stored",
    [
        {"type": "os.system", "fields": {"command": "true"}},
        {"type": "builtins.eval", "fields": {}},
        {"type": "state.GameState", "fields": {"no_such_field": 1}},
        {"exec": "print(1)"},
        {"bytes": "zz"},
        3.5,
    ],
)
def test_a_value_that_is_not_a_rules_state_is_refused(stored):
    with pytest.raises(UndecodableSnapshotError):
        decode(stored)


def test_a_value_outside_the_rules_types_cannot_be_encoded():
    with pytest.raises(TypeError):
        encode(object())
