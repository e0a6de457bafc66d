"""The `basic` level: heuristic bids, declarations always announced, heuristic play."""

from __future__ import annotations

from typing import Any

from games.bots.actions import Action, best_declaration, bid_action, play_action, playable
from games.bots.bidding import basic_bid
from games.bots.cardplay import play_card
from games.bots.knowledge import BIDDING_PHASES, Knowledge, read_view


def basic_action(view: dict[str, Any]) -> Action:
    """The basic level's choice among `view["legal_actions"]`."""
    actions: list[Action] = view["legal_actions"]
    knowledge = read_view(view)
    if view["phase"] in BIDDING_PHASES:
        round_ = 1 if view["phase"] == "bidding_1" else 2
        bid = basic_bid(knowledge.seat, knowledge.dealer, round_, knowledge.hand, knowledge.turned)
        return bid_action(actions, bid)
    declaration = best_declaration(actions)
    if declaration is not None:
        return declaration
    return play_action(actions, basic_card(knowledge, playable(actions)))


def basic_card(knowledge: Knowledge, legal: int) -> int:
    """The heuristic's card from the seat's knowledge."""
    return play_card(
        knowledge.seat,
        legal,
        knowledge.trick,
        knowledge.leader,
        knowledge.trump,
        knowledge.taker,
        knowledge.holdings,
    )
