"""Take or pass: docs/rules.md, "Bidding"."""

from games import rules
from tests.rules.helpers import act, of_type, rejection
from tests.rules.test_dealing import DECK

TURNED = DECK[20]  # 7D: diamonds is the turned suit


def dealt(dealer: int = 0) -> rules.GameState:
    return rules.dealt_position(dealer=dealer, deck=DECK)


def pass_round(state: rules.GameState, dealer: int) -> rules.GameState:
    for offset in range(1, 5):
        state, _ = act(state, (dealer + offset) % 4, {"type": "pass"})
    return state


def test_round_one_starts_with_the_player_after_the_dealer():
    state = dealt(dealer=1)
    view = rules.view(state, None)
    assert (view["phase"], view["turn"]) == ("bidding_1", 2)
    assert sorted(a["type"] for a in rules.legal_actions(state, 2)) == ["pass", "take"]
    assert rules.legal_actions(state, 1) == []


def test_bidding_out_of_turn_is_refused():
    assert rejection(dealt(dealer=1), 3, {"type": "pass"}) == "not_your_turn"


def test_taking_in_round_one_makes_the_turned_suit_trump():
    state, events = act(dealt(dealer=0), 1, {"type": "pass"})
    state, events = act(state, 2, {"type": "take"})
    (trump_set,) = of_type(events, "trump_set")
    assert (trump_set["taker"], trump_set["trump"]) == (2, TURNED[1])
    view = rules.view(state, 0)
    assert (view["taker"], view["trump"], view["phase"]) == (2, "D", "playing")


def test_the_first_take_ends_the_bidding_and_the_player_after_the_dealer_leads():
    state, _ = act(dealt(dealer=0), 1, {"type": "take"})
    assert rules.view(state, None)["turn"] == 1
    assert {a["type"] for a in rules.legal_actions(state, 1)} >= {"play"}
    assert rules.legal_actions(state, 2) == []


def test_round_two_follows_four_passes_and_starts_after_the_dealer():
    state = pass_round(dealt(dealer=0), dealer=0)
    view = rules.view(state, None)
    assert (view["phase"], view["turn"]) == ("bidding_2", 1)


def test_round_two_offers_every_suit_but_the_turned_one():
    state = pass_round(dealt(dealer=0), dealer=0)
    offered = rules.legal_actions(state, 1)
    suits = sorted(a["suit"] for a in offered if a["type"] == "choose_trump")
    assert suits == sorted({"S", "H", "C"})
    assert {"type": "pass"} in offered
    assert {"type": "take"} not in offered


def test_round_two_refuses_the_turned_suit():
    state = pass_round(dealt(dealer=0), dealer=0)
    assert rejection(state, 1, {"type": "choose_trump", "suit": "D"}) == "suit_refused_in_round_2"


def test_choosing_a_suit_in_round_two_makes_it_trump():
    state = pass_round(dealt(dealer=0), dealer=0)
    state, _ = act(state, 1, {"type": "pass"})
    state, events = act(state, 2, {"type": "choose_trump", "suit": "C"})
    (trump_set,) = of_type(events, "trump_set")
    assert (trump_set["taker"], trump_set["trump"]) == (2, "C")
    assert TURNED in rules.view(state, 2)["hand"]


def test_a_hand_is_thrown_in_when_all_pass_twice():
    state = pass_round(pass_round(dealt(dealer=0), dealer=0), dealer=0)
    view = rules.view(state, None)
    assert view["dealer"] == 1
    assert view["phase"] == "bidding_1"
    assert view["hand_number"] == 2
    assert view["scores"] == [0, 0]


def test_bids_are_public():
    state, _ = act(dealt(dealer=0), 1, {"type": "pass"})
    assert rules.view(state, 3)["bids"] == [{"seat": 1, "round": 1, "bid": "pass"}]
