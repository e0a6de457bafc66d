"""The `expert` bids: each legal bid is simulated on sampled deals.

A sample places the other hands and the stock. For each bid the rest of the
bidding is played by the basic bidding heuristic (for every seat, this one
included in round 2), the rest is dealt, declarations and belote are counted,
and the hand is played out by the card-play heuristic; the bid with the best
total margin wins. A hand thrown in is worth 0.
"""

from __future__ import annotations

import random

from games.bots.bidding import basic_bid
from games.bots.budget import Budget
from games.bots.knowledge import Knowledge
from games.bots.outcome import Objective
from games.bots.playout import Table
from games.bots.sampler import sample_deal
from games.rules.belote import belote_holder
from games.rules.declarations import Declaration, best_sets, count_declarations

SUIT_LETTERS = "CDHS"


def expert_bid(
    knowledge: Knowledge,
    *,
    round_: int,
    bids_made: int,
    offered: list[str],
    rng: random.Random,
    budget: Budget,
) -> str:
    """The offered bid (`take`, `pass`, a suit letter) with the best simulated margin."""
    totals = dict.fromkeys(offered, 0)
    for done in range(budget.bid_samples):
        if done and budget.expired():
            break
        hands, stock = sample_deal(knowledge, rng)
        for bid in offered:
            totals[bid] += _simulate(
                knowledge, hands=hands, stock=stock, round_=round_, bids_made=bids_made, bid=bid
            )
    return max(offered, key=lambda bid: totals[bid])


def _finish_bidding(
    knowledge: Knowledge, hands: list[int], round_: int, bids_made: int, bid: str
) -> tuple[int, int]:
    """(taker, trump) after `bid`, the others bidding by the heuristic; (-1, -1) if thrown in."""
    dealer = knowledge.dealer
    turned = knowledge.turned
    seat = knowledge.seat
    position = bids_made % 4
    while True:
        if bid != "pass":
            trump = turned & 3 if bid == "take" else SUIT_LETTERS.index(bid)
            return seat, trump
        position += 1
        if position == 4:
            if round_ == 2:
                return -1, -1
            round_, position = 2, 0
        seat = (dealer + 1 + position) & 3
        bid = basic_bid(seat, dealer, round_, hands[seat], turned)


def _simulate(
    knowledge: Knowledge,
    *,
    hands: list[int],
    stock: list[int],
    round_: int,
    bids_made: int,
    bid: str,
) -> int:
    taker, trump = _finish_bidding(knowledge, hands, round_, bids_made, bid)
    if taker < 0:
        return 0
    full = list(hands)
    full[taker] |= 1 << knowledge.turned
    cursor = 0
    for step in range(1, 5):
        seat = (knowledge.dealer + step) & 3
        count = 2 if seat == taker else 3
        for card in stock[cursor : cursor + count]:
            full[seat] |= 1 << card
        cursor += count
    counted_team: int | None = None
    counted_points = 0
    if knowledge.options.declarations:
        declared: list[tuple[Declaration, ...]] = []
        for hand in full:
            offers = best_sets(hand)
            declared.append(offers[0] if offers else ())
        counted = count_declarations(tuple(declared), trump)
        counted_team, counted_points = counted.team, counted.points
    holder = belote_holder(tuple(full), trump)
    objective = Objective(
        knowledge.options,
        team=knowledge.seat & 1,
        taker_team=taker & 1,
        counted_team=counted_team,
        counted_points=counted_points,
        belote_team=holder & 1 if holder >= 0 else None,
    )
    table = Table(
        full,
        trump,
        taker,
        (knowledge.dealer + 1) & 3,
        (),
        [0, 0],
        [0, 0],
        knowledge.options.overtrump_partner_on_trump_lead,
    )
    table.play_out()
    return objective(table.points, table.tricks)
