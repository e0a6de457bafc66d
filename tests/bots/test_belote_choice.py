"""With auto_belote off, the first card of the trump K/Q pair carries a belote choice:
every level must return one of the offered entries, and basic and expert announce it."""

import pytest

from games import rules
from games.bots import LEVELS, choose_action
from tests.rules.helpers import play_cards, position
from tests.rules.positions import ALL_TRUMPS, all_trumps_plays


def before_the_pair() -> rules.GameState:
    """Seat 1 (all hearts, hearts trump) has led six tricks and holds only QH and KH."""
    leads = iter(["7H", "8H", "9H", "TH", "JH", "AH"])
    plays = [(seat, next(leads) if seat == 1 else card) for seat, card in all_trumps_plays()[:24]]
    start = position(ALL_TRUMPS, trump="H", taker=1, auto_belote=False)
    state, _ = play_cards(start, plays)
    return state


def test_the_position_offers_the_belote_choice() -> None:
    offered = rules.legal_actions(before_the_pair(), 1)
    assert sorted((a["card"], a["belote"]) for a in offered) == [
        ("KH", False),
        ("KH", True),
        ("QH", False),
        ("QH", True),
    ]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", range(6))
def test_every_level_returns_an_offered_entry(level: str, seed: int) -> None:
    view = rules.view(before_the_pair(), 1)
    assert choose_action(view, seed, level) in view["legal_actions"]


@pytest.mark.parametrize("level", ["basic", "expert"])
@pytest.mark.parametrize("seed", range(6))
def test_basic_and_expert_announce_belote_with_the_first_of_the_pair(level: str, seed: int) -> None:
    choice = choose_action(rules.view(before_the_pair(), 1), seed, level)
    assert choice["belote"] is True
