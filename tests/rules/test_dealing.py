"""Shuffle and deal: docs/rules.md, "Seats and teams" and "Dealing"."""

from typing import Any

import pytest

from games import rules
from tests.rules.helpers import SEED, act, of_type

SUITS = "SHDC"
RANKS = "789TJQKA"
# An unshuffled deck: 7S 8S ... AS 7H ... AC.
DECK = [rank + suit for suit in SUITS for rank in RANKS]


def dealt(dealer: int = 0) -> rules.GameState:
    return rules.dealt_position(dealer=dealer, deck=DECK)


def start_events(
    state: rules.GameState, game_seed: bytes = SEED, hand_seed: bytes = SEED
) -> tuple[rules.Event, ...]:
    command = rules.StartGame(options=rules.Options(), game_seed=game_seed, hand_seed=hand_seed)
    return rules.decide(state, command)


def start(game_seed: bytes, hand_seed: bytes = SEED) -> list[dict[str, Any]]:
    events = start_events(rules.new_game(), game_seed, hand_seed)
    return [rules.event_to_dict(event) for event in events]


def test_a_shuffled_deck_holds_the_32_cards_once_each():
    deck = rules.shuffled_deck(b"any seed")
    assert len(deck) == 32
    assert sorted(deck) == sorted(DECK)


def test_the_shuffle_is_a_function_of_the_seed():
    assert rules.shuffled_deck(b"seed one") == rules.shuffled_deck(b"seed one")
    assert rules.shuffled_deck(b"seed one") != rules.shuffled_deck(b"seed two")


def test_first_dealer_is_drawn_from_the_game_seed():
    dealers = {start(bytes([n]) * 32)[0]["first_dealer"] for n in range(64)}
    assert dealers == {0, 1, 2, 3}
    assert start(b"g" * 32)[0]["first_dealer"] == start(b"g" * 32)[0]["first_dealer"]


def test_starting_a_game_deals_the_first_hand_from_the_hand_seed():
    events = start(b"g" * 32, hand_seed=b"h" * 32)
    assert [e["type"] for e in events] == ["game_started", "hand_dealt"]
    deal = events[1]
    assert deal["dealer"] == events[0]["first_dealer"]
    assert deal["hand"] == 1
    assert deal["seed_commitment"] == rules.seed_commitment(b"h" * 32)
    deck = rules.shuffled_deck(b"h" * 32)
    assert deal["turned_card"] == deck[20]
    assert deal["stock"] == list(deck[21:])


def test_a_game_cannot_start_twice():
    state = rules.new_game()
    for event in start_events(state):
        state = rules.apply(state, event)
    with pytest.raises(rules.RuleError) as raised:
        start_events(state)
    assert raised.value.code == "game_already_started"


def test_deal_gives_three_then_two_cards_starting_after_the_dealer():
    view = rules.view(dealt(dealer=0), 1)
    assert sorted(view["hand"]) == sorted(DECK[0:3] + DECK[12:14])
    assert sorted(rules.view(dealt(dealer=0), 0)["hand"]) == sorted(DECK[9:12] + DECK[18:20])
    assert sorted(rules.view(dealt(dealer=2), 3)["hand"]) == sorted(DECK[0:3] + DECK[12:14])


def test_the_twenty_first_card_is_turned_face_up():
    for seat in (None, 0, 1, 2, 3):
        assert rules.view(dealt(), seat)["turned_card"] == DECK[20]


def test_every_seat_holds_five_cards_before_the_bidding():
    state = dealt()
    assert [len(rules.view(state, seat)["hand"]) for seat in range(4)] == [5, 5, 5, 5]


def test_the_taker_gets_the_turned_card_and_two_more_the_others_three():
    state, events = act(dealt(dealer=0), 1, {"type": "take"})
    (rest,) = of_type(events, "rest_dealt")
    stock = DECK[21:]
    # From seat 1 round to the dealer, in stock order: 2 for the taker, 3 for each other.
    assert sorted(rest["cards"]["1"]) == sorted(stock[0:2])
    assert sorted(rest["cards"]["2"]) == sorted(stock[2:5])
    assert sorted(rest["cards"]["3"]) == sorted(stock[5:8])
    assert sorted(rest["cards"]["0"]) == sorted(stock[8:11])
    assert DECK[20] in rules.view(state, 1)["hand"]
    assert [len(rules.view(state, seat)["hand"]) for seat in range(4)] == [8, 8, 8, 8]


def test_every_card_is_dealt_exactly_once():
    state, _ = act(dealt(dealer=3), 0, {"type": "take"})
    held = [card for seat in range(4) for card in rules.view(state, seat)["hand"]]
    assert sorted(held) == sorted(DECK)


def test_deal_passes_to_the_next_player_after_a_thrown_in_hand():
    state = dealt(dealer=2)
    events: list[dict[str, Any]] = []
    for turn in range(8):
        state, produced = act(state, (3 + turn) % 4, {"type": "pass"})
        events.extend(produced)
    assert [e["type"] for e in events[-2:]] == ["hand_thrown_in", "hand_dealt"]
    assert events[-1]["dealer"] == 3
    assert events[-1]["hand"] == 2
    assert rules.view(state, None)["dealer"] == 3
