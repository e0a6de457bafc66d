"""Load benchmark: mobile clients playing and following games against the production server.

    .venv/bin/python -m bench.load_bench [--tables N [--spectators S] [--follow sse]]
                                         [--think 1.0] [--seconds 15] [--workers 2]

Issue 12's loop, all on 127.0.0.1 (docs/deploy.md's "Measuring" says more):
1. recreates the PostgreSQL database `belote_bench`, migrates it and adds the yardstick's
   table (bench/ceiling.py, routed only by bench/server_settings.py);
2. makes a user for every seat and spectator of the largest phase, each with a token
   (bench/load_users.py: the product's cap on a user's open feeds stays as it is);
   starts the server as in production (gunicorn with the project's uvicorn workers,
   DEBUG off, a random SECRET_KEY, PostgreSQL + Redis), throttles lifted;
3. runs phases of N tables, each of four players who think THINK seconds before acting
   and S spectators; every one of them follows the game by long-poll (or SSE), and a
   player reads its view only when the events show it may be its turn
   (bench/load_table.py, bench/load_feed.py);
4. in each phase, drives the one-row-insert yardstick at the game clients' request rate
   (bench/load_phase.py), and checks that every follower received every event it may
   see exactly once, in order.
With --crowd, only the phases of the crowd target (1 and 200 spectators, each way).
The crowd target's phases (one table) follow their spectators from --clients processes
of their own (bench/load_crowd.py; default 4, at most one per spectator; 0: in this
process with the seats): one process reading 200 answers in turn timestamps the last
ones late by its own work, which 200 phones would not add.
Without --tables it runs the standard set: 1 table with 1 spectator, 32 tables by
long-poll, 32 by SSE, 64 by long-poll, 1 table with 200 spectators, then 1 table with 1
and with 200 spectators by SSE (about seven minutes;
before each phase it waits, at most 25 s, for the server to be quiet), then prints
issue 12's targets as met / not met (exit status 1 if one is not met). The phases of
one table (the crowd target's, with 1 or 200 spectators) measure over CROWD_WINDOWS
times --seconds, both sides of the target alike.
"""

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from subprocess import STDOUT, Popen

import uvloop

from bench.load_phase import PhaseResult, PhaseSpec, Timing, run_phase
from bench.load_report import print_phase, print_targets
from bench.load_server import (
    ROOT,
    ServerCpu,
    free_port,
    prepare_database,
    server_command,
    server_environment,
    trouble_lines,
    wait_until_serving,
)
from bench.load_table import Players
from bench.load_users import make_users

STANDARD_SET = (
    PhaseSpec(tables=1, spectators=1, sse=False),
    PhaseSpec(tables=32, spectators=1, sse=False),
    PhaseSpec(tables=32, spectators=1, sse=True),
    PhaseSpec(tables=64, spectators=1, sse=False),
    PhaseSpec(tables=1, spectators=200, sse=False),
    PhaseSpec(tables=1, spectators=1, sse=True),
    PhaseSpec(tables=1, spectators=200, sse=True),
)
# The crowd target's phases alone: one spectator, then 200, for each way of following.
CROWD_SET = (
    PhaseSpec(tables=1, spectators=1, sse=False),
    PhaseSpec(tables=1, spectators=200, sse=False),
    PhaseSpec(tables=1, spectators=1, sse=True),
    PhaseSpec(tables=1, spectators=200, sse=True),
)
# The crowd target's phases, one table with 1 or with 200 spectators, are measured this
# many times longer than the other phases: at one action a second, 15 s hold about 18
# moves, and a p99 rests on the worst one or two of them. With one spectator it was the
# second largest of about 72 deliveries (one outlier moved it from 26 to 61 ms between
# runs); with 200, the tail of the slowest move (one such move moved it from 38 to 52 ms
# between runs of the same code). Four times as long, for both sides alike.
CROWD_WINDOWS = 4
QUIET_SHARE = 0.2  # of a core: the server has finished the previous phase's requests
SETTLE_SECONDS = 25.0
YARDSTICK_USERS = 4


async def settle(server_cpu: Callable[[], float | None]) -> None:
    """Wait until the server is quiet: requests of the previous phase still queued there
    (a follower's long-poll ends with its phase, the server may not yet know) would
    slow the next one down."""
    deadline = time.monotonic() + SETTLE_SECONDS
    before = server_cpu()
    while before is not None and time.monotonic() < deadline:
        await asyncio.sleep(1.0)
        after = server_cpu()
        if after is None or after - before < QUIET_SHARE:
            return
        before = after


def all_cpu(readers: list[Callable[[], float | None]]) -> Callable[[], float | None]:
    """The servers' worker CPU seconds together (None if one is not known)."""

    def seconds() -> float | None:
        readings = [read() for read in readers]
        return None if None in readings else sum(r for r in readings if r is not None)

    return seconds


