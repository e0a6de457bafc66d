"""Speed of the rules engine on one core.

Run: .venv/bin/python -m bench.rules_bench [--seconds 3]

Prints random full hands per second (deal, bids, 32 plays, scoring; every
choice drawn from legal_actions and passed through parse_action, decide and
apply), the median time to replay a complete recorded game to 501 from its
events, the median time of legal_actions and of view, and the memory of one
game state (tracemalloc). Target: replay < 5 ms (the 5,000 hands/s target is
retired: issue 11; compare engine changes with `./scripts/bench instructions`).
"""

from __future__ import annotations

import argparse
import hashlib
import pickle
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable
from functools import partial

from games import rules
from games.rules.events import Event


def _seed(n: int) -> bytes:
    return hashlib.sha256(n.to_bytes(8, "big", signed=True)).digest()


#: the service draws a fresh secret per command; drawing is not the engine's cost
SEEDS = [_seed(n) for n in range(997)]


def random_game(
    rng: random.Random, number: int, typed: bool = False
) -> tuple[list[Event], int, rules.GameState]:
    """Play one random game to the end; return its events, hands scored and final state.

    Choices come from `legal_actions` (wire dicts, parsed back by `parse_action`),
    or with `typed` from `legal_moves` (typed actions: what a simulation would use).
    The choice is `moves[int(rng.random() * len(moves))]`: uniform over the legal
    actions like `rng.choice`, without its rejection loop over `getrandbits`.
    """
    state = rules.new_game()
    events = list(rules.decide(state, rules.StartGame(_seed(number), _seed(-number - 1))))
    state = rules.replay(events, state)
    # the public entry points, looked up once: a simulation would hoist them too
    legal_moves, legal_actions, parse = rules.legal_moves, rules.legal_actions, rules.parse_action
    decide, apply, action_of = rules.decide, rules.apply, rules.PlayerAction
    draw, record = rng.random, events.extend
    seeds, seed_count = SEEDS, len(SEEDS)
    step = 0
    while state.phase != "finished":
        seat = state.turn
        if typed:
            moves = legal_moves(state, seat)
            action = moves[int(draw() * len(moves))]
        else:
            wires = legal_actions(state, seat)
            action = parse(wires[int(draw() * len(wires))])
        step += 1
        produced = decide(state, action_of(seat, action, seeds[(number * 31 + step) % seed_count]))
        for event in produced:
            state = apply(state, event)
        record(produced)
    # every hand played to its end left its `hand_scored` in the results (throw-ins do not)
    return events, len(state.results), state


def hands_per_second(seconds: float, typed: bool = False) -> float:
    """Hands scored per second of CPU time over `seconds` of play."""
    rng = random.Random(1)
    hands = 0
    number = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        number += 1
        hands += random_game(rng, number, typed)[1]
    return hands / (time.process_time() - start)


def loop_nanoseconds() -> float:
    """CPU ns per iteration of `for i in range(n): total += i`: how fast this box runs
    Python (about 25-40 ns on a current desktop), to put the figures in scale."""
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        total = 0
        for i in range(500_000):
            total += i
        best = min(best, (time.process_time() - start) / 500_000 * 1e9)
    return best


def median_seconds(run: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()

    hands_per_second(1.0)  # warm-up: the first second on a cold VM core runs slow
    rate = hands_per_second(args.seconds)
    typed_rate = hands_per_second(args.seconds, typed=True)
    # the longest of a few random games stands for a recorded game to 501
    events, hands, final = max(
        (random_game(random.Random(n), n) for n in range(20)), key=lambda game: len(game[0])
    )
    replay_time = median_seconds(lambda: rules.replay(events), 200)
    assert rules.replay(events) == final

    states = [
        rules.replay(events[: i + 1]) for i in range(0, len(events), max(1, len(events) // 300))
    ]
    playing = [s for s in states if s.turn >= 0]
    legal_time = statistics.median(
        median_seconds(partial(rules.legal_actions, s, s.turn), 20) for s in playing
    )
    view_time = statistics.median(
        median_seconds(partial(rules.view, s, s.turn), 20) for s in playing
    )

    mid_hand = playing[len(playing) // 2]
    blob = pickle.dumps(mid_hand)
    tracemalloc.start()
    copy = pickle.loads(blob)
    state_bytes, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    tracemalloc.start()
    rules.replay(events)
    _, replay_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert copy == mid_hand

    print(f"this box: {loop_nanoseconds():.0f} ns per simple Python loop iteration")
    print(f"random full hands per second: {rate:,.0f}")
    print(f"  the same with typed actions (legal_moves, no wire dicts): {typed_rate:,.0f}")
    print(
        f"replay of a recorded game to 501 ({hands} hands, {len(events)} events): "
        f"median {replay_time * 1e3:.2f} ms (target < 5 ms)"
    )
    print(f"legal_actions: median {legal_time * 1e6:.1f} us")
    print(f"view: median {view_time * 1e6:.1f} us")
    print(f"one mid-hand game state: {state_bytes:,} bytes (tracemalloc, unpickled copy)")
    print(f"peak memory while replaying the whole game: {replay_peak:,} bytes")


if __name__ == "__main__":
    main()
