"""Strength and speed of the bots: `python -m bench.bots_bench [--deals N]`.

Strength, duplicate format: every deal is played twice from the same deck
and dealer, the two levels swapping seats, so the luck of the cards cancels.
A deal's result is the first level's margin (its team's delta minus the
other's) averaged over the two hands; each hand is scored on its own (no
waiting points in or out; a litige's waiting half counts for nobody).
Deals are added in batches until the 95% confidence interval of the mean
excludes zero (after a minimum) or the cap `--deals` is reached. Matches run
on `--jobs` processes.

Speed: decision times measured in this process alone (one core), on views
taken from basic-vs-basic hands, every phase, counting only decisions with a
real choice, each level with its default budget: p50 and p99.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from games import rules
from games.bots import choose_action
from games.bots.arena import deal_deck, step
from games.bots.match import run_deals
from games.bots.stats import Interval, interval

MATCHUPS = (("basic", "random", 40.0), ("expert", "basic", 0.0))
BATCH = 40


def strength(first: str, second: str, *, seed: int, cap: int, minimum: int, jobs: int) -> Interval:
    """Sequential duplicate match: batches of deals until the interval excludes zero."""
    per_deal: list[float] = []
    while len(per_deal) < cap:
        batch = min(BATCH, cap - len(per_deal))
        offset = seed * 100_000 + len(per_deal)
        results = run_deals(
            offset, batch, first, second, duplicate=True, jobs=jobs, label=f"{first} vs {second}"
        )
        per_deal.extend(sum(margins) / 2 for margins in results)
        result = interval(per_deal)
        if len(per_deal) >= minimum and result.excludes_zero():
            break
    return interval(per_deal)


def sample_views(count: int, seed: int) -> list[dict[str, Any]]:
    """Views with a real choice, from basic-vs-basic hands, every phase."""
    rng = random.Random(seed)
    views: list[dict[str, Any]] = []
    deal = 0
    while len(views) < count:
        state: Any = rules.dealt_position(dealer=deal % 4, deck=deal_deck(seed, deal))
        deal += 1
        while state is not None:
            seen = rules.view(state, state.turn)
            if len(seen["legal_actions"]) > 1 and rng.random() < 0.5:
                views.append(seen)
            action = choose_action(seen, deal, "basic")
            state = step(state, action)
    return views[:count]


def decision_times(level: str, views: list[dict[str, Any]]) -> list[float]:
    """Seconds per decision of `level` on each view."""
    times = []
    for number, seen in enumerate(views):
        started = time.perf_counter()
        choose_action(seen, number, level)
        times.append(time.perf_counter() - started)
    return times


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description="Bot strength (duplicate) and decision times.")
    parser.add_argument("--deals", type=int, default=800, help="cap of duplicate deals per match")
    parser.add_argument("--min-deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timing-views", type=int, default=200)
    args = parser.parse_args()
    started = time.monotonic()
    views = sample_views(args.timing_views, args.seed)
    print(f"decision times, one core, {len(views)} views with a choice (default budgets):")
    for level in ("random", "basic", "expert"):
        times = decision_times(level, views)
        print(
            f"  {level:7s} p50 {_percentile(times, 0.5) * 1e3:7.2f} ms   "
            f"p99 {_percentile(times, 0.99) * 1e3:7.2f} ms   "
            f"mean {statistics.fmean(times) * 1e3:7.2f} ms"
        )
    print("strength, duplicate deals, margin per hand of the first level:")
    for first, second, target in MATCHUPS:
        result = strength(
            first, second, seed=args.seed, cap=args.deals, minimum=args.min_deals, jobs=args.jobs
        )
        verdict = "excludes 0" if result.excludes_zero() else "does NOT exclude 0"
        print(
            f"  {first} vs {second}: {result}; interval {verdict}; "
            f"target mean >= {target:+.0f}: {'met' if result.mean >= target else 'NOT met'}"
        )
    print(f"total {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
