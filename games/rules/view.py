"""What each seat (or a spectator) may see: the hidden-information rules."""

from __future__ import annotations

from typing import Any

from games.rules.cards import CARD_NAMES, SUITS, names_of
from games.rules.engine import legal_actions
from games.rules.events import Declared, Event, HandDealt, RestDealt, TrickWon
from games.rules.state import NO_SEAT, GameState
from games.rules.summary import summary
from games.rules.wire import event_to_dict


def _or_none(value: int) -> int | None:
    return None if value == NO_SEAT else value


def _trick_dict(record: TrickWon) -> dict[str, Any]:
    return {
        "trick": record.trick,
        "leader": record.leader,
        "winner": record.winner,
        "cards": _seated(record.leader, record.cards),
        "points": record.points,
    }


def _seated(leader: int, cards: tuple[int, ...]) -> list[dict[str, Any]]:
    return [{"seat": (leader + i) % 4, "card": CARD_NAMES[c]} for i, c in enumerate(cards)]


def _is_shown(state: GameState, seat: int, cards: int) -> bool:
    return any(d.seat == seat and d.cards == cards for d in state.shown or ())


def _declarations(state: GameState, viewer: int | None) -> list[dict[str, Any]]:
    return [
        {
            "seat": seat,
            "kind": declaration.kind,
            "cards": names_of(declaration.cards)
            if seat == viewer or _is_shown(state, seat, declaration.cards)
            else None,
        }
        for seat, declarations in enumerate(state.declared)
        for declaration in declarations
    ]


def view(state: GameState, seat: int | None = None) -> dict[str, Any]:
    """Exactly what `seat` (None: a spectator) may see, JSON-ready."""
    progress = summary(state)
    return {
        "status": progress.status,
        "options": state.options.to_dict(),
        "seat": seat,
        "dealer": _or_none(state.dealer),
        "hand_number": state.hand_number,
        "phase": progress.phase,
        "turn": progress.turn,
        "turned_card": CARD_NAMES[state.turned_card] if state.turned_card >= 0 else None,
        "trump": SUITS[state.trump] if state.trump >= 0 else None,
        "taker": _or_none(state.taker),
        "hand": [] if seat is None else names_of(state.hands[seat]),
        "hand_sizes": {str(s): state.hands[s].bit_count() for s in range(4)},
        "bids": [{"seat": s, "round": r, "bid": b} for s, r, b in state.bids],
        "trick": _seated(state.trick_leader, state.trick),
        "last_trick": _trick_dict(state.tricks[-1]) if state.tricks else None,
        "tricks": [_trick_dict(record) for record in state.tricks],
        "tricks_won": list(state.tricks_won),
        "trick_points": list(state.trick_points),
        "declarations": _declarations(state, seat),
        "declarations_team": state.shown_team,
        "belote": [{"seat": s, "call": call} for s, call in state.belote_calls],
        "scores": list(state.scores),
        "waiting_points": state.waiting_points,
        "hands": [event_to_dict(result) for result in state.results],
        "winner": progress.winner,
        "absent_seats": list(progress.absent),
        "timeouts": list(state.timeouts),
        "legal_actions": [] if seat is None else legal_actions(state, seat),
    }


def redact(event: Event, seat: int | None, state_after: GameState) -> dict[str, Any] | None:
    """The event as `seat` (None: a spectator) may see it, or None if nothing of it.

    Dealt cards go to their own seat only, the stock and the unrevealed seed to
    nobody; declared cards to the declaring seat until they are shown.
    """
    data = event_to_dict(event)
    if isinstance(event, HandDealt | RestDealt):
        if isinstance(event, HandDealt):
            del data["stock"], data["seed"], data["secret"]
        elif seat is None:
            return None
        data["cards"] = {} if seat is None else {str(seat): data["cards"][str(seat)]}
    elif isinstance(event, Declared) and seat != event.seat:
        for item, declaration in zip(data["declarations"], event.declarations, strict=True):
            if not _is_shown(state_after, event.seat, declaration.cards):
                del item["cards"]
    return data
