"""A person leaving a started game for good: `ReleaseSeat` -> `seat_released`."""

import pytest

from games import rules
from tests.rules.helpers import SEED, act


def started() -> rules.GameState:
    command = rules.StartGame(game_seed=SEED, hand_seed=SEED)
    return rules.replay(rules.decide(rules.new_game(), command))


def test_releasing_a_seat_records_the_bot_that_plays_it_and_changes_no_rule_state() -> None:
    state = started()

    (event,) = rules.decide(state, rules.ReleaseSeat(seat=2, bot_level="basic"))

    assert rules.event_to_dict(event) == {
        "type": "seat_released",
        "v": 1,
        "seat": 2,
        "bot_level": "basic",
    }
    assert rules.apply(state, event) == state
    assert rules.event_from_dict(rules.event_to_dict(event)) == event


def test_the_released_seat_is_played_on_by_the_same_rules() -> None:
    state = started()
    seat = state.turn
    (event,) = rules.decide(state, rules.ReleaseSeat(seat=seat, bot_level="random"))
    after = rules.apply(state, event)

    assert rules.legal_actions(after, seat) == rules.legal_actions(state, seat)
    assert act(after, seat, {"type": "pass"})[1][0] == {
        "type": "bid",
        "v": 1,
        "seat": seat,
        "round": 1,
        "bid": "pass",
    }


def test_every_seat_sees_the_whole_release_event() -> None:
    state = started()
    (event,) = rules.decide(state, rules.ReleaseSeat(seat=1, bot_level="basic"))

    for viewer in (None, 0, 1, 2, 3):
        assert rules.redact(event, viewer, state) == rules.event_to_dict(event)


@pytest.mark.parametrize(
    ("state", "code"),
    [
        (rules.new_game(), "wrong_phase"),
        (started()._replace(phase="finished"), "game_over"),
    ],
)
def test_a_seat_is_released_only_while_the_game_is_on(state, code) -> None:
    with pytest.raises(rules.RuleError) as raised:
        rules.decide(state, rules.ReleaseSeat(seat=0, bot_level="basic"))
    assert raised.value.code == code


@pytest.mark.parametrize("seat", [-1, 4, True])
def test_a_seat_other_than_0_to_3_is_refused(seat) -> None:
    with pytest.raises(rules.RuleError) as raised:
        rules.decide(started(), rules.ReleaseSeat(seat=seat, bot_level="basic"))
    assert raised.value.code == "invalid_action"
