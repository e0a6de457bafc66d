"""Boards, games of one hand for the duplicate format: docs/rules.md, "Boards"."""

from games import rules
from games.rules.state import FINISHED, NO_SEAT
from tests.rules.helpers import (
    SEED,
    act,
    of_type,
    play_vector,
    play_vector_hand,
    vector,
    vector_position,
)
from tests.rules.test_bidding import pass_round
from tests.rules.test_dealing import DECK


def test_a_board_ends_the_game_with_its_one_hand_whatever_the_target() -> None:
    state, _ = play_vector("litige_81_81", board=True, target=10_000)
    made, _ = play_vector("waiting_points_go_to_the_takers", board=True)
    assert (state.phase, made.phase) == (FINISHED, FINISHED)
    assert made.hand_number == 1
    assert made.scores == tuple(made.results[-1].game_scores)


def test_the_higher_score_of_a_board_wins_it() -> None:
    spec = vector("waiting_points_go_to_the_defenders")
    start = vector_position(spec, {**spec["options"], "board": True}, waiting=0)
    _, events = play_vector_hand(start, spec)
    (finished,) = of_type(events, "game_finished")
    (scored,) = of_type(events, "hand_scored")
    assert scored["scores"] == [0, 162]
    assert (finished["winner"], finished["scores"]) == (1, [0, 162])
    assert not of_type(events, "hand_dealt")


def test_a_litige_on_a_board_leaves_each_side_its_own_total_and_nothing_waits() -> None:
    state, scored = play_vector("litige_81_81", board=True)
    assert (scored["outcome"], scored["scores"], scored["waiting_after"]) == ("litige", [81, 81], 0)
    assert (state.winner, state.waiting_points) == (NO_SEAT, 0)


def test_a_litige_on_a_board_counts_the_takers_belote_in_their_total() -> None:
    _, scored = play_vector("litige_takers_keep_belote", board=True)
    assert (scored["scores"], scored["waiting_after"]) == ([91, 91], 0)


def test_an_equal_total_on_a_board_with_tie_rule_inside_is_inside() -> None:
    _, scored = play_vector("litige_81_81", board=True, tie_rule="inside")
    assert (scored["outcome"], scored["scores"]) == ("inside", [162, 0])


def passed_board(**secrets: str) -> list[dict[str, object]]:
    """Every event of a board that all four pass twice (the dealer, seat 0, passes last)."""
    start = rules.dealt_position(dealer=0, deck=DECK, options=rules.Options(board=True))
    state = pass_round(start._replace(**secrets), dealer=0)
    for seat in (1, 2, 3):
        state, _ = act(state, seat, {"type": "pass"})
    state, events = act(state, 0, {"type": "pass"}, seed=SEED)
    assert (state.phase, state.hand_number) == (FINISHED, 1)
    return events


def test_a_passed_board_is_not_dealt_again_and_scores_nothing() -> None:
    events = passed_board()
    assert [event["type"] for event in events] == ["bid", "hand_thrown_in", "game_finished"]
    assert (events[-1]["winner"], events[-1]["scores"]) == (None, [0, 0])


def test_the_end_of_a_board_reveals_neither_its_seed_nor_its_secret() -> None:
    _, scored = play_vector("litige_81_81", board=True)
    (thrown_in,) = of_type(
        passed_board(hand_seed="ab" * 32, hand_secret="cd" * 32), "hand_thrown_in"
    )
    assert (scored["seed"], scored["secret"]) == ("", "")
    assert (thrown_in["seed"], thrown_in["secret"]) == ("", "")
