"""Between the wire actions of `legal_actions` and the bots' card ids and bids."""

from __future__ import annotations

from typing import Any

from games.rules.cards import CARD_IDS, CARD_NAMES
from games.rules.declarations import Declaration, points_of

Action = dict[str, Any]


def playable(actions: list[Action]) -> int:
    """The mask of the cards the seat may play now."""
    mask = 0
    for action in actions:
        if action["type"] == "play":
            mask |= 1 << CARD_IDS[action["card"]]
    return mask


def play_action(actions: list[Action], card: int) -> Action:
    """The action playing `card`, announcing belote when there is a choice."""
    name = CARD_NAMES[card]
    matching = [a for a in actions if a["type"] == "play" and a["card"] == name]
    announced = [a for a in matching if a.get("belote")]
    return (announced or matching)[0]


def bid_action(actions: list[Action], bid: str) -> Action:
    """The action for a bid: `"take"`, `"pass"` or a suit letter."""
    for action in actions:
        if action["type"] == bid or action.get("suit") == bid:
            return action
    raise ValueError(f"bid {bid!r} is not legal now")


def bids_offered(actions: list[Action]) -> list[str]:
    """The legal bids, in the order offered: `"take"`, `"pass"`, suit letters."""
    return [
        a["suit"] if a["type"] == "choose_trump" else a["type"]
        for a in actions
        if a["type"] in ("take", "pass", "choose_trump")
    ]


def best_declaration(actions: list[Action]) -> Action | None:
    """The declare action worth the most points, if one is offered."""
    best: Action | None = None
    best_points = 0
    for action in actions:
        if action["type"] != "declare":
            continue
        points = sum(
            points_of(Declaration(d["kind"], sum(1 << CARD_IDS[c] for c in d["cards"])))
            for d in action["declarations"]
        )
        if points > best_points:
            best, best_points = action, points
    return best
