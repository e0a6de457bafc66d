"""What one seat knows about the hidden cards, read from its view alone.

Every play in the hand's history is tested against the rules' own legality
function: a card `c` is ruled out for the seat that played `p` on a trick when
holding just `{p, c}` would have made `p` illegal (the obligations only ever
grow with the hand, so this test is exact card by card). That covers the
voids revealed by not following, not trumping, not overtrumping.
Shown declarations and belote calls add cards known to be held (or not).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.bots.tables import FULL_DECK
from games.rules import legal_cards_mask
from games.rules.belote import BELOTE_PAIRS
from games.rules.cards import CARD_IDS, SUITS, mask_from_names
from games.rules.declarations import Declaration, points_of
from games.rules.options import Options

BIDDING_PHASES = ("bidding_1", "bidding_2")


@dataclass
class Knowledge:
    """The seat's picture of the hand: own cards, what each seat may hold, what is known."""

    seat: int
    dealer: int
    options: Options
    hand: int
    trump: int
    taker: int
    turned: int
    leader: int
    trick: tuple[int, ...]
    played: int
    points: list[int]
    tricks_won: list[int]
    sizes: list[int]
    #: per seat, the cards it may hold (the seat's own hand for itself)
    holdings: list[int] = field(default_factory=list)
    #: per seat, the cards it surely holds (shown declarations, belote, turned card)
    known: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    #: per seat, the kinds it announced whose cards are still hidden
    hidden_kinds: list[tuple[str, ...]] = field(default_factory=lambda: [(), (), (), ()])
    #: per seat, the cards it has played this hand
    played_by: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    #: per seat, the declarations whose cards the seat has seen (its own, or shown)
    visible: list[list[Declaration]] = field(default_factory=lambda: [[], [], [], []])
    declared_seats: frozenset[int] = frozenset()
    #: the bids of the hand: (seat, round, bid)
    bids: tuple[tuple[int, int, str], ...] = ()
    counted: tuple[int | None, int] | None = None
    belote_team: int | None = None

    @property
    def unseen(self) -> int:
        """The cards whose place the seat does not know (incl. the stock in bidding)."""
        result = 0
        for seat in range(4):
            if seat != self.seat:
                result |= self.holdings[seat]
        return result


def _card(name: str) -> int:
    return CARD_IDS[name]


def _history(view: dict[str, Any]) -> list[tuple[int, tuple[int, ...]]]:
    """Every trick of the hand so far, finished or not: (leader, cards)."""
    tricks = [
        (record["leader"], tuple(_card(play["card"]) for play in record["cards"]))
        for record in view["tricks"]
    ]
    if view["trick"]:
        tricks.append((view["trick"][0]["seat"], tuple(_card(p["card"]) for p in view["trick"])))
    return tricks


def read_view(view: dict[str, Any]) -> Knowledge:
    """Build the seat's knowledge from `rules.view(state, seat)`."""
    seat = view["seat"]
    options = Options.from_record(view["options"])
    history = _history(view)
    leader, trick = (history[-1][0], history[-1][1]) if view["trick"] else (-1, ())
    if not view["trick"] and view["tricks"]:
        leader = view["tricks"][-1]["winner"]
    elif not view["trick"]:
        leader = (view["dealer"] + 1) & 3
    trump = SUITS.index(view["trump"]) if view["trump"] else -1
    turned = _card(view["turned_card"]) if view["turned_card"] else -1
    knowledge = Knowledge(
        seat=seat,
        dealer=view["dealer"],
        options=options,
        hand=mask_from_names(view["hand"]),
        trump=trump,
        taker=view["taker"] if view["taker"] is not None else -1,
        turned=turned,
        leader=leader,
        trick=trick,
        played=0,
        points=list(view["trick_points"]),
        tricks_won=list(view["tricks_won"]),
        sizes=[view["hand_sizes"][str(s)] for s in range(4)],
        bids=tuple((b["seat"], b["round"], b["bid"]) for b in view["bids"]),
    )
    for lead, cards in history:
        for index, card in enumerate(cards):
            knowledge.played_by[(lead + index) & 3] |= 1 << card
            knowledge.played |= 1 << card
    unseen = FULL_DECK & ~knowledge.hand & ~knowledge.played
    if view["phase"] in BIDDING_PHASES and turned >= 0:
        unseen &= ~(1 << turned)
    knowledge.holdings = [knowledge.hand if s == seat else unseen for s in range(4)]
    if trump >= 0:
        _infer_from_plays(knowledge, history)
        _read_declarations(knowledge, view)
        _read_belote(knowledge, view)
        if knowledge.taker >= 0 and turned >= 0:
            _know(knowledge, knowledge.taker, (1 << turned) & unseen)
    return knowledge


def _exclude(knowledge: Knowledge, seat: int, cards: int) -> None:
    if seat != knowledge.seat:
        knowledge.holdings[seat] &= ~cards


def _know(knowledge: Knowledge, seat: int, cards: int) -> None:
    if seat == knowledge.seat or not cards:
        return
    knowledge.known[seat] |= cards
    for other in range(4):
        if other not in (seat, knowledge.seat):
            knowledge.holdings[other] &= ~cards


def _infer_from_plays(knowledge: Knowledge, history: list[tuple[int, tuple[int, ...]]]) -> None:
    trump = knowledge.trump
    strict = knowledge.options.overtrump_partner_on_trump_lead
    for lead, cards in history:
        led = cards[0] & 3
        for index in range(1, len(cards)):
            card = cards[index]
            player = (lead + index) & 3
            if player == knowledge.seat or (card & 3 == led and led != trump):
                continue  # following a plain suit reveals nothing
            before = cards[:index]
            played = 1 << card
            ruled_out = 0
            candidates = knowledge.holdings[player]
            while candidates:
                low = candidates & -candidates
                candidates ^= low
                if not legal_cards_mask(played | low, before, trump, strict) & played:
                    ruled_out |= low
            _exclude(knowledge, player, ruled_out)


def _read_declarations(knowledge: Knowledge, view: dict[str, Any]) -> None:
    shown = bool(view["tricks"])
    counted_points = 0
    hidden: list[list[str]] = [[], [], [], []]
    seats = set()
    for item in view["declarations"]:
        owner = item["seat"]
        seats.add(owner)
        if item["cards"] is None:
            hidden[owner].append(item["kind"])
            continue
        cards = mask_from_names(item["cards"])
        knowledge.visible[owner].append(Declaration(item["kind"], cards))
        _know(knowledge, owner, cards & ~knowledge.played)
        if shown and view["declarations_team"] == owner & 1:
            counted_points += points_of(Declaration(item["kind"], cards))
    knowledge.hidden_kinds = [tuple(kinds) for kinds in hidden]
    knowledge.declared_seats = frozenset(seats)
    if shown:
        knowledge.counted = (view["declarations_team"], counted_points)


def _read_belote(knowledge: Knowledge, view: dict[str, Any]) -> None:
    pair = BELOTE_PAIRS[knowledge.trump]
    calls: dict[int, list[str]] = {}
    for item in view["belote"]:
        calls.setdefault(item["seat"], []).append(item["call"])
    for seat, said in calls.items():
        knowledge.belote_team = seat & 1
        if "rebelote" not in said:
            _know(knowledge, seat, pair & ~knowledge.played_by[seat])
    if knowledge.options.auto_belote:
        for seat in range(4):
            if knowledge.played_by[seat] & pair and seat not in calls:
                _exclude(knowledge, seat, pair)
