"""What a seat infers from its view is true of the real deal; sampled deals respect it."""

import random

import pytest

from games import rules
from games.bots.knowledge import read_view
from games.bots.sampler import distribute, sample_deal, sample_hands
from games.rules.cards import CARD_IDS
from tests.bots.helpers import cards, position_from, positions


def _playing(count, seed):
    for state, seat in positions(count, seed):
        if state.trump >= 0:
            yield state, seat


def test_inference_never_rules_out_a_card_the_seat_really_holds():
    checked = 0
    for state, seat in _playing(300, seed=41):
        knowledge = read_view(rules.view(state, seat))
        for other in range(4):
            assert state.hands[other] & ~knowledge.holdings[other] == 0
            assert knowledge.known[other] & ~state.hands[other] == 0
            checked += 1
    assert checked > 400


def test_sampled_hands_place_every_unseen_card_once_and_respect_what_is_known():
    rng = random.Random(2)
    for state, seat in _playing(120, seed=43):
        knowledge = read_view(rules.view(state, seat))
        for _ in range(3):
            hands = sample_hands(knowledge, rng)
            assert hands[seat] == state.hands[seat]
            union = 0
            for other in range(4):
                assert hands[other].bit_count() == state.hands[other].bit_count()
                assert union & hands[other] == 0
                union |= hands[other]
                if other != seat:
                    assert hands[other] & ~knowledge.holdings[other] == 0
                    assert knowledge.known[other] & ~hands[other] == 0
            assert union == state.hands[0] | state.hands[1] | state.hands[2] | state.hands[3]


def _mask(text):
    return sum(1 << CARD_IDS[c] for c in text.split())


def _suits(*letters):
    return sum(1 << c for c in range(32) if "CDHS"[c & 3] in letters)


def test_a_seat_that_discards_on_an_opponents_trick_holds_neither_the_suit_nor_trumps():
    state = position_from(
        "7S 8S 9S JS 7H 8H 9H TH",
        "AS TS KS QS 7C 8C 9C TC",
        "JH QH KH AH JC QC KC AC",
        "7D 8D 9D TD JD QD KD AD",
        trump="D",
        plays="AS JH",
    )
    knowledge = read_view(rules.view(state, 0))
    assert knowledge.holdings[2] & _suits("S", "D") == 0
    assert knowledge.holdings[3] & _suits("S") != 0


def test_a_seat_that_undertrumps_holds_no_higher_trump():
    state = position_from(
        "7S 8S 9S JS 7H 8H 9H TH",
        "AS TS KS QS 7C 8C 9C TC",
        "9D JD QH KH AH JC QC KC",
        "7D 8D TD AD QD KD JH AC",
        trump="D",
        plays="AS 9D 7D",
    )
    knowledge = read_view(rules.view(state, 0))
    assert knowledge.holdings[3] & (_mask("JD") | _suits("S")) == 0
    assert knowledge.holdings[3] & _mask("AD TD") == _mask("AD TD")
    assert knowledge.holdings[2] & _suits("S") == 0


def test_a_belote_call_tells_where_the_other_card_of_the_pair_is():
    state = position_from(
        "7S 8S 9S JS 7H 8H 9H TH",
        "KD QD KS QS 7C 8C 9C TC",
        "AS TS QH KH AH JC QC KC",
        "7D 8D 9D TD JD AD JH AC",
        trump="D",
        plays="KD",
    )
    knowledge = read_view(rules.view(state, 0))
    assert knowledge.known[1] == _mask("QD")
    assert knowledge.belote_team == 1


def test_bidding_samples_fill_three_hands_of_five_and_a_stock_of_eleven():
    state, seat = next((s, t) for s, t in positions(50, seed=47) if s.trump < 0)
    knowledge = read_view(rules.view(state, seat))
    hands, stock = sample_deal(knowledge, random.Random(1))
    assert [hand.bit_count() for hand in hands] == [5, 5, 5, 5]
    assert len(stock) == 11
    everything = hands[0] | hands[1] | hands[2] | hands[3] | sum(1 << c for c in stock)
    assert everything | 1 << knowledge.turned == (1 << 32) - 1


def test_distribute_honours_tight_constraints_every_time():
    rng = random.Random(4)
    spades = [c for c in range(32) if c & 3 == 3][:6]
    rest = [c for c in range(32) if c & 3 != 3][:6]
    only_first = sum(1 << c for c in spades)
    anywhere = (1 << 32) - 1
    for _ in range(200):
        others = anywhere & ~only_first
        placed = distribute(spades + rest, [anywhere, others, others], [6, 3, 3], rng)
        assert placed[0] == only_first


def test_distribute_refuses_an_impossible_deal():
    with pytest.raises(ValueError, match="no deal"):
        distribute([0, 1], [1, 1], [1, 1], random.Random(0))


def test_hand_helper_reads_cards():
    assert cards("JH 9H") == ["JH", "9H"]
