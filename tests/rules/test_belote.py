"""Belote and rebelote: docs/rules.md, "Belote and rebelote"."""

from games import rules
from tests.rules.helpers import act, of_type, play_cards, play_vector, position, rejection
from tests.rules.positions import ALL_TRUMPS, all_trumps_plays


def test_belote_and_rebelote_are_announced_for_the_holder_by_default() -> None:
    _, events = play_cards(position(ALL_TRUMPS, trump="H", taker=1), all_trumps_plays())
    calls = [(e["card"], e["belote"]) for e in of_type(events, "card_played") if e["belote"]]
    assert calls == [("QH", "belote"), ("KH", "rebelote")]
    (scored,) = of_type(events, "hand_scored")
    assert scored["belote_team"] == 1


def test_belote_counts_toward_the_contract() -> None:
    # 72 card points + 20 = 92 beat the defenders' 90.
    _, scored = play_vector("belote_makes_the_contract")
    assert scored["totals"] == [92, 90]
    assert scored["outcome"] == "made"


def test_takers_inside_keep_their_belote() -> None:
    _, scored = play_vector("belote_kept_by_takers_inside")
    assert scored["outcome"] == "inside"
    assert scored["scores"] == [20, 182]


def test_belote_counts_whichever_side_has_the_better_declarations() -> None:
    _, scored = play_vector("belote_kept_by_takers_inside")
    assert scored["counted_declarations"]["team"] == 1
    assert scored["belote_team"] == 0


def test_belote_counts_when_its_king_or_queen_is_in_a_sequence() -> None:
    _, scored = play_vector("belote_with_king_or_queen_in_a_sequence")
    assert scored["belote_team"] == 1
    assert scored["counted_declarations"] == {"team": 1, "points": 20}
    assert scored["scores"] == [182, 20]


def test_without_auto_belote_the_first_of_the_pair_carries_a_choice() -> None:
    state = position(ALL_TRUMPS, trump="H", taker=1, auto_belote=False)
    state, _ = play_cards(state, all_trumps_plays()[:20])
    offered = [a for a in rules.legal_actions(state, 1) if a.get("card") == "QH"]
    assert sorted(a["belote"] for a in offered) == [False, True]
    assert rejection(state, 1, {"type": "play", "card": "QH"}) == "belote_choice_required"


def test_a_belote_choice_on_another_card_is_refused() -> None:
    state = position(ALL_TRUMPS, trump="H", taker=1, auto_belote=False)
    assert (
        rejection(state, 1, {"type": "play", "card": "7H", "belote": True}) == "belote_not_allowed"
    )


def test_announced_belote_scores_without_auto_belote() -> None:
    _, scored = play_vector("auto_belote_off_announced")
    assert scored["belote_team"] == 1
    assert (scored["totals"], scored["outcome"]) == ([85, 97], "made")


def test_an_unannounced_belote_does_not_score() -> None:
    _, scored = play_vector("auto_belote_off_not_announced")
    assert scored["belote_team"] is None
    assert (scored["totals"], scored["outcome"], scored["scores"]) == ([85, 77], "inside", [162, 0])


def test_declining_belote_then_playing_the_second_card_announces_nothing() -> None:
    state = position(ALL_TRUMPS, trump="H", taker=1, auto_belote=False)
    plays = all_trumps_plays()
    state, _ = play_cards(state, plays[:20])
    state, events = act(state, 1, {"type": "play", "card": "QH", "belote": False})
    state, more = play_cards(state, plays[21:])
    played = of_type(events + more, "card_played")
    assert [e["belote"] for e in played if e["card"] in {"QH", "KH"}] == [None, None]
    (scored,) = of_type(more, "hand_scored")
    assert scored["belote_team"] is None
