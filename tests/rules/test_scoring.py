"""Scoring a hand: docs/rules.md, "Scoring", and the card values of "Cards and ranks"."""

from typing import Any

import pytest

from games import rules
from games.rules.scoring import HandResult, score_hand
from tests.rules.helpers import of_type, play_cards, play_vector, position, vector_file
from tests.rules.positions import ALL_TRUMPS, all_trumps_plays


def capot(**options: Any) -> dict[str, Any]:
    _, events = play_cards(position(ALL_TRUMPS, **options), all_trumps_plays())
    (scored,) = of_type(events, "hand_scored")
    return dict(scored)


NOT_CAPOT = [v["name"] for v in vector_file()["vectors"] if 0 not in v["expected"]["card_points"]]


@pytest.mark.parametrize("name", NOT_CAPOT[:12])
def test_card_points_of_a_hand_add_up_to_162(name: str) -> None:
    _, scored = play_vector(name)
    assert sum(scored["card_points"]) == 162


def test_the_last_trick_is_worth_ten_more() -> None:
    _, events = play_cards(position(ALL_TRUMPS, trump="H", taker=1), all_trumps_plays())
    points = [w["points"] for w in of_type(events, "trick_won")]
    # The last trick holds AH, AD, AC and TD: 11 + 11 + 11 + 10, plus 10 for the last trick.
    assert points[-1] == 11 + 11 + 11 + 10 + 10
    assert sum(points) == 162


def test_takers_with_the_greater_total_score_their_own() -> None:
    _, scored = play_vector("made_contract")
    assert (scored["totals"], scored["outcome"], scored["scores"]) == ([74, 88], "made", [74, 88])


def test_takers_with_the_smaller_total_are_inside() -> None:
    _, scored = play_vector("equal_best_cancels_both")
    assert scored["outcome"] == "inside"
    assert scored["scores"] == [0, 162]


def test_inside_defenders_score_162_and_both_sides_declarations() -> None:
    _, scored = play_vector("inside_with_declarations_on_both_sides")
    assert scored["counted_declarations"] == {"team": 1, "points": 20}
    assert (scored["outcome"], scored["scores"]) == ("inside", [182, 0])


def test_takers_who_win_no_trick_are_inside_whatever_their_declarations() -> None:
    _, scored = play_vector("takers_without_a_trick_are_inside")
    assert scored["totals"] == [270, 252]
    assert (scored["outcome"], scored["scores"]) == ("inside", [0, 522])


def test_capot_by_the_takers_is_worth_252() -> None:
    scored = capot(trump="H", taker=1)
    assert scored["card_points"] == [0, 252]
    assert scored["belote_team"] == 1
    assert (scored["totals"], scored["outcome"], scored["scores"]) == ([0, 272], "made", [0, 272])


def test_capot_is_worth_250_with_the_capot_points_option() -> None:
    scored = capot(trump="H", taker=1, capot_points=250)
    assert scored["card_points"] == [0, 250]
    assert scored["scores"] == [0, 270]


def test_capot_by_the_defenders_leaves_the_takers_inside() -> None:
    scored = capot(trump="H", taker=0)
    assert scored["card_points"] == [0, 252]
    assert (scored["outcome"], scored["scores"]) == ("inside", [0, 272])


def test_capot_vectors() -> None:
    assert play_vector("capot_by_takers")[1]["scores"] == [0, 252]
    assert play_vector("capot_by_takers_250")[1]["scores"] == [0, 250]
    assert play_vector("defenders_capot")[1]["scores"] == [252, 0]


def test_81_81_is_a_litige_with_81_waiting() -> None:
    _, scored = play_vector("litige_81_81")
    assert (scored["outcome"], scored["scores"], scored["waiting_after"]) == ("litige", [81, 0], 81)


def test_in_a_litige_the_takers_keep_their_belote_and_the_rest_waits() -> None:
    _, scored = play_vector("litige_takers_keep_belote")
    assert (scored["scores"], scored["waiting_after"]) == ([20, 91], 71)


def test_waiting_points_go_to_the_takers_when_they_score_more() -> None:
    _, scored = play_vector("waiting_points_go_to_the_takers")
    assert (scored["waiting_to"], scored["deltas"], scored["waiting_after"]) == (1, [64, 179], 0)


def test_waiting_points_go_to_the_defenders_when_they_score_more() -> None:
    _, scored = play_vector("waiting_points_go_to_the_defenders")
    assert (scored["waiting_to"], scored["deltas"], scored["waiting_after"]) == (1, [0, 243], 0)


def hand_score(trick_points: tuple[int, int], **kwargs: Any) -> HandResult:
    """Team 0 took; eight tricks split so that nobody is capot or without a trick."""
    return score_hand(
        rules.Options(),
        taker_team=0,
        trick_points=trick_points,
        tricks_won=(4, 4),
        counted_team=kwargs.get("counted_team"),
        counted_points=kwargs.get("counted_points", 0),
        belote_team=kwargs.get("belote_team"),
        waiting_before=kwargs.get("waiting_before", 0),
    )


def test_without_declarations_the_takers_need_82_card_points() -> None:
    made = hand_score((82, 80))
    assert (made.outcome, made.scores) == ("made", (82, 80))
    short = hand_score((80, 82))
    assert (short.outcome, short.scores) == ("inside", (0, 162))


def test_81_to_81_is_the_litige_of_the_worked_check() -> None:
    tie = hand_score((81, 81))
    assert (tie.outcome, tie.scores, tie.waiting_after) == ("litige", (0, 81), 81)


def test_72_card_points_and_belote_beat_90() -> None:
    result = hand_score((72, 90), belote_team=0)
    assert (result.totals, result.outcome, result.scores) == ((92, 90), "made", (92, 90))


def test_a_further_litige_adds_to_what_is_waiting() -> None:
    result = hand_score((81, 81), waiting_before=81)
    assert (result.outcome, result.waiting_after, result.waiting_to) == ("litige", 162, None)
