"""End of the game: docs/rules.md, "End of the game". The two vector games, hand by hand."""

from typing import Any

from games import rules
from tests.rules.helpers import act, of_type, play_vector_hand, vector_file, vector_position


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


def everybody_passes_twice(state: rules.GameState) -> list[dict[str, Any]]:
    """Eight passes from `dealer + 1`: the hand is thrown in."""
    events: list[dict[str, Any]] = []
    for offset in range(8):
        state, produced = act(state, (state.dealer + 1 + offset) % 4, {"type": "pass"})
        events.extend(produced)
    return events


def deck() -> list[str]:
    return [f"{rank}{suit}" for suit in "SHDC" for rank in "789TJQKA"]


def test_a_thrown_in_hand_before_the_last_one_deals_the_next() -> None:
    state = rules.dealt_position(dealer=1, deck=deck(), hand_number=rules.MAX_HANDS - 1)
    events = everybody_passes_twice(state)
    assert [e["type"] for e in events[-2:]] == ["hand_thrown_in", "hand_dealt"]
    assert events[-1]["hand"] == rules.MAX_HANDS


def test_the_game_ends_after_the_last_hand_allowed_even_below_the_target() -> None:
    state = rules.dealt_position(
        dealer=1, deck=deck(), scores=(140, 96), hand_number=rules.MAX_HANDS
    )
    events = everybody_passes_twice(state)
    assert [e["type"] for e in events[-2:]] == ["hand_thrown_in", "game_finished"]
    assert events[-1] == {"type": "game_finished", "v": 1, "winner": 0, "scores": [140, 96]}


def test_equal_scores_after_the_last_hand_allowed_are_a_draw() -> None:
    state = rules.dealt_position(
        dealer=2, deck=deck(), scores=(310, 310), hand_number=rules.MAX_HANDS
    )
    for event in everybody_passes_twice(state):
        state = rules.apply(state, rules.event_from_dict(event))
    view = rules.view(state, None)
    assert (view["status"], view["winner"], view["scores"]) == ("finished", None, [310, 310])
    assert all(rules.legal_actions(state, seat) == [] for seat in range(4))


def test_a_played_last_hand_ends_the_game_and_the_points_waiting_go_to_nobody() -> None:
    spec = game("waiting_points_across_two_litiges")
    options = {**spec["options"], "target": 10_000}
    state = vector_position(
        spec["hands"][0], options, scores=(900, 1000), number=rules.MAX_HANDS, waiting=0
    )
    state, events = play_vector_hand(state, spec["hands"][0])
    (scored,) = of_type(events, "hand_scored")
    assert (scored["outcome"], scored["waiting_after"]) == ("litige", 81)
    (finished,) = of_type(events, "game_finished")
    assert finished == {
        "type": "game_finished",
        "v": 1,
        "winner": 1,
        "scores": scored["game_scores"],
    }
    assert not of_type(events, "hand_dealt")
