"""What each seat may see: docs/rules.md, "Hidden information"; the view and event redaction."""

from games import rules
from tests.rules.helpers import SEED, act, play, position
from tests.rules.test_dealing import DECK
from tests.rules.test_legality import FOLLOW


def dealt() -> rules.GameState:
    return rules.dealt_position(dealer=0, deck=DECK)


def held(state: rules.GameState, seat: int) -> set[str]:
    return set(rules.view(state, seat)["hand"])


def others_cards(state: rules.GameState, seat: int) -> set[str]:
    return {card for other in range(4) if other != seat for card in held(state, other)}


def test_a_seat_sees_its_own_hand_and_no_other() -> None:
    state = position(FOLLOW, trump="H", taker=0)
    for seat in range(4):
        view = rules.view(state, seat)
        assert set(view["hand"]) == set(FOLLOW[seat].split())
        # The turned card went to the taker in front of everyone: it is public.
        hidden = others_cards(state, seat) - {view["turned_card"]}
        assert not [card for card in hidden if card in str(view)]


def test_a_spectator_sees_no_hand() -> None:
    state = position(FOLLOW, trump="H", taker=0)
    view = rules.view(state, None)
    assert view["hand"] == []
    assert not [card for card in DECK if card in str(view["legal_actions"])]


def test_everyone_sees_the_turned_card_but_not_the_stock() -> None:
    state = dealt()
    stock = set(DECK[21:])
    for seat in (None, 0, 1, 2, 3):
        view = rules.view(state, seat)
        assert view["turned_card"] == DECK[20]
        assert not [card for card in stock if card in str(view)]


def test_played_cards_and_the_current_trick_are_public() -> None:
    state, _ = play(position(FOLLOW, trump="H", taker=0), 1, "AS")
    for seat in (None, 0, 2, 3):
        assert rules.view(state, seat)["trick"] == [{"seat": 1, "card": "AS"}]


def test_legal_actions_are_only_for_the_viewing_seat() -> None:
    state = position(FOLLOW, trump="H", taker=0)
    assert rules.view(state, 1)["legal_actions"] == rules.legal_actions(state, 1)
    assert rules.view(state, 2)["legal_actions"] == []
    assert rules.view(state, None)["legal_actions"] == []


def test_the_deal_event_is_redacted_to_the_viewers_own_cards() -> None:
    state = rules.new_game()
    for event in rules.decide(
        state, rules.StartGame(options=rules.Options(), game_seed=SEED, hand_seed=b"h" * 32)
    ):
        state = rules.apply(state, event)
        record = rules.event_to_dict(event)
        if record["type"] != "hand_dealt":
            continue
        for seat in range(4):
            seen = rules.redact(event, seat, state)
            assert seen is not None
            assert set(seen["cards"]) == {str(seat)}
            assert "stock" not in seen or not seen["stock"]
        spectator = rules.redact(event, None, state)
        assert spectator is not None
        assert not [
            card for card in DECK if card != record["turned_card"] and card in str(spectator)
        ]


def test_the_rest_of_the_deal_is_visible_to_its_receiver_only() -> None:
    state = dealt()
    command = rules.PlayerAction(
        seat=1, action=rules.parse_action({"type": "take"}), next_hand_seed=SEED
    )
    for event in rules.decide(state, command):
        state = rules.apply(state, event)
        if rules.event_to_dict(event)["type"] != "rest_dealt":
            continue
        for seat in range(4):
            seen = rules.redact(event, seat, state)
            assert seen is None or set(seen["cards"]) <= {str(seat)}
        spectator = rules.redact(event, None, state)
        assert spectator is None or not spectator.get("cards")


def test_the_view_has_the_documented_keys() -> None:
    state, _ = act(dealt(), 1, {"type": "take"})
    view = rules.view(state, 1)
    for key in (
        "status",
        "options",
        "seat",
        "dealer",
        "phase",
        "turn",
        "turned_card",
        "trump",
        "taker",
        "hand",
        "bids",
        "trick",
        "tricks",
        "tricks_won",
        "declarations",
        "scores",
        "waiting_points",
        "hands",
        "winner",
        "legal_actions",
    ):
        assert key in view, key
    assert (view["seat"], view["taker"], view["trump"], view["status"]) == (1, 1, "D", "playing")
