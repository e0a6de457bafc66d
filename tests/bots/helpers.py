"""Positions for the bot tests: hands played by seeded random choices."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from games import rules
from games.bots import choose_action
from games.bots.arena import deal_deck, step

OPTION_SETS = (
    {},
    {"auto_belote": False},
    {"declarations": False, "overtrump_partner_on_trump_lead": False},
    {"tie_rule": "inside", "capot_points": 250},
)


def cards(text: str) -> list[str]:
    """`cards("JH 9H")` -> `["JH", "9H"]`."""
    return text.split()


def positions(count: int, seed: int) -> Iterator[tuple[Any, int]]:
    """`count` (state, seat to play) pairs from seeded random hands, every phase."""
    rng = random.Random(seed)
    produced = 0
    deal = 0
    while produced < count:
        options = rules.Options.from_dict(OPTION_SETS[deal % len(OPTION_SETS)])
        state = rules.dealt_position(options=options, dealer=deal % 4, deck=deal_deck(seed, deal))
        pass_first_round = deal % 3 == 0
        deal += 1
        while state is not None and produced < count:
            seat = state.turn
            seen = rules.view(state, seat)
            if rng.random() < 0.3:
                produced += 1
                yield state, seat
            actions = seen["legal_actions"]
            if pass_first_round and seen["phase"] == "bidding_1":
                action = {"type": "pass"}
            else:
                action = choose_action(seen, rng.randrange(1 << 30), "random")
            assert action in actions
            state = step(state, action)


def position_from(
    *rows: str, trump: str, plays: str = "", taker: int = 0, dealer: int = 0, **options: Any
) -> Any:
    """A playing position (dealer 0: seat 1 leads) after the given cards are played."""
    state = rules.playing_position(
        options=rules.Options.from_dict(options),
        dealer=dealer,
        hands=[row.split() for row in rows],
        taker=taker,
        trump=trump,
    )
    for card in plays.split():
        state = step(state, {"type": "play", "card": card})
    return state
