"""The basic level's heuristics on hand-built positions (dealer 0: seat 1 leads)."""

from games import rules
from games.bots import choose_action
from games.bots.arena import deal_deck, duplicate_margin
from games.bots.bidding import basic_bid
from games.rules.cards import CARD_IDS
from tests.bots.helpers import position_from

# seat 1 (the taker) holds the jack of trump (diamonds); the opponents hold trumps.
TAKER_WITH_JACK = (
    "7S 8S 9S JS 7H 8H 9H TH",
    "JD AS TS KS 7C 8C 9C TC",
    "9D QS QH KH AH JC QC KC",
    "7D 8D TD AD QD KD JH AC",
)
# seat 0 leads (dealer 3) and holds the ace of clubs.
DEFENDER_WITH_ACE = (
    "7S 8S 9S JS 7H 8H 9H AC",
    "JD AS TS KS 7C 8C 9C TC",
    "9D QS QH KH AH JC QC KC",
    "7D 8D TD AD QD KD JH TH",
)
# seat 2 holds no spade; seat 3 no diamond.
VOIDS = (
    "7S 8S 9S JS 7H 8H 9H TH",
    "AS TS KS QS 7C 8C 9C TC",
    "JH QH KH AH JC QC KC AC",
    "7D 8D 9D TD JD QD KD AD",
)
# seat 3 holds no spade while its partner, seat 1, leads the ace.
PARTNER_MASTER = (
    "7S 8S 7H 8H 9H AH 7D 8D",
    "AS TS KS QS 7C 8C 9C TC",
    "9S JS 9D TD JD QD KD AD",
    "TH JH QH KH JC QC KC AC",
)


def _mask(text):
    return sum(1 << CARD_IDS[c] for c in text.split())


def _card(rows, seat, **kwargs):
    state = position_from(*rows, declarations=False, **kwargs)
    return choose_action(rules.view(state, seat), 0, "basic")["card"]


def test_a_seat_with_the_jack_and_nine_of_the_turned_suit_takes():
    assert basic_bid(2, 0, 1, _mask("JH 9H 7S 8C 9D"), CARD_IDS["7H"]) == "take"


def test_a_seat_without_trumps_passes_in_round_one():
    assert basic_bid(2, 0, 1, _mask("7S 8S 9C 8D 9D"), CARD_IDS["7H"]) == "pass"


def test_round_two_names_the_strongest_other_suit():
    assert basic_bid(1, 0, 2, _mask("JS 9S AS 7C 8D"), CARD_IDS["7H"]) == "S"


def test_the_taker_pulls_trumps_with_the_master_trump():
    assert _card(TAKER_WITH_JACK, 1, trump="D", taker=1) == "JD"


def test_a_defender_leads_its_master_ace():
    assert _card(DEFENDER_WITH_ACE, 0, trump="D", taker=1, dealer=3) == "AC"


def test_second_hand_wins_with_its_master_card():
    assert _card(VOIDS, 2, trump="D", taker=1, plays="7C") == "AC"


def test_a_void_seat_trumps_with_its_lowest_trump():
    assert _card(VOIDS, 2, trump="C", taker=1, plays="AS") == "QC"


def test_a_void_seat_without_trumps_discards_its_cheapest_card():
    assert _card(VOIDS, 2, trump="D", taker=1, plays="AS") == "JC"


def test_a_seat_gives_a_ten_to_its_partners_master_trick():
    assert _card(PARTNER_MASTER, 3, trump="D", taker=1, plays="AS 9S") == "TH"


def test_basic_beats_random_on_fixed_duplicate_deals():
    margins = [
        duplicate_margin(deal_deck(99, i), "basic", "random", dealer=i % 4) for i in range(12)
    ]
    assert sum(margins) / len(margins) > 80
