"""The `expert` card play: determinized Monte Carlo over sampled deals.

Each sample is a deal of the unseen cards consistent with the seat's view.
Every legal card is tried on it: with few tricks left by exact alpha-beta,
earlier by a heuristic playout of the rest of the hand. The card with the
best total margin over the samples is played (the same samples for every
card, so their luck cancels).
"""

from __future__ import annotations

import random

from games.bots.budget import Budget
from games.bots.knowledge import Knowledge
from games.bots.outcome import Objective
from games.bots.playout import Table
from games.bots.sampler import sample_hands
from games.bots.search import Solver
from games.rules.belote import belote_holder
from games.rules.declarations import Declaration, best_sets, count_declarations


def expert_card(knowledge: Knowledge, legal: list[int], rng: random.Random, budget: Budget) -> int:
    """The card with the best mean margin over `budget.samples` sampled deals."""
    totals = dict.fromkeys(legal, 0)
    exact = knowledge.sizes[knowledge.seat] <= budget.exact_tricks
    for done in range(budget.samples):
        if done and budget.expired():
            break
        hands = sample_hands(knowledge, rng)
        objective = hand_objective(knowledge, hands)
        table = Table(
            hands,
            knowledge.trump,
            knowledge.taker,
            knowledge.leader,
            knowledge.trick,
            list(knowledge.points),
            list(knowledge.tricks_won),
            knowledge.options.overtrump_partner_on_trump_lead,
        )
        if exact:
            for card, value in (
                Solver(table, objective.team, objective).card_values(table, legal).items()
            ):
                totals[card] += value
            continue
        for card in legal:
            trial = table.copy()
            trial.play(card)
            trial.play_out()
            totals[card] += objective(trial.points, trial.tricks)
    return max(legal, key=lambda card: totals[card])


def hand_objective(knowledge: Knowledge, hands: list[int]) -> Objective:
    """The scoring of the hand on a sampled deal: declarations and belote placed."""
    full = tuple(hands[s] | knowledge.played_by[s] for s in range(4))
    if knowledge.counted is not None:
        counted_team, counted_points = knowledge.counted
    else:
        counted_team, counted_points = _sampled_declarations(knowledge, full)
    belote_team = knowledge.belote_team
    if belote_team is None:
        holder = belote_holder(full, knowledge.trump)
        belote_team = holder & 1 if holder >= 0 else None
    return Objective(
        knowledge.options,
        team=knowledge.seat & 1,
        taker_team=knowledge.taker & 1,
        counted_team=counted_team,
        counted_points=counted_points,
        belote_team=belote_team,
    )


def _sampled_declarations(knowledge: Knowledge, full: tuple[int, ...]) -> tuple[int | None, int]:
    """Who would count what, before the declarations are shown."""
    if not knowledge.options.declarations:
        return None, 0
    declared: list[tuple[Declaration, ...]] = []
    for seat in range(4):
        if knowledge.visible[seat]:
            declared.append(tuple(knowledge.visible[seat]))
        elif seat in knowledge.declared_seats or (
            seat != knowledge.seat and not knowledge.played_by[seat]
        ):
            offers = best_sets(full[seat])
            declared.append(offers[0] if offers else ())
        else:
            declared.append(())
    count = count_declarations(tuple(declared), knowledge.trump)
    return count.team, count.points
