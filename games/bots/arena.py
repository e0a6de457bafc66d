"""Bots playing whole hands through the rules engine (for the match runner,
the benchmark and the tests).

Each deal is an independent hand from a fresh dealt position: no waiting
points come in or go out (a litige's waiting half scores for nobody).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from typing import Any

from games import rules
from games.bots.budget import Budget
from games.bots.choose import choose_action
from games.rules.events import HandScored, HandThrownIn

#: called with (level, seconds) after each decision that had a real choice
DecisionTimer = Callable[[str, float], None]


def deal_deck(seed: int, index: int) -> tuple[str, ...]:
    """The deck of deal `index` of a match seeded `seed`."""
    return tuple(rules.shuffled_deck(hashlib.sha256(f"bots:{seed}:{index}".encode()).digest()))


def step(state: rules.GameState, action: dict[str, Any]) -> rules.GameState | None:
    """The state after the seat to play takes `action`; None once the hand is over."""
    command = rules.PlayerAction(state.turn, rules.parse_action(action), b"next")
    for event in rules.decide(state, command):
        if isinstance(event, HandScored | HandThrownIn):
            return None
        state = rules.apply(state, event)
    return state


def play_hand(
    deck: Sequence[str],
    levels: Sequence[str],
    *,
    dealer: int = 0,
    seed: bytes = b"",
    options: Any = None,
    budget: Budget | None = None,
    timer: DecisionTimer | None = None,
) -> tuple[int, int]:
    """Play one hand dealt from `deck`, seat `s` played by `levels[s]`: the deltas."""
    state = rules.dealt_position(options=options or rules.Options(), dealer=dealer, deck=deck)
    while True:
        seat = state.turn
        seen = rules.view(state, seat)
        started = time.perf_counter()
        action = choose_action(seen, seed, levels[seat], budget=budget)
        if timer is not None and len(seen["legal_actions"]) > 1:
            timer(levels[seat], time.perf_counter() - started)
        command = rules.PlayerAction(seat, rules.parse_action(action), seed or b"next")
        for event in rules.decide(state, command):
            if isinstance(event, HandScored):
                return event.deltas
            if isinstance(event, HandThrownIn):
                return (0, 0)
            state = rules.apply(state, event)


def duplicate_margin(
    deck: Sequence[str],
    first: str,
    second: str,
    *,
    dealer: int = 0,
    seed: bytes = b"",
    budget: Budget | None = None,
    timer: DecisionTimer | None = None,
) -> int:
    """`first`'s margin over `second` summed over the deal played twice, seats swapped."""
    as_team0 = play_hand(
        deck, (first, second) * 2, dealer=dealer, seed=seed, budget=budget, timer=timer
    )
    as_team1 = play_hand(
        deck, (second, first) * 2, dealer=dealer, seed=seed, budget=budget, timer=timer
    )
    return (as_team0[0] - as_team0[1]) + (as_team1[1] - as_team1[0])
