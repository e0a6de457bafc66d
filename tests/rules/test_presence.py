"""Timeouts and absent seats (docs/clocks.md): the rules count timeouts and hand a seat to
a bot after `absent_after` of them; a player may leave a running game and come back."""

from __future__ import annotations

from typing import Any

import pytest

from games import rules
from tests.rules.helpers import SEED, hands

ROWS = (
    "JH 9H AH TH KS QS JS 9S",
    "KH QH 8H 7H AS TS 8S 7S",
    "AD TD KD QD JD 9D 8D 7D",
    "AC TC KC QC JC 9C 8C 7C",
)


def bidding(**option_values: Any) -> rules.GameState:
    """Bidding round 1 of a hand dealt by seat 3: seat 0 speaks first."""
    return rules.dealt_position(
        options=rules.Options.from_dict(option_values),
        dealer=3,
        deck=[card for row in hands(*ROWS) for card in row],
    )


def decided(state: rules.GameState, command: rules.Command) -> tuple[rules.GameState, list[str]]:
    events = rules.decide(state, command)
    return rules.replay(events, state), [rules.event_to_dict(e)["type"] for e in events]


def passes(seat: int, *, timed_out: bool = False) -> rules.PlayerAction:
    return rules.PlayerAction(seat, rules.Pass(), SEED, timed_out=timed_out)


def test_a_timeout_is_the_seats_move_followed_by_its_mark() -> None:
    state, types = decided(bidding(), passes(0, timed_out=True))
    assert types == ["bid", "turn_timed_out"]
    assert state.timeouts == (1, 0, 0, 0)
    assert state.turn == 1
    assert state.absent == (False, False, False, False)


def test_the_seats_own_move_clears_its_timeouts() -> None:
    state, _ = decided(bidding(), passes(0, timed_out=True))
    for seat in (1, 2, 3):
        state, _ = decided(state, passes(seat))
    state, types = decided(state, passes(0))
    assert types == ["bid"]
    assert state.timeouts == (0, 0, 0, 0)


def test_after_absent_after_consecutive_timeouts_a_bot_takes_the_seat() -> None:
    state, _ = decided(bidding(absent_after=2), passes(0, timed_out=True))
    for seat in (1, 2, 3):
        state, _ = decided(state, passes(seat))
    state, types = decided(state, passes(0, timed_out=True))
    assert types == ["bid", "turn_timed_out", "seat_absent"]
    assert state.timeouts == (2, 0, 0, 0)
    assert state.absent == (True, False, False, False)
    assert rules.summary(state).absent == (0,)
    assert rules.view(state, 1)["absent_seats"] == [0]


def test_the_bot_playing_an_absent_seat_leaves_its_timeouts_until_its_player_returns() -> None:
    state, _ = decided(bidding(absent_after=1), passes(0, timed_out=True))
    for seat in (1, 2, 3, 0):  # round 1 over: seat 0 speaks first in round 2, a bot for it
        state, _ = decided(state, passes(seat))
    assert (state.absent[0], state.timeouts[0]) == (True, 1)
    assert rules.view(state, 0)["timeouts"][0] == 1
    state, _ = decided(state, rules.ReturnSeat(0))
    assert state.timeouts[0] == 0


def test_one_timeout_is_enough_with_absent_after_1() -> None:
    _, types = decided(bidding(absent_after=1), passes(0, timed_out=True))
    assert types == ["bid", "turn_timed_out", "seat_absent"]


def test_an_absent_seat_has_no_clock() -> None:
    state, _ = decided(bidding(), rules.LeaveSeat(0))
    with pytest.raises(rules.RuleError) as raised:
        rules.decide(state, passes(0, timed_out=True))
    assert raised.value.code == "seat_absent"


def test_a_player_leaves_a_running_game_and_takes_the_seat_back() -> None:
    state, types = decided(bidding(), rules.LeaveSeat(2))
    assert types == ["seat_absent"]
    assert rules.event_to_dict(rules.decide(bidding(), rules.LeaveSeat(2))[0]) == {
        "type": "seat_absent",
        "v": 1,
        "seat": 2,
        "reason": "left",
    }
    assert state.absent == (False, False, True, False)
    assert state.turn == 0  # nobody's turn moves
    state, types = decided(state, rules.ReturnSeat(2))
    assert types == ["seat_returned"]
    assert state.absent == (False, False, False, False)


def test_returning_clears_the_seats_timeouts() -> None:
    state, _ = decided(bidding(absent_after=1), passes(0, timed_out=True))
    state, _ = decided(state, rules.ReturnSeat(0))
    assert (state.absent[0], state.timeouts[0]) == (False, 0)


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (rules.ReturnSeat(1), "seat_present"),
        (rules.LeaveSeat(4), "invalid_action"),
    ],
)
def test_presence_changes_that_make_no_sense_are_refused(command: rules.Command, code: str) -> None:
    with pytest.raises(rules.RuleError) as raised:
        rules.decide(bidding(), command)
    assert raised.value.code == code


def test_leaving_twice_is_refused() -> None:
    state, _ = decided(bidding(), rules.LeaveSeat(1))
    with pytest.raises(rules.RuleError) as raised:
        rules.decide(state, rules.LeaveSeat(1))
    assert raised.value.code == "seat_absent"


def test_nobody_leaves_a_game_that_has_not_started() -> None:
    with pytest.raises(rules.RuleError) as raised:
        rules.decide(rules.new_game(), rules.LeaveSeat(0))
    assert raised.value.code == "wrong_phase"


def test_presence_events_round_trip_through_their_wire_form() -> None:
    state, _ = decided(bidding(absent_after=1), passes(0, timed_out=True))
    for event in (
        rules.decide(bidding(), passes(0, timed_out=True))[1],
        rules.decide(bidding(), rules.LeaveSeat(3))[0],
        rules.decide(state, rules.ReturnSeat(0))[0],
    ):
        assert rules.event_from_dict(rules.event_to_dict(event)) == event
