"""Bot against bot over N deals: `python -m games.bots.match --team0 expert --team1 basic`.

Team 0 (seats 0 and 2) plays `--team0`, team 1 `--team1`. Each deal is an
independent hand dealt from a deck derived from `--seed` and the deal's
number, the dealer rotating. With `--duplicate`, each deal is also replayed
with the teams' seats swapped, so the luck of the cards cancels. The result
is team 0's mean margin (its delta minus team 1's) per hand played.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from multiprocessing import Pool

from games.bots.arena import deal_deck, play_hand
from games.bots.choose import LEVELS
from games.bots.progress import ProgressBar
from games.bots.stats import interval


def deal_margins(task: tuple[int, int, str, str, bool]) -> list[int]:
    """Team 0's margin on deal `index` (twice, seats swapped, if duplicate)."""
    seed, index, team0, team1, duplicate = task
    deck = deal_deck(seed, index)
    dealer = index % 4
    hand_seed = f"{seed}:{index}".encode()
    first = play_hand(deck, (team0, team1) * 2, dealer=dealer, seed=hand_seed)
    margins = [first[0] - first[1]]
    if duplicate:
        second = play_hand(deck, (team1, team0) * 2, dealer=dealer, seed=hand_seed)
        margins.append(second[1] - second[0])
    return margins


def run_deals(
    seed: int,
    deals: int,
    team0: str,
    team1: str,
    *,
    duplicate: bool,
    jobs: int,
    label: str = "deals",
) -> list[list[int]]:
    """Team 0's margins, deal by deal, with a progress bar on stderr."""
    tasks = [(seed, index, team0, team1, duplicate) for index in range(deals)]
    bar = ProgressBar(deals, label)
    results: list[list[int]] = []
    for margins in _mapped(tasks, jobs):
        results.append(margins)
        bar.update(len(results))
    bar.close()
    return results


def _mapped(tasks: list[tuple[int, int, str, str, bool]], jobs: int) -> Iterator[list[int]]:
    if jobs <= 1:
        yield from map(deal_margins, tasks)
        return
    with Pool(jobs) as pool:
        yield from pool.imap(deal_margins, tasks)


def main(argv: list[str] | None = None) -> int:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--team0", choices=LEVELS, required=True)
    parser.add_argument("--team1", choices=LEVELS, required=True)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--duplicate", action="store_true")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    results = run_deals(
        args.seed, args.deals, args.team0, args.team1, duplicate=args.duplicate, jobs=args.jobs
    )
    per_hand = [sum(margins) / len(margins) for margins in results]
    hands = [m for margins in results for m in margins]
    result = interval(per_hand)
    print(
        f"{args.team0} (team 0) vs {args.team1} (team 1): {len(hands)} hands over "
        f"{args.deals} deals{' (duplicate)' if args.duplicate else ''}, seed {args.seed}"
    )
    print(f"team 0 margin per hand: {result}")
    print(
        f"team 0 total margin: {sum(hands):+d}; hands won by team 0: "
        f"{sum(1 for m in hands if m > 0)}, lost: {sum(1 for m in hands if m < 0)}, "
        f"level: {sum(1 for m in hands if m == 0)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
