"""Commands given to `decide`, the typed player actions, and their wire parsing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from games.rules.cards import CARD_IDS, SUITS, mask_of
from games.rules.declarations import KINDS, Declaration
from games.rules.errors import RuleError
from games.rules.options import Options


class Take(NamedTuple):
    """Round 1: take the turned card's suit as trump."""


class Pass(NamedTuple):
    """Round 1 or 2: pass."""


class ChooseTrump(NamedTuple):
    """Round 2: name a suit other than the turned card's."""

    suit: int


class Declare(NamedTuple):
    """Announce declarations before the seat's first card."""

    declarations: tuple[Declaration, ...]


class Play(NamedTuple):
    """Play a card; `belote` is the explicit choice where `auto_belote` is off."""

    card: int
    belote: bool | None = None


Action = Take | Pass | ChooseTrump | Declare | Play

TAKE = Take()
PASS = Pass()
#: the plain play of each card, by card id: actions are immutable, one instance serves all
PLAYS = tuple(Play(card) for card in range(32))


class StartGame(NamedTuple):
    """The fourth seat filled: start the game and deal the first hand.

    With commit-reveal (docs/fairness.md) the service derives both seeds from the first
    hand's `hand_secret` and the seats' `client_seeds`, and `secret_chain` is the
    commitment it published when the table was created.
    """

    game_seed: bytes
    hand_seed: bytes
    options: Options = Options()
    hand_secret: bytes = b""
    secret_chain: str = ""
    client_seeds: tuple[str, str, str, str] = ("", "", "", "")


class PlayerAction(NamedTuple):
    """A seat's action; `next_hand_seed` deals the next hand if this one ends (derived
    from `next_hand_secret`, revealed when that hand ends: docs/fairness.md).

    `timed_out`: the service plays it for the seat, whose time ran out.
    """

    seat: int
    action: Action
    next_hand_seed: bytes
    timed_out: bool = False
    next_hand_secret: bytes = b""


class LeaveSeat(NamedTuple):
    """The player of `seat` leaves a running game: a bot plays the seat for them."""

    seat: int


class ReturnSeat(NamedTuple):
    """The player of an absent `seat` takes it back from the bot."""

    seat: int


class CloseTable(NamedTuple):
    """Close a table that is still waiting for players: no game will be played at it."""

    reason: str


Command = StartGame | PlayerAction | LeaveSeat | ReturnSeat | CloseTable

_FIELDS = {
    "take": {"type"},
    "pass": {"type"},
    "choose_trump": {"type", "suit"},
    "declare": {"type", "declarations"},
    "play": {"type", "card", "belote"},
}


def _invalid(message: str) -> RuleError:
    return RuleError("invalid_action", message)


def _card(value: Any) -> int:
    if not isinstance(value, str) or value not in CARD_IDS:
        raise _invalid(f"not a card: {value!r}")
    return CARD_IDS[value]


def _declaration(value: Any) -> Declaration:
    if not isinstance(value, Mapping) or set(value) != {"kind", "cards"}:
        raise _invalid("a declaration is {kind, cards}")
    kind, names = value["kind"], value["cards"]
    if kind not in KINDS or not isinstance(names, list):
        raise _invalid(f"not a declaration: {value!r}")
    ids = [_card(name) for name in names]
    if len(set(ids)) != len(ids):
        raise _invalid("a declaration names a card twice")
    return Declaration(kind, mask_of(ids))


#: the common case, `{"type": "play", "card": name}`, parsed by one dict lookup
_PLAIN_PLAYS = {name: PLAYS[card] for name, card in CARD_IDS.items()}


def parse_action(wire: Mapping[str, Any]) -> Action:
    """A wire action (`{"type": "play", "card": "JH"}`) as a typed action.

    Raises `RuleError("invalid_action")` for an unknown type, a bad card or
    suit, or a missing or extra field.
    """
    if type(wire) is dict and len(wire) == 2 and wire.get("type") == "play":
        card = wire.get("card")
        if type(card) is str and card in _PLAIN_PLAYS:
            return _PLAIN_PLAYS[card]
    kind = wire.get("type") if isinstance(wire, Mapping) else None
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise _invalid(f"unknown action type {kind!r}")
    keys = set(wire)
    required = _FIELDS[kind] - {"belote"}
    if not required <= keys <= _FIELDS[kind]:
        raise _invalid(f"{kind!r} takes the fields {sorted(_FIELDS[kind])}")
    if kind == "take":
        return TAKE
    if kind == "pass":
        return PASS
    if kind == "choose_trump":
        suit = wire["suit"]
        if not isinstance(suit, str) or len(suit) != 1 or suit not in SUITS:
            raise _invalid(f"not a suit: {suit!r}")
        return ChooseTrump(SUITS.index(suit))
    if kind == "declare":
        listed = wire["declarations"]
        if not isinstance(listed, list):
            raise _invalid("declarations must be a list")
        return Declare(tuple(_declaration(item) for item in listed))
    belote = wire.get("belote")
    if belote is not None and not isinstance(belote, bool):
        raise _invalid("belote must be true or false")
    return Play(_card(wire["card"]), belote)
