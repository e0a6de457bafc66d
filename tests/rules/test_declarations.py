"""Declarations: docs/rules.md, "Declarations". Worked figures come from the vectors."""

import random

import pytest

from games import rules
from games.rules import declarations
from games.rules.cards import mask_from_names
from tests.rules.helpers import act, of_type, play, play_vector, position, rejection, vector


def counted(name: str) -> tuple[int | None, int]:
    _, scored = play_vector(name)
    return scored["counted_declarations"]["team"], scored["counted_declarations"]["points"]


def declare_offers(state: rules.GameState, seat: int) -> list[list[tuple[str, tuple[str, ...]]]]:
    offers = [a for a in rules.legal_actions(state, seat) if a["type"] == "declare"]
    return [
        sorted((d["kind"], tuple(sorted(d["cards"]))) for d in offer["declarations"])
        for offer in offers
    ]


def before_first_card(name: str, seat: int) -> rules.GameState:
    """The vector's position when `seat` is about to play its first card (the time to declare)."""
    spec = vector(name)
    state = opening(name)
    for player, card in spec["plays"]:
        if player == seat:
            return state
        state, _ = play(state, player, card)
    raise AssertionError(f"seat {seat} never plays")


def opening(name: str) -> rules.GameState:
    spec = vector(name)
    return rules.playing_position(
        options=rules.Options.from_dict(spec["options"]),
        dealer=spec["dealer"],
        hands=spec["hands"],
        taker=spec["taker"],
        trump=spec["trump"],
    )


@pytest.mark.parametrize(
    ("name", "team", "points"),
    [
        ("tierce", 1, 20),
        ("quarte", 1, 50),
        ("quint", 1, 100),
        ("four_jacks", 0, 200),
        ("four_nines", 1, 150),
        ("four_aces", 0, 100),
        ("four_tens", 1, 100),
        ("four_kings", 0, 100),
    ],
)
def test_declaration_values(name: str, team: int, points: int) -> None:
    assert counted(name) == (team, points)


def test_a_run_of_six_is_one_quint() -> None:
    assert counted("run_of_six_is_one_quint") == (0, 100)


def test_a_run_of_eight_is_one_quint_not_a_quint_and_a_tierce() -> None:
    assert counted("run_of_eight_is_one_quint") == (1, 100)
    assert declare_offers(before_first_card("run_of_eight_is_one_quint", 3), 3) == [
        [("quint", tuple(sorted(["7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"])))]
    ]


def test_four_sevens_and_four_eights_are_not_declarations() -> None:
    name = "four_sevens_and_four_eights_give_nothing"
    assert declare_offers(before_first_card(name, 0), 0) == []
    assert declare_offers(before_first_card(name, 1), 1) == []
    assert counted("four_sevens_and_four_eights_give_nothing") == (None, 0)


def test_a_card_counts_in_one_declaration_only() -> None:
    assert counted("card_in_two_declarations_counts_once") == (0, 150)


def test_the_best_disjoint_set_is_offered() -> None:
    # Seat 2 holds KS KH KD KC and 9S TS JS QS KS: four kings + quarte (150) beats the quint (100).
    offers = declare_offers(before_first_card("card_in_two_declarations_counts_once", 2), 2)
    assert [("four", ("KC", "KD", "KH", "KS")), ("quarte", ("9S", "JS", "QS", "TS"))] in offers


def test_one_quarte_wipes_out_two_opposing_tierces() -> None:
    assert counted("quarte_beats_two_tierces") == (0, 50)


def test_four_queens_outrank_a_quint_in_trumps() -> None:
    assert counted("four_queens_beat_a_quint") == (1, 100)


def test_the_longer_sequence_wins_at_equal_points() -> None:
    assert counted("longer_sequence_beats_shorter") == (1, 100)


def test_the_higher_top_card_wins_between_equal_sequences() -> None:
    assert counted("higher_top_card_wins") == (0, 20)


def test_a_sequence_in_trumps_breaks_a_tie() -> None:
    assert counted("trump_breaks_a_tie") == (0, 20)


def test_equal_best_declarations_cancel_both_sides() -> None:
    assert counted("equal_best_cancels_both") == (None, 0)


def test_declaring_cards_not_held_is_refused() -> None:
    state = opening("tierce")
    leader = (vector("tierce")["dealer"] + 1) % 4
    bogus = {"type": "declare", "declarations": [{"kind": "tierce", "cards": ["7C", "8C", "9C"]}]}
    held = set(vector("tierce")["hands"][leader])
    assert not {"7C", "8C", "9C"} <= held
    assert rejection(state, leader, bogus) == "invalid_declaration"


def test_a_declaration_that_is_not_a_run_is_refused() -> None:
    state = position(
        (
            "7S 8S 7H 8H 7D 8D 7C 8C",
            "AS TS 9H TH 9D TD 9C TC",
            "KS QS JH QH JD QD JC QC",
            "JS 9S AH KH AD KD AC KC",
        ),
        trump="H",
        taker=0,
    )
    bogus = {"type": "declare", "declarations": [{"kind": "tierce", "cards": ["AS", "TS", "9H"]}]}
    assert rejection(state, 1, bogus) == "invalid_declaration"


def test_declaring_after_the_first_card_is_too_late() -> None:
    spec = vector("tierce")
    state = opening("tierce")
    # Seat 3 holds the tierce 9S TS JS: play up to its first card, then past it.
    for seat, card in spec["plays"]:
        state, _ = play(state, seat, card)
        if seat == 3:
            break
    late = {"type": "declare", "declarations": spec["announced"]["3"]}
    assert declare_offers(state, 3) == []
    assert rejection(state, 3, late) in {"declaration_too_late", "not_your_turn"}


def test_announced_cards_are_shown_to_all_when_the_first_trick_ends() -> None:
    spec = vector("tierce")
    state = opening("tierce")
    shown_at: int | None = None
    for index, (seat, card) in enumerate(spec["plays"][:4]):
        if seat == 3:
            state, _ = act(state, 3, {"type": "declare", "declarations": spec["announced"]["3"]})
            others = rules.view(state, 0)["declarations"]
            assert [d["seat"] for d in others] == [3]
            assert "9S" not in str(others)
        state, events = play(state, seat, card)
        if of_type(events, "declarations_shown"):
            shown_at = index
    assert shown_at == 3
    (declared,) = rules.view(state, 0)["declarations"]
    assert sorted(declared["cards"]) == ["9S", "JS", "TS"]


def test_the_quick_answer_for_hands_without_a_four_matches_the_full_search() -> None:
    # best_sets answers most hands (no four) without searching; the search handles any hand.
    chooser = random.Random(8)
    hands = [sum(1 << card for card in chooser.sample(range(32), 8)) for _ in range(3000)]
    hands += [  # four sevens and four eights (not declarations) beside runs; a four and a run
        mask_from_names(["7C", "7D", "7H", "7S", "8C", "8D", "8H", "8S"]),
        mask_from_names(["7C", "8C", "9C", "JD", "QD", "KD", "AD", "7S"]),
        mask_from_names(["QC", "QD", "QH", "QS", "9S", "TS", "JS", "7H"]),
    ]
    for hand in hands:
        assert declarations.best_sets(hand) == declarations._best_sets_searched(hand)
