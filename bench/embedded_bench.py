"""The embedded default's bot latency: a person's move committed -> the bot's move appended.

    .venv/bin/python -m bench.embedded_bench [--moves 100]      (about half a minute)

Runs the service as `./scripts/run` does with nothing configured: a SQLite file and the
Celery broker in a second one, in a scratch directory of its own (`BELOTE_VAR_DIR`), and a
real Celery worker in a subprocess. This process plays seat 0 against three `basic` bots
through the service functions the API calls (`games.services.game_act`); after each of
its moves that hands the turn to a bot, it times from the move's commit to the moment
the bot's event can be read (the events are polled every `POLL` seconds, which bounds
the figure's error). Target: p99 under 0.2 s (issue 13).
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
from typing import Any

import django

from bench.load_server import ROOT, worker_command

TARGET_SECONDS = 0.2
POLL = 0.002
PASSWORD = "embedded-bench-password-1"  # a scratch account of a scratch database
# What would point the service at real services instead of the embedded default.
CONFIGURED = ("DATABASE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "REDIS_URL")


def embedded_environment(var_dir: str) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name not in CONFIGURED}
    return {**env, "DJANGO_SETTINGS_MODULE": "belote_project.settings", "BELOTE_VAR_DIR": var_dir}


def migrate(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


def start_worker(env: dict[str, str], node: str) -> subprocess.Popen[bytes]:
    migrate(env)
    command = worker_command(node, "--concurrency", "1", loglevel="warning")
    return subprocess.Popen(command, cwd=ROOT, env=env)


def wait_for_worker(worker: subprocess.Popen[bytes], node: str) -> None:
    from belote_project.worker_probe import worker_answers  # noqa: PLC0415 (after setup)

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        require_alive(worker)
        if worker_answers(node, timeout=1.0):
            return
    raise RuntimeError(f"the Celery worker {node} did not answer within two minutes")


def require_alive(worker: subprocess.Popen[bytes]) -> None:
    if worker.poll() is not None:
        raise RuntimeError(f"the Celery worker exited (status {worker.returncode})")


class Table:
    """One person at seat 0 and three `basic` bots, on the embedded default."""

    def __init__(self, rng: random.Random, worker: subprocess.Popen[bytes]) -> None:
        from accounts.services import user_register  # noqa: PLC0415 (after django.setup)
        from games import services  # noqa: PLC0415

        self.rng = rng
        self.worker = worker
        self.user = user_register(username=f"embedded{rng.randrange(10**9)}", password=PASSWORD)
        self.game = services.game_create(user=self.user, options={}, seat=0)
        for seat in (1, 2, 3):
            services.bot_seat(game_id=self.game.id, user=self.user, level="basic", seat=seat)

    def my_turn(self) -> int | None:
        """Wait until seat 0 is to play (its version) or the game is over (None)."""
        from games.models import Game, GameStatus  # noqa: PLC0415

        while True:
            status, turn, version = (
                Game.objects.filter(pk=self.game.id).values_list("status", "turn", "version").get()
            )
            if status == GameStatus.FINISHED:
                return None
            if status == GameStatus.PLAYING and turn == 0:
                return int(version)
            require_alive(self.worker)
            time.sleep(POLL)

    def move_and_time_the_bot(self, version: int) -> float | None:
        """Play one of seat 0's legal actions; the seconds until a bot's move is readable,
        or None when the move left the turn with seat 0."""
        from games import rules, services, store  # noqa: PLC0415

        state = store.load(self.game.id).state
        action = self.rng.choice(rules.legal_actions(state, 0))
        result = services.game_act(
            game_id=self.game.id, user=self.user, action=action, expected_version=version
        )
        committed = time.perf_counter()
        after = rules.summary(result.after.state)
        if after.status != "playing" or after.turn in (0, None):
            return None
        while not store.load_events_after(self.game.id, result.after.version):
            require_alive(self.worker)
            time.sleep(POLL)
        return time.perf_counter() - committed


def measure(moves: int, rng: random.Random, worker: subprocess.Popen[bytes]) -> list[float]:
    samples: list[float] = []
    table = Table(rng, worker)
    while len(samples) < moves:
        turn = table.my_turn()
        if turn is None:
            table = Table(rng, worker)
            continue
        latency = table.move_and_time_the_bot(turn)
        if latency is not None:
            samples.append(latency)
    return samples


def report(samples: list[float]) -> dict[str, Any]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return {"moves": len(ordered), "p50": statistics.median(ordered), "p99": p99}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=100, help="bot answers to time")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="belote-embedded-") as var_dir:
        env = embedded_environment(var_dir)
        node = f"embedded-bench-{os.getpid()}@{os.uname().nodename}"
        worker = start_worker(env, node)
        try:
            os.environ.clear()
            os.environ.update(env)
            django.setup()
            wait_for_worker(worker, node)
            figures = report(measure(args.moves, random.Random(args.seed), worker))
        finally:
            worker.terminate()
            worker.wait(timeout=60)
    met = "yes" if figures["p99"] < TARGET_SECONDS else "no"
    print(
        "embedded default (SQLite + its SQLite broker): a person's move"
        f" committed -> the bot's move appended, {figures['moves']} moves:"
        f" p50 {figures['p50'] * 1000:.0f} ms, p99 {figures['p99'] * 1000:.0f} ms"
        f" (target p99 < {TARGET_SECONDS * 1000:.0f} ms: {met})"
    )


if __name__ == "__main__":
    main()
