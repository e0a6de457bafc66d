"""The turn clocks with a real worker on PostgreSQL and Redis: `./scripts/bench clocks`.

    ./scripts/bench clocks [--moves 100] [--idle-tables 1000] [--timed-tables 20]

A fresh database of its own (`belote_bench_clocks`), Redis, and a real Celery worker
with beat embedded, as `./scripts/run` starts it (`bench.load_server.worker_command`,
two processes, on a queue of its own). This process plays the people through the
service functions the API calls and watches the events table:

1. a person's move committed -> the bot's next event appended (seen by polling every
   `POLL` s): p50, p99; target p50 <= 100 ms;
2. `--idle-tables` tables at a person's turn with an hour on the clock, idle at once:
   the sweeper's tick (`due_turns_expire`, nothing due) run here, its CPU and queries,
   with none and with all of them, and the claim's query plan; then the worker's own
   CPU per beat tick over `IDLE_SECONDS`;
3. `--timed-tables` tables where seat 0 never plays (5 s a turn): each timeout's
   lateness, from its turn's deadline to its event being readable; target p99 <= the
   sweeper's period + 1 s (the grace).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import django
import psycopg

from bench.embedded_bench import wait_for_worker
from bench.load_server import POSTGRES, POSTGRES_URL, ROOT, cpu_ticks, worker_command

DB_NAME = "belote_bench_clocks"
POLL = 0.002
TICKS = 200
IDLE_SECONDS = 20.0
TIMED_SECONDS = 45.0
PASSWORD = "clocks-bench-password-1"  # scratch accounts of a scratch database
BOT_TARGET_MS = 100.0
SWEEP_PERIOD_S = 1.0  # belote_project/settings.py, expire-due-turns
GRACE_S = 1.0  # games/services/clocks.py


def environment(var_dir: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "belote_project.settings",
        "DATABASE_URL": f"{POSTGRES_URL}/{DB_NAME}",
        "CELERY_BROKER_URL": "redis://127.0.0.1:6379/12",
        "REDIS_URL": "redis://127.0.0.1:6379/13",
        "CELERY_TASK_DEFAULT_QUEUE": f"clocks-bench-{os.getpid()}",
        "CACHE_KEY_PREFIX": f"clocks-bench-{os.getpid()}",
        "BELOTE_VAR_DIR": var_dir,
        "DEBUG": "false",
        "SECRET_KEY": "clocks-bench-" + "k" * 40,
        "LOG_LEVEL": "WARNING",
    }


def fresh_database(env: dict[str, str]) -> None:
    with psycopg.connect(f"{POSTGRES} dbname=postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")
    migrate = [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"]
    subprocess.run(migrate, cwd=ROOT, env=env, check=True)


def worker_cpu_seconds(worker: subprocess.Popen[bytes]) -> float:
    """CPU of the worker and its children (the pool's processes, beat), from /proc."""
    children = Path(f"/proc/{worker.pid}/task/{worker.pid}/children").read_text().split()
    ticks = cpu_ticks(str(worker.pid)) + sum(cpu_ticks(pid) for pid in children)
    return ticks / os.sysconf("SC_CLK_TCK")


def worker_per_tick(worker: subprocess.Popen[bytes]) -> float:
    """The worker's CPU seconds per sweeper period over `IDLE_SECONDS` of idling."""
    before = worker_cpu_seconds(worker)
    time.sleep(IDLE_SECONDS)
    return (worker_cpu_seconds(worker) - before) / (IDLE_SECONDS / SWEEP_PERIOD_S)


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[round(0.99 * (len(ordered) - 1))]


def person(rng: random.Random) -> Any:
    from accounts.services import user_register  # noqa: PLC0415 (after django.setup)

    return user_register(username=f"clocks{rng.randrange(10**9)}", password=PASSWORD)


def table_with_bots(user: Any, options: dict[str, Any]) -> Any:
    from games import services  # noqa: PLC0415

    game = services.game_create(user=user, options=options, seat=0)
    for seat in (1, 2, 3):
        services.bot_seat(game_id=game.id, user=user, level="basic", seat=seat)
    return game.id


def seat_0_to_play(game_id: Any) -> int | None:
    """Wait until seat 0 is to play (the version) or the game is over (None)."""
    from games.models import Game, GameStatus  # noqa: PLC0415

    while True:
        row = Game.objects.filter(pk=game_id).values_list("status", "turn", "version").get()
        if row[0] == GameStatus.FINISHED:
            return None
        if row[0] == GameStatus.PLAYING and row[1] == 0:
            return int(row[2])
        time.sleep(POLL)


def bot_answers(moves: int, rng: random.Random) -> list[float]:
    """Seconds from a person's move committed to the bot's next event being readable."""
    from games import rules, services, store  # noqa: PLC0415

    user, samples = person(rng), []
    game_id = table_with_bots(user, {})
    while len(samples) < moves:
        version = seat_0_to_play(game_id)
        if version is None:
            game_id = table_with_bots(user, {})
            continue
        action = rng.choice(rules.legal_actions(store.load(game_id).state, 0))
        done = services.game_act(
            game_id=game_id, user=user, action=action, expected_version=version
        )
        committed = time.perf_counter()
        after = rules.summary(done.after.state)
        if after.status != "playing" or after.turn in (0, None):
            continue
        while not store.load_events_after(game_id, done.after.version):
            time.sleep(POLL)
        samples.append(time.perf_counter() - committed)
    return samples


def idle_tables(count: int, rng: random.Random) -> None:
    """`count` tables of four people, each at its first turn with an hour to play."""
    from games import services  # noqa: PLC0415

    people = [person(rng) for _ in range(4)]
    for _ in range(count):
        game = services.game_create(user=people[0], options={"turn_seconds": 3600}, seat=0)
        for seat in (1, 2, 3):
            services.seat_join(game_id=game.id, user=people[seat], seat=seat)


def sweep_ticks() -> dict[str, float]:
    """The sweeper's tick with nothing due, run here: CPU ms and queries per tick."""
    from django.db import connection  # noqa: PLC0415

    from games import services  # noqa: PLC0415

    queries = 0

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    for _ in range(TICKS // 10):  # warm: the first ticks compile and connect
        services.due_turns_expire()
    started = time.process_time()
    with connection.execute_wrapper(count):
        for _ in range(TICKS):
            assert services.due_turns_expire() == 0
    cpu = time.process_time() - started
    return {"cpu_ms": cpu / TICKS * 1000, "queries": queries / TICKS}


def claim_plan() -> str:
    from django.db import connection  # noqa: PLC0415

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_game")
        cursor.execute(
            "EXPLAIN SELECT id, version FROM games_game WHERE status = 'playing' "
            "AND turn_deadline <= now() ORDER BY turn_deadline LIMIT 100 "
            "FOR UPDATE SKIP LOCKED"
        )
        return "\n".join(f"    {line}" for (line,) in cursor.fetchall())


def lateness(tables: int, rng: random.Random) -> tuple[list[float], list[float]]:
    """Seconds from each timeout's deadline to its event being readable, and to the
    start of the sweep that played it (the time stamped on its events)."""
    from games.models import GameEvent  # noqa: PLC0415

    user = person(rng)
    options = {"turn_seconds": 5, "absent_after": 20}
    games = [table_with_bots(user, options) for _ in range(tables)]
    seen = GameEvent.objects.filter(type="turn_timed_out").order_by("-id").values_list("id")
    last = next(iter(seen), (0,))[0]
    samples: list[float] = []
    sweeps: list[float] = []
    until = time.monotonic() + TIMED_SECONDS
    while time.monotonic() < until:
        marks = list(
            GameEvent.objects.filter(type="turn_timed_out", id__gt=last, game_id__in=games)
            .order_by("id")
            .values_list("id", "game_id", "seq", "created_at")
        )
        now = datetime.now(UTC)
        for mark_id, game_id, seq, swept_at in marks:
            # the move is at seq - 1; the append before it started the turn, and its last
            # event (seq - 2) carries that turn's deadline
            started = GameEvent.objects.get(game_id=game_id, seq=seq - 2)
            samples.append((now - started.turn_deadline).total_seconds())
            sweeps.append((swept_at - started.turn_deadline).total_seconds())
            last = mark_id
        time.sleep(0.01)
    return samples, sweeps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--idle-tables", type=int, default=1000)
    parser.add_argument("--timed-tables", type=int, default=20)
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="belote-clocks-") as var_dir:
        env = environment(var_dir)
        fresh_database(env)
        node = f"clocks-bench-{os.getpid()}@{os.uname().nodename}"
        beat = ["--beat", "--schedule-filename", f"{var_dir}/beat", "--concurrency", "2"]
        worker = subprocess.Popen(
            worker_command(node, *beat, loglevel="warning"), cwd=ROOT, env=env
        )
        try:
            os.environ.update(env)
            django.setup()
            wait_for_worker(worker, node)
            report(args, rng, worker)
        finally:
            worker.terminate()
            worker.wait(timeout=60)


def report(args: argparse.Namespace, rng: random.Random, worker: subprocess.Popen[bytes]) -> None:
    p50, p99 = percentiles(bot_answers(args.moves, rng))
    met = "yes" if p50 * 1000 <= BOT_TARGET_MS else "no"
    print(
        f"a person's move committed -> the bot's next event appended, {args.moves} moves:"
        f" p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms"
        f" (target p50 <= {BOT_TARGET_MS:.0f} ms: {met})",
        flush=True,
    )
    alone, worker_alone = sweep_ticks(), worker_per_tick(worker)
    idle_tables(args.idle_tables, rng)
    crowded = sweep_ticks()
    print(
        f"the sweeper's tick, nothing due, run in this process ({TICKS} ticks):"
        f" {alone['cpu_ms']:.2f} ms CPU and {alone['queries']:.0f} queries with no timed"
        f" table, {crowded['cpu_ms']:.2f} ms CPU and {crowded['queries']:.0f} queries with"
        f" {args.idle_tables} idle timed tables\nthe claim's plan:\n{claim_plan()}",
        flush=True,
    )
    per_tick = worker_per_tick(worker)
    print(
        f"the worker (its 2 pool processes and beat), over {IDLE_SECONDS:.0f} s idle:"
        f" {worker_alone * 1000:.1f} ms CPU per beat tick with no timed table,"
        f" {per_tick * 1000:.1f} ms with {args.idle_tables} idle timed tables",
        flush=True,
    )
    samples, sweeps = lateness(args.timed_tables, rng)
    p50, p99 = percentiles(samples)
    swept_p50, swept_p99 = percentiles(sweeps)
    target = SWEEP_PERIOD_S + GRACE_S
    print(
        f"deadline -> timeout event appended, {len(samples)} timeouts at"
        f" {args.timed_tables} tables: lateness p50 {p50:.2f} s, p99 {p99:.2f} s"
        f" (target p99 <= {target:.0f} s, the sweeper's period + the 1 s grace:"
        f" {'yes' if p99 <= target else 'no'}); deadline -> the start of the task (hint or"
        f" sweep) that played it: p50 {swept_p50:.2f} s, p99 {swept_p99:.2f} s"
    )


if __name__ == "__main__":
    main()
