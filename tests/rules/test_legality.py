"""What a player may play: docs/rules.md, "Play". Dealer 0 in every position, so seat 1 leads."""

from tests.rules.helpers import legal_cards, of_type, play, play_cards, position, rejection

# Seat 2 holds spades when seat 1 leads one.
FOLLOW = (
    "7S 8S 7H 8H 7D 8D 7C 8C",
    "AS TS 9H TH 9D TD 9C TC",
    "KS QS JH QH JD QD JC QC",
    "JS 9S AH KH AD KD AC KC",
)
# Seat 3 is void in spades while its partner, seat 1, leads the ace.
PARTNER_MASTER = (
    "7S 8S 7H 8H 7D 8D 7C 8C",
    "AS TS 9H TH 9D TD 9C TC",
    "KS QS JS 9S JD QD JC QC",
    "JH QH AH KH AD KD AC KC",
)
# Seats 2 and 3 are void in spades; both hold hearts (trump).
VOID_WITH_TRUMPS = (
    "7S 8S KS QS JS 9S 7D 8D",
    "AS TS 9H TH 9D TD 9C TC",
    "8H JH QH 7C JD QD JC QC",
    "7H AH KH AD KD AC KC 8C",
)
# Seat 3 is void in spades and holds no trump.
VOID_WITHOUT_TRUMPS = (
    "7S 8S KS QS JS 9S 7D 8D",
    "AS TS 9H TH 9D TD 9C TC",
    "7H 8H JH QH AH KH 7C 8C",
    "JD QD AD KD JC QC AC KC",
)
# Seat 1 leads the ace of trump; seat 3 (its partner) holds 9H JH above it and TH below.
TRUMP_LEAD = (
    "7S 8S KS QS JS 9S 7D 8D",
    "AH AS TS 9D TD 9C TC AD",
    "7H 8H QH KH 7C 8C JD QD",
    "9H JH TH KD JC QC AC KC",
)


def test_player_after_dealer_leads_the_first_trick():
    state = position(FOLLOW, trump="H", taker=0)
    assert legal_cards(state, 1) == set(FOLLOW[1].split())
    for seat in (0, 2, 3):
        assert legal_cards(state, seat) == set()


def test_playing_out_of_turn_is_refused():
    state = position(FOLLOW, trump="H", taker=0)
    assert rejection(state, 2, {"type": "play", "card": "KS"}) == "not_your_turn"


def test_card_not_in_hand_is_refused():
    state = position(FOLLOW, trump="H", taker=0)
    assert rejection(state, 1, {"type": "play", "card": "KS"}) == "card_not_in_hand"


def test_must_follow_the_suit_led():
    state, _ = play(position(FOLLOW, trump="H", taker=0), 1, "AS")
    assert legal_cards(state, 2) == {"KS", "QS"}
    assert rejection(state, 2, {"type": "play", "card": "JH"}) == "must_follow_suit"
    assert rejection(state, 2, {"type": "play", "card": "JD"}) == "must_follow_suit"


def test_void_player_may_play_anything_while_partner_wins():
    state, _ = play_cards(position(PARTNER_MASTER, trump="H", taker=0), [(1, "AS"), (2, "KS")])
    assert legal_cards(state, 3) == set(PARTNER_MASTER[3].split())


def test_void_player_must_trump_when_an_opponent_wins():
    state, _ = play(position(VOID_WITH_TRUMPS, trump="H", taker=0), 1, "AS")
    assert legal_cards(state, 2) == {"8H", "JH", "QH"}
    assert rejection(state, 2, {"type": "play", "card": "JD"}) == "must_trump"


def test_void_player_must_overtrump_a_trump_in_the_trick():
    state, _ = play_cards(position(VOID_WITH_TRUMPS, trump="H", taker=0), [(1, "AS"), (2, "QH")])
    assert legal_cards(state, 3) == {"AH", "KH"}
    assert rejection(state, 3, {"type": "play", "card": "7H"}) == "must_overtrump"
    assert rejection(state, 3, {"type": "play", "card": "AD"}) == "must_overtrump"


def test_void_player_must_undertrump_when_unable_to_overtrump():
    state, _ = play_cards(position(VOID_WITH_TRUMPS, trump="H", taker=0), [(1, "AS"), (2, "JH")])
    assert legal_cards(state, 3) == {"7H", "AH", "KH"}
    assert rejection(state, 3, {"type": "play", "card": "AD"}) == "must_undertrump"


def test_void_player_without_trumps_may_discard_anything():
    state, _ = play_cards(position(VOID_WITHOUT_TRUMPS, trump="H", taker=0), [(1, "AS"), (2, "7H")])
    assert legal_cards(state, 3) == set(VOID_WITHOUT_TRUMPS[3].split())


def test_trump_lead_must_be_overtrumped_even_when_partner_wins():
    state, _ = play_cards(position(TRUMP_LEAD, trump="H", taker=0), [(1, "AH"), (2, "7H")])
    assert legal_cards(state, 3) == {"9H", "JH"}
    assert rejection(state, 3, {"type": "play", "card": "TH"}) == "must_overtrump"


def test_trump_lead_without_a_higher_trump_allows_any_trump():
    state, _ = play(position(TRUMP_LEAD, trump="H", taker=0), 1, "AH")
    assert legal_cards(state, 2) == {"7H", "8H", "QH", "KH"}


def test_trump_lead_partner_master_may_play_lower_trump_when_option_off():
    start = position(TRUMP_LEAD, trump="H", taker=0, overtrump_partner_on_trump_lead=False)
    state, _ = play_cards(start, [(1, "AH"), (2, "7H")])
    assert legal_cards(state, 3) == {"9H", "JH", "TH"}


def test_highest_card_of_the_suit_led_wins_without_trump():
    # Plain order A T K Q J 9 8 7: the ten beats the queen, and the jack ranks low.
    start = position(FOLLOW, trump="H", taker=0)
    _, events = play_cards(start, [(1, "TS"), (2, "QS"), (3, "JS"), (0, "8S")])
    won = of_type(events, "trick_won")
    assert [(w["winner"], w["points"]) for w in won] == [(1, 10 + 3 + 2 + 0)]


def test_highest_trump_wins_the_trick():
    start = position(VOID_WITH_TRUMPS, trump="H", taker=0)
    state, events = play_cards(start, [(1, "AS"), (2, "QH"), (3, "KH"), (0, "7S")])
    (won,) = of_type(events, "trick_won")
    assert won["winner"] == 3
    assert won["points"] == 11 + 3 + 4 + 0
    assert legal_cards(state, 3) == {"7H", "AH", "AD", "KD", "AC", "KC", "8C"}


def test_trump_order_puts_nine_above_ace():
    start = position(TRUMP_LEAD, trump="H", taker=0)
    _, events = play_cards(start, [(1, "AH"), (2, "7H"), (3, "9H"), (0, "7S")])
    (won,) = of_type(events, "trick_won")
    assert won["winner"] == 3
    assert won["points"] == 11 + 0 + 14 + 0


def test_winner_of_a_trick_leads_the_next():
    start = position(FOLLOW, trump="H", taker=0)
    state, events = play_cards(start, [(1, "9D"), (2, "QD"), (3, "AD"), (0, "7D")])
    assert [w["winner"] for w in of_type(events, "trick_won")] == [3]
    assert legal_cards(state, 3) == set(FOLLOW[3].split()) - {"AD"}
    assert legal_cards(state, 1) == set()
