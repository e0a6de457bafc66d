"""The embedded broker under a burst: many tasks sent at once from several processes.

    .venv/bin/python -m bench.broker_bench [--tasks 1000] [--producers 4] [--pace 0]

Runs the embedded default as `./scripts/run` does with nothing configured (SQLite and its
Celery broker, in a scratch `BELOTE_VAR_DIR`), with a real `celery worker` (prefork, two
processes) while `--producers` processes, standing in for the web workers, each send
their share of `diagnostics.ping` tasks as fast as they can. It waits until every task
has run, then reads the worker's log: each task id must have been received and must have
succeeded exactly once, and the worker must still be alive. Exit status 1 otherwise.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import django

from bench.embedded_bench import embedded_environment, migrate
from bench.load_server import ROOT, worker_command

DEADLINE_SECONDS = 300
TRANSPORT_LINE = re.compile(r"\.> transport: +([a-z+]+)://")
LOG_LINE = re.compile(r"Task diagnostics\.ping\[([0-9a-f-]+)\] (received|succeeded)")


def start_worker(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    migrate(env)
    command = worker_command(f"broker-bench-{os.getpid()}@%h", "--concurrency", "2")
    with log.open("wb") as out:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


def produce(prefix: str, count: int, pace: float) -> None:
    """One producer process: send ``count`` pings ``pace`` s apart on average, print their
    task ids."""
    django.setup()
    from belote_project.tasks import ping  # noqa: PLC0415 (after django.setup)

    rng = random.Random(prefix)
    for n in range(count):
        print(ping.delay(f"{prefix}-{n}").id, flush=True)
        if pace:
            time.sleep(rng.uniform(0, 2 * pace))


def start_producers(
    env: dict[str, str], tasks: int, producers: int, pace: float
) -> list[subprocess.Popen[str]]:
    shares = [tasks // producers + (i < tasks % producers) for i in range(producers)]
    run = uuid.uuid4().hex[:8]
    produce = [sys.executable, "-m", "bench.broker_bench", "--pace", str(pace), "--produce"]
    return [
        subprocess.Popen(
            [*produce, f"{run}-{i}", str(share)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for i, share in enumerate(shares)
    ]


def counts(log: Path) -> dict[str, collections.Counter[str]]:
    seen: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for task_id, what in LOG_LINE.findall(log.read_text(errors="replace")):
        seen[what][task_id] += 1
    return seen


def wait_until_done(
    worker: subprocess.Popen[bytes], log: Path, sent: set[str]
) -> tuple[float, dict[str, collections.Counter[str]]]:
    started = time.monotonic()
    while time.monotonic() - started < DEADLINE_SECONDS:
        seen = counts(log)
        if sent <= seen["succeeded"].keys() or worker.poll() is not None:
            break
        time.sleep(0.2)
    return time.monotonic() - started, counts(log)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=1000)
    parser.add_argument("--producers", type=int, default=4)
    parser.add_argument(
        "--pace",
        type=float,
        default=0.0,
        help="mean seconds between one producer's sends (0: as fast as it can); a pace the"
        " worker keeps up with leaves the queue empty, so that the worker reads each message"
        " as soon as it appears",
    )
    parser.add_argument("--produce", nargs=2, metavar=("PREFIX", "COUNT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.produce:
        produce(args.produce[0], int(args.produce[1]), args.pace)
        return 0
    with tempfile.TemporaryDirectory(prefix="belote-broker-") as var_dir:
        env = {**embedded_environment(var_dir), "LOG_LEVEL": "WARNING"}
        log = Path(var_dir) / "worker.log"
        worker = start_worker(env, log)
        try:
            begun = time.monotonic()
            producers = start_producers(env, args.tasks, args.producers, args.pace)
            sent = {line.strip() for p in producers for line in p.communicate()[0].splitlines()}
            send_seconds = time.monotonic() - begun
            seconds, seen = wait_until_done(worker, log, sent)
            died = worker.poll()
        finally:
            worker.terminate()
            worker.wait(timeout=60)
        transport = TRANSPORT_LINE.search(log.read_text(errors="replace"))
        broker = transport.group(1) if transport else "?"
        received, succeeded = seen["received"], seen["succeeded"]
        twice = sum(1 for task in sent if succeeded[task] > 1 or received[task] > 1)
        never = sum(1 for task in sent if not succeeded[task])
        ok = died is None and not twice and not never and len(sent) == args.tasks
        print(
            f"embedded broker ({broker}): {len(sent)} tasks from {args.producers} producers"
            f" (pace {args.pace} s)"
            f" sent in {send_seconds:.1f} s, all run {seconds + send_seconds:.1f} s after the"
            f" first; ran once: {len(sent) - twice - never}, more than once: {twice},"
            f" never: {never}; worker {'alive' if died is None else f'DIED (status {died})'}"
            f" -> {'ok' if ok else 'FAILED'}"
        )
        if not ok:
            errors = [
                line
                for line in log.read_text(errors="replace").splitlines()
                if "Error" in line or "CRITICAL" in line
            ]
            print("\n".join(errors[-10:]))
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