def user_counts(specs: list[PhaseSpec]) -> dict[str, int]:
    """Users for each seat and each spectator of the largest phase, and the yardstick's."""
    tables = max(spec.tables for spec in specs)
    spectators = max(spec.tables * spec.spectators for spec in specs)
    return {"seat": 4 * tables, "spectator": spectators, "yardstick": YARDSTICK_USERS}


def users_from(tokens: dict[str, list[str]]) -> tuple[Players, list[str]]:
    """The players (think time set by `run_all`) and the yardstick's tokens."""
    seat = tokens["seat"]
    seats = [seat[number : number + 4] for number in range(0, len(seat), 4)]
    players = Players(
        seats=seats, spectators=tokens["spectator"], think=0.0, spectators_per_table=0, sse=False
    )
    return players, tokens["yardstick"]


async def run_all(
    base_url: str,
    server_cpu: Callable[[], float | None],
    specs: list[PhaseSpec],
    users: tuple[Players, list[str]],
    think: float,
    timing: Timing,
    report: bool = True,
) -> list[PhaseResult]:
    """Run the phases one after another (printing each); their results."""
    players, yardstick = replace(users[0], think=think), users[1]
    results = []
    for spec in specs:
        await settle(server_cpu)
        measured = timing
        if spec.tables == 1:
            measured = replace(timing, seconds=timing.seconds * CROWD_WINDOWS)
        result = await run_phase(base_url, server_cpu, players, yardstick, spec, measured)
        if report:
            print_phase(result, think)
        results.append(result)
    return results


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, help="one phase of this many tables")
    parser.add_argument(
        "--crowd", action="store_true", help="only the phases of the 200-spectator target"
    )
    parser.add_argument("--spectators", type=int, default=1, help="per table (with --tables)")
    parser.add_argument(
        "--follow", choices=("long-poll", "sse"), default="long-poll", help="with --tables"
    )
    parser.add_argument(
        "--clients",
        type=int,
        default=4,
        help="client processes for the spectators of one-table phases (0: this process)",
    )
    parser.add_argument("--think", type=float, default=1.0, help="seconds before each action")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured window")
    parser.add_argument("--rate-seconds", type=float, default=6.0, help="rate window")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before the windows")
    parser.add_argument("--workers", type=int, default=2, help="server worker processes")
    parser.add_argument(
        "--feed-workers",
        type=int,
        default=0,
        help="serve the feed's paths from a second server of this many workers (the "
        "followers poll and stream there, the seats act on the first): a topology to "
        "measure, not one the product ships (0: one server for all)",
    )
    parser.add_argument(
        "--settings",
        default="bench.server_settings",
        help="settings module of the server (to compare a configuration with production's; "
        "it must route the yardstick as bench/server_settings.py does)",
    )
    return parser.parse_args()


def main() -> None:
    args = parse_arguments()
    specs = list(CROWD_SET if args.crowd else STANDARD_SET)
    if args.tables is not None:
        specs = [PhaseSpec(args.tables, args.spectators, sse=args.follow == "sse")]
    specs = [
        replace(spec, clients=min(args.clients, spec.spectators)) if spec.tables == 1 else spec
        for spec in specs
    ]
    env = server_environment(args.settings)
    prepare_database(env)
    port = free_port()
    print(
        f"belote load benchmark: {args.workers} server workers"
        + (f" and {args.feed_workers} for the feed's paths" if args.feed_workers else "")
        + f", think {args.think:.1f} s, "
        f"windows: {args.warmup:.0f} s warm-up + think, {args.rate_seconds:.0f} s rate, "
        f"{args.seconds:.0f} s measured"
    )
    with tempfile.TemporaryFile() as log:
        servers = [
            Popen(server_command(port, args.workers), cwd=ROOT, env=env, stdout=log, stderr=STDOUT)
        ]
        try:
            base_url = f"http://127.0.0.1:{port}"
            wait_until_serving(base_url, servers[0])
            feed_url = ""
            if args.feed_workers:
                feed_port = free_port()
                command = server_command(feed_port, args.feed_workers)
                servers.append(Popen(command, cwd=ROOT, env=env, stdout=log, stderr=STDOUT))
                feed_url = f"http://127.0.0.1:{feed_port}"
                wait_until_serving(feed_url, servers[1])
            timing = Timing(args.warmup, args.rate_seconds, args.seconds)
            cpu = all_cpu([ServerCpu(server).seconds for server in servers])
            players, yardstick = users_from(make_users(env, user_counts(specs)))
            users = (replace(players, feed_url=feed_url), yardstick)
            results = uvloop.run(run_all(base_url, cpu, specs, users, args.think, timing))
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                server.wait(timeout=15)
            log.seek(0)
            trouble = trouble_lines(log.read().decode(errors="replace"))
            if trouble:
                print(f"server log: {len(trouble)} line(s) of trouble, the last ones:")
                print("\n".join(trouble[-10:]))
    sys.exit(0 if print_targets(results) else 1)


if __name__ == "__main__":
    main()
