"""A 64-team Swiss of `random`-bot teams, one-hand games, run by a real Celery worker.

    .venv/bin/python -m bench.tournament_bench [--teams 64] [--rounds 6] [--concurrency 2]

A scratch PostgreSQL database (`belote_bench_tournament`, or `BENCH_DATABASE`) and Redis
on localhost; the worker is `bench/tournament_worker.py` (the production worker counting
each task's SQL statements). This process creates the tournament through the services, starts it and
waits until it has finished by itself. It prints:

- the wall time from the start to the finish;
- the time spent pairing: each round's pairing computed again here from the results of
  the rounds before it (the same function on the same inputs the worker used), summed;
- the database statements per round: all tasks' (the bots' moves are most of them) and
  the tournament's own tasks' (recording results, closing and pairing rounds).
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
import time

import django
import redis

# a database of its own, so that a load benchmark running meanwhile keeps its own
os.environ.setdefault("BENCH_DATABASE", "belote_bench_tournament")
from bench.load_server import (
    DB_NAME,
    POSTGRES_URL,
    REDIS,
    ROOT,
    prepare_database,
)

COUNTS_URL = f"{REDIS}/11"
BROKER_URL = f"{REDIS}/10"


def environment() -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "belote_project.settings",
        "DATABASE_URL": f"{POSTGRES_URL}/{DB_NAME}",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "CELERY_BROKER_URL": BROKER_URL,
        "CELERY_TASK_DEFAULT_QUEUE": f"bench-tournament-{secrets.token_hex(4)}",
        "REDIS_URL": f"{REDIS}/11",
        "BENCH_COUNTS_URL": COUNTS_URL,
        "LOG_LEVEL": "WARNING",
    }


def prepare(env: dict[str, str]) -> None:
    prepare_database(env)
    redis.Redis.from_url(COUNTS_URL).flushdb()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--concurrency", type=int, default=2)
    args = parser.parse_args()
    env = environment()
    prepare(env)
    os.environ.update(env)
    django.setup()
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bench.tournament_worker",
            "--loglevel",
            "warning",
            "--concurrency",
            str(args.concurrency),
            "--queues",
            env["CELERY_TASK_DEFAULT_QUEUE"],
            "-n",
            f"bench-tournament-{os.getpid()}@%h",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        run(args, worker)
    finally:
        worker.terminate()
        worker.wait(timeout=60)


def run(args: argparse.Namespace, worker: subprocess.Popen[bytes]) -> None:
    from accounts.models import User  # noqa: PLC0415 (after django.setup)
    from bench.tournament_worker import STATEMENTS_KEY, TASKS_KEY  # noqa: PLC0415
    from tournaments import services  # noqa: PLC0415
    from tournaments.models import Tournament  # noqa: PLC0415
    from tournaments.services import pairing  # noqa: PLC0415

    organiser = User.objects.create_user(username="bench-organiser", password=None)
    settings = services.Settings(
        name="bench swiss", format="swiss", options={"target": 1}, rounds=args.rounds
    )
    tournament = services.tournament_create(organiser=organiser, settings=settings)
    for number in range(args.teams):
        services.bot_team_add(
            tournament_id=tournament.pk,
            user=organiser,
            name=f"bots {number + 1}",
            levels=("random", "random"),
        )
    time.sleep(3)  # the worker's start, outside the figure
    began = time.perf_counter()
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    while True:
        if worker.poll() is not None:
            raise RuntimeError("the worker exited")
        tournament = Tournament.objects.get(pk=tournament.pk)
        if tournament.status == "finished":
            break
        time.sleep(0.05)
    wall = time.perf_counter() - began
    pairing_seconds = []
    for number in range(1, tournament.total_rounds + 1):
        timed = time.perf_counter()
        pairing.pairings(tournament, number)
        pairing_seconds.append(time.perf_counter() - timed)
    counts = redis.Redis.from_url(COUNTS_URL)
    statements = {k.decode(): int(v) for k, v in counts.hgetall(STATEMENTS_KEY).items()}
    tasks = {k.decode(): int(v) for k, v in counts.hgetall(TASKS_KEY).items()}
    rounds = tournament.total_rounds
    own = sum(n for name, n in statements.items() if name.startswith("tournaments."))
    print(f"tournament: Swiss, {args.teams} teams of random bots, {rounds} rounds, one-hand games")
    print(f"wall time start -> finish: {wall:.1f} s ({wall / rounds:.1f} s a round)")
    print(
        f"time pairing: {sum(pairing_seconds) * 1000:.0f} ms in all, "
        f"slowest round {max(pairing_seconds) * 1000:.0f} ms (round 1 excluded: "
        f"{max(pairing_seconds[1:], default=0) * 1000:.0f} ms)"
    )
    print(
        f"DB statements per round: {sum(statements.values()) / rounds:.0f} in all tasks, "
        f"{own / rounds:.0f} in the tournament's own tasks (the rest: the bots' moves)"
    )
    for name in sorted(tasks):
        print(
            f"  {name}: {tasks[name]} tasks, {statements.get(name, 0) / tasks[name]:.1f} "
            "statements each"
        )


if __name__ == "__main__":
    main()
