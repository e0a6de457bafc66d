"""Instructions per random hand of the rules benchmark, counted by valgrind (callgrind).

Run: .venv/bin/python -m bench.instructions_bench [--games 15] [--typed]

Wall-clock figures on a shared VM swing by 30% from run to run; an instruction count
does not: the same code, interpreter and inputs give the same count, whatever else the
machine is doing. This plays the rules benchmark's first GAMES random games (the same
seeds, so the same hands) under callgrind, once more with no game at all, and prints
the difference per hand scored: the figure to compare before and after a change to the
engine. Needs valgrind on the PATH (about 20 s for 15 games).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.rules_bench import random_game

ROOT = Path(__file__).resolve().parent.parent


def play(games: int, typed: bool) -> int:
    """Hands scored by the benchmark's first `games` random games."""
    rng = random.Random(1)
    return sum(random_game(rng, number, typed)[1] for number in range(1, games + 1))


def instructions(games: int, typed: bool) -> tuple[int, int]:
    """(instructions, hands) of a whole interpreter run playing `games` games."""
    with tempfile.TemporaryDirectory() as scratch:
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={scratch}/callgrind.out",
            sys.executable,
            "-m",
            "bench.instructions_bench",
            "--play",
            str(games),
            *(["--typed"] if typed else []),
        ]
        done = subprocess.run(
            command,
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": "0"},
            capture_output=True,
            text=True,
            check=True,
        )
    counted = re.search(r"Collected : (\d+)", done.stderr)
    played = re.search(r"^hands (\d+)$", done.stdout, re.MULTILINE)
    if counted is None or played is None:
        raise RuntimeError(f"unexpected valgrind output:\n{done.stderr[-2000:]}")
    return int(counted.group(1)), int(played.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=15)
    parser.add_argument("--typed", action="store_true", help="choose through legal_moves")
    parser.add_argument("--play", type=int, help=argparse.SUPPRESS)  # the measured child
    args = parser.parse_args()
    if args.play is not None:
        print(f"hands {play(args.play, args.typed)}")
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed: this benchmark counts instructions with it")
    baseline, _ = instructions(0, args.typed)
    total, hands = instructions(args.games, args.typed)
    path = "legal_moves" if args.typed else "legal_actions + parse_action"
    print(
        f"rules engine: {(total - baseline) / hands:,.0f} instructions per random hand "
        f"({hands} hands of {args.games} games, choices through {path}; callgrind)"
    )


if __name__ == "__main__":
    main()
