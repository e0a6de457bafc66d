"""The audit benchmark (issue 15): the verifier, `audit_games`, and the chain's cost.

    .venv/bin/python -m bench.audit_bench [--games 1000] [--appends 400]

1. the offline verifier on a complete game to 501, without bot re-derivation: the
   median over commit-reveal games played by the rules engine (target: under 20 ms);
2. `manage.py audit_games` over `--games` stored games: games audited per second;
3. the hash chain's cost per append: the read of the previous link and the hashing,
   timed on their own beside whole `store.append` calls of the same events, as a share
   of an append; and the `hash` column's share of an event row's bytes.

Parts 2 and 3 need PostgreSQL on its default local port; they recreate the database
`BENCH_DATABASE` (default `belote_bench`: give another name to run beside a load bench).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import django

from bench.audit_games import fair_game, rows_of
from bench.load_server import prepare_database, server_environment
from games.audit.verify import audit_rows

TARGET_MS = 20.0


def verifier_median_ms(games: int = 30, rounds: int = 5) -> tuple[float, int]:
    """Median ms of `audit_rows` on whole games to 501 (each the best of `rounds`)."""
    times, events = [], 0
    for seed in range(games):
        rows = rows_of(fair_game(seed))
        events += len(rows)
        best = float("inf")
        for _ in range(rounds):
            start = time.perf_counter()
            report = audit_rows(rows)
            best = min(best, time.perf_counter() - start)
        assert report.valid, report.discrepancy
        assert report.finished
        times.append(best * 1000)
    return statistics.median(times), events // games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="stored games to audit")
    parser.add_argument("--appends", type=int, default=400, help="appends timed")
    parser.add_argument("--only-verifier", action="store_true", help="part 1 alone, no DB")
    args = parser.parse_args()

    median, events = verifier_median_ms()
    verdict = "ok" if median < TARGET_MS else "MISSED"
    print(f"verifier, a whole game to 501 ({events} events on average), no bot re-derivation:")
    print(f"  median {median:.2f} ms   target < {TARGET_MS:.0f} ms   {verdict}")
    if args.only_verifier:
        return

    env = server_environment("bench.server_settings")
    prepare_database(env)
    os.environ.update(env)
    django.setup()
    from bench.audit_store import audit_games_rate, chain_cost  # noqa: PLC0415

    cost = chain_cost(args.appends)
    print(f"hash chain, per append ({args.appends} appends of one action's events each):")
    print(f"  whole append        {cost.append_ms:.3f} ms (median)")
    print(f"  previous link read  {cost.head_read_ms:.3f} ms (median)")
    print(f"  hashing the events  {cost.hashing_ms:.3f} ms (median)")
    print(f"  the chain's share   {cost.share:.1%} of an append")
    print(
        f"  the hash column     {cost.column_bytes:.0f} of {cost.row_bytes:.0f} bytes a row "
        f"({cost.column_bytes / cost.row_bytes:.1%})"
    )
    rate, summary = audit_games_rate(args.games)
    print(f"manage.py audit_games over {args.games} stored games to 501 (commit-reveal):")
    print(f"  {rate:.0f} games/s   ({summary})")


if __name__ == "__main__":
    main()
