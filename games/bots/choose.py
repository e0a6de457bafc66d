"""`choose_action`: the bots' one entry point."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from typing import Any

from games.bots.actions import (
    Action,
    best_declaration,
    bid_action,
    bids_offered,
    play_action,
    playable,
)
from games.bots.basic import basic_action, basic_card
from games.bots.budget import DEFAULT_BUDGET, Budget
from games.bots.expert import expert_card
from games.bots.expert_bidding import expert_bid
from games.bots.knowledge import BIDDING_PHASES, read_view
from games.rules.cards import cards_in

LEVELS = ("random", "basic", "expert")


def choose_action(
    view: dict[str, Any],
    seed: int | bytes,
    level: str,
    *,
    budget: Budget | Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """One entry of `view["legal_actions"]`, chosen by the bot `level` for the view's seat.

    `view` is `games.rules.view(state, seat)`; the choice depends only on it,
    `seed` and `level` (and, for the expert, on `budget`: a `Budget`, a dict of
    its fields, or None for the default). Raises ValueError for an unknown
    level or a view with nothing to do.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; expected one of {LEVELS}")
    actions: list[Action] = view["legal_actions"]
    if not actions:
        raise ValueError("the seat has no legal action in this view")
    if len(actions) == 1:
        return actions[0]
    rng = random.Random(_seed_digest(view, seed, level))  # noqa: S311 (a game, not a secret)
    if level == "random":
        return rng.choice(actions)
    if level == "basic":
        return basic_action(view)
    return _expert_action(view, rng, _budget(budget))


def _budget(budget: Budget | Mapping[str, Any] | None) -> Budget:
    if budget is None:
        return DEFAULT_BUDGET
    if isinstance(budget, Budget):
        return budget
    return Budget(**budget)


def _seed_digest(view: dict[str, Any], seed: int | bytes, level: str) -> bytes:
    """The RNG seed: the caller's seed mixed with the view, so reusing a seed
    across decisions does not correlate them."""
    seed_bytes = seed if isinstance(seed, bytes) else f"int:{seed}".encode()
    canonical = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(seed_bytes + b"|" + level.encode() + b"|" + canonical.encode()).digest()


def _expert_action(view: dict[str, Any], rng: random.Random, budget: Budget) -> Action:
    actions: list[Action] = view["legal_actions"]
    knowledge = read_view(view)
    if view["phase"] in BIDDING_PHASES:
        round_ = 1 if view["phase"] == "bidding_1" else 2
        made = sum(1 for bid in view["bids"] if bid["round"] == round_)
        bid = expert_bid(
            knowledge,
            round_=round_,
            bids_made=made,
            offered=bids_offered(actions),
            rng=rng,
            budget=budget,
        )
        return bid_action(actions, bid)
    declaration = best_declaration(actions)
    if declaration is not None:
        return declaration
    legal = playable(actions)
    try:
        card = expert_card(knowledge, list(cards_in(legal)), rng, budget)
    except ValueError:  # the view contradicts the inference: never expected, stay legal
        card = basic_card(knowledge, legal)
    return play_action(actions, card)
