"""End of the game: RULES.md, section End of the game. The two vector games, hand by hand."""

from typing import Any

from games import rules
from tests.rules.helpers import of_type, play_vector_hand, vector_file, vector_position


def game(name: str) -> dict[str, Any]:
    (found,) = [g for g in vector_file()["games"] if g["name"] == name]
    return dict(found)


def play_game(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """Each hand from its dealt position, carrying scores and waiting points over."""
    scores, waiting = (0, 0), 0
    after: list[dict[str, Any]] = []
    for hand_number, hand in enumerate(spec["hands"], start=1):
        state = vector_position(
            hand, spec["options"], scores=scores, number=hand_number, waiting=waiting
        )
        state, events = play_vector_hand(state, hand)
        view = rules.view(state, None)
        finished = of_type(events, "game_finished")
        after.append(
            {
                "scores": view["scores"],
                "waiting": view["waiting_points"],
                "winner": finished[0]["winner"] if finished else None,
            }
        )
        scores, waiting = tuple(view["scores"]), view["waiting_points"]
    return after


def test_a_litige_carried_twice_accumulates_and_goes_to_the_next_winner() -> None:
    after = play_game(game("waiting_points_across_two_litiges"))
    assert [a["waiting"] for a in after] == [81, 152, 0]
    assert after[-1]["scores"] == [175, 331]


def test_the_game_goes_on_while_points_are_waiting_even_past_the_target() -> None:
    after = play_game(game("waiting_points_across_two_litiges"))
    assert after[1]["scores"][0] >= 100
    assert after[1]["winner"] is None


def test_the_game_goes_on_while_the_scores_are_equal_at_the_target() -> None:
    after = play_game(game("game_end_rule"))
    assert after[1] == {"scores": [162, 162], "waiting": 0, "winner": None}


def test_the_higher_score_wins_once_a_side_reaches_the_target() -> None:
    after = play_game(game("game_end_rule"))
    assert after[-1] == {"scores": [263, 425], "waiting": 0, "winner": 1}


def test_no_action_is_legal_once_the_game_is_finished() -> None:
    spec = game("game_end_rule")
    last = len(spec["hands"])
    # Before the last hand: 243-162 with 81 waiting (expected.after_each_hand[2]).
    state = vector_position(
        spec["hands"][-1], spec["options"], scores=(243, 162), number=last, waiting=81
    )
    state, _ = play_vector_hand(state, spec["hands"][-1])
    view = rules.view(state, None)
    assert (view["status"], view["phase"], view["winner"]) == ("finished", "finished", 1)
    assert all(rules.legal_actions(state, seat) == [] for seat in range(4))
