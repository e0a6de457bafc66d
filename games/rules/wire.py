"""The JSON forms: stored events (`event_to_dict` / `event_from_dict`) and actions.

Cards become wire strings here and only here. Every event dict carries its
`type` and the schema version `v` of that type.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.rules.cards import CARD_IDS, CARD_NAMES, SUITS, mask_from_names, names_of
from games.rules.commands import Action, ChooseTrump, Declare, Pass, Play, Take
from games.rules.declarations import Declaration, SeatDeclaration
from games.rules.events import (
    Bid,
    CardPlayed,
    DeclarationsShown,
    Declared,
    Event,
    GameFinished,
    GameStarted,
    HandDealt,
    HandScored,
    HandThrownIn,
    RestDealt,
    SeatAbsent,
    SeatReturned,
    TableClosed,
    TrickWon,
    TrumpSet,
    TurnTimedOut,
)
from games.rules.options import Options

Codec = tuple[Callable[[Any], Any], Callable[[Any], Any]]


def _same(value: Any) -> Any:
    return value


def _pair(value: Any) -> Any:
    return tuple(value)


def _seat_hands(masks: tuple[int, ...]) -> dict[str, list[str]]:
    return {str(seat): names_of(mask) for seat, mask in enumerate(masks)}


def _seat_hands_back(by_seat: Mapping[str, list[str]]) -> tuple[int, ...]:
    return tuple(mask_from_names(by_seat[str(seat)]) for seat in range(4))


def _declarations(items: tuple[Declaration, ...]) -> list[dict[str, Any]]:
    return [{"kind": d.kind, "cards": names_of(d.cards)} for d in items]


def _declarations_back(items: list[Mapping[str, Any]]) -> tuple[Declaration, ...]:
    return tuple(Declaration(d["kind"], mask_from_names(d["cards"])) for d in items)


def _shown(items: tuple[SeatDeclaration, ...]) -> list[dict[str, Any]]:
    return [
        {"seat": d.seat, "kind": d.kind, "cards": names_of(d.cards), "points": d.points}
        for d in items
    ]


def _shown_back(items: list[Mapping[str, Any]]) -> tuple[SeatDeclaration, ...]:
    return tuple(
        SeatDeclaration(d["seat"], d["kind"], mask_from_names(d["cards"]), d["points"])
        for d in items
    )


SAME: Codec = (_same, _same)
PAIR: Codec = (list, _pair)
CARD: Codec = (CARD_NAMES.__getitem__, CARD_IDS.__getitem__)
CARD_LIST: Codec = (
    lambda ids: [CARD_NAMES[c] for c in ids],
    lambda names: tuple(CARD_IDS[n] for n in names),
)
SUIT: Codec = (SUITS.__getitem__, SUITS.index)
SEAT_HANDS: Codec = (_seat_hands, _seat_hands_back)
OPTIONS: Codec = (Options.to_dict, Options.from_record)

#: type name, class, schema version, codec of each field (in the class's field order)
SCHEMAS: dict[type, tuple[str, int, dict[str, Codec]]] = {
    GameStarted: ("game_started", 2, {"options": OPTIONS, "client_seeds": PAIR}),
    HandDealt: (
        "hand_dealt",
        2,
        {"cards": SEAT_HANDS, "turned_card": CARD, "stock": CARD_LIST, "client_seeds": PAIR},
    ),
    Bid: ("bid", 1, {}),
    HandThrownIn: ("hand_thrown_in", 2, {}),
    TrumpSet: ("trump_set", 1, {"trump": SUIT}),
    RestDealt: ("rest_dealt", 1, {"cards": SEAT_HANDS}),
    Declared: ("declared", 1, {"declarations": (_declarations, _declarations_back)}),
    CardPlayed: ("card_played", 1, {"card": CARD}),
    TrickWon: ("trick_won", 1, {}),
    DeclarationsShown: ("declarations_shown", 1, {"declarations": (_shown, _shown_back)}),
    HandScored: (
        "hand_scored",
        2,
        {
            "trump": SUIT,
            **dict.fromkeys(("card_points", "totals", "scores", "deltas", "game_scores"), PAIR),
        },
    ),
    GameFinished: ("game_finished", 1, {"scores": PAIR}),
    TurnTimedOut: ("turn_timed_out", 1, {}),
    SeatAbsent: ("seat_absent", 1, {}),
    SeatReturned: ("seat_returned", 1, {}),
    TableClosed: ("table_closed", 1, {}),
}
EVENT_TYPES: dict[str, Any] = {name: cls for cls, (name, _, _) in SCHEMAS.items()}

_NO_SEEDS = ["", "", "", ""]
#: (type, older schema version) -> the fields version 2 added, with the values that mean
#: "before commit-reveal" (docs/fairness.md): stored events of either version replay
UPCASTS: dict[tuple[str, Any], dict[str, Any]] = {
    ("game_started", 1): {"secret_chain": "", "client_seeds": _NO_SEEDS},
    ("hand_dealt", 1): {"secret": "", "client_seeds": _NO_SEEDS},
    ("hand_thrown_in", 1): {"secret": ""},
    ("hand_scored", 1): {"secret": ""},
}


def event_to_dict(event: Event) -> dict[str, Any]:
    """The stored JSON form of an event: `{"type", "v", ...payload}`."""
    name, version, codecs = SCHEMAS[type(event)]
    data: dict[str, Any] = {"type": name, "v": version}
    if isinstance(event, TrickWon):
        data.update(
            trick=event.trick,
            winner=event.winner,
            cards=[
                {"seat": (event.leader + i) % 4, "card": CARD_NAMES[c]}
                for i, c in enumerate(event.cards)
            ],
            points=event.points,
        )
        return data
    if isinstance(event, HandScored):
        return _hand_scored_to_dict(event, data, codecs)
    for field, value in zip(event._fields, event, strict=True):
        data[field] = codecs.get(field, SAME)[0](value)
    return data


def _hand_scored_to_dict(
    event: HandScored, data: dict[str, Any], codecs: dict[str, Codec]
) -> dict[str, Any]:
    for field, value in zip(event._fields, event, strict=True):
        if field == "counted_team":
            data["counted_declarations"] = {"team": value, "points": event.counted_points}
        elif field != "counted_points":
            data[field] = codecs.get(field, SAME)[0](value)
    return data


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The event of a stored JSON form (upcasting older schema versions)."""
    cls = EVENT_TYPES.get(str(data.get("type")))
    if cls is None:
        raise ValueError(f"unknown event type {data.get('type')!r}")
    _, version, codecs = SCHEMAS[cls]
    added = UPCASTS.get((str(data["type"]), data.get("v")))
    if added is not None:
        data = {**added, **data, "v": version}
    if data.get("v") != version:
        raise ValueError(f"unknown schema version {data.get('v')!r} of {data['type']!r}")
    if cls is TrickWon:
        cards = data["cards"]
        return TrickWon(
            data["trick"],
            cards[0]["seat"],
            data["winner"],
            tuple(CARD_IDS[item["card"]] for item in cards),
            data["points"],
        )
    values = dict(data)
    if cls is HandScored:
        counted = values.pop("counted_declarations")
        values["counted_team"], values["counted_points"] = counted["team"], counted["points"]
    event: Event = cls(*(codecs.get(f, SAME)[1](values[f]) for f in cls._fields))
    return event


def action_to_dict(action: Action) -> dict[str, Any]:
    """The wire form of a typed action (what `legal_actions` lists)."""
    if isinstance(action, Play):
        if action.belote is None:
            return {"type": "play", "card": CARD_NAMES[action.card]}
        return {"type": "play", "card": CARD_NAMES[action.card], "belote": action.belote}
    if isinstance(action, Take):
        return {"type": "take"}
    if isinstance(action, Pass):
        return {"type": "pass"}
    if isinstance(action, ChooseTrump):
        return {"type": "choose_trump", "suit": SUITS[action.suit]}
    if isinstance(action, Declare):
        return {"type": "declare", "declarations": _declarations(action.declarations)}
    raise TypeError(action)
