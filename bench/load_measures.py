"""The load benchmark's clock and tallies: a phase's windows and what its clients record."""

import asyncio
import time
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

Sent = TypeVar("Sent")


class PhaseClock:
    """A warm-up, then the rate window (game clients alone), then the measured window.

    The rate window measures the game clients' request rate and the server's CPU per
    action with nothing else running; the measured window adds the yardstick at that rate
    and gives the latencies.
    """

    def __init__(self, warmup: float, rate_seconds: float, seconds: float) -> None:
        self.rate_opens = time.monotonic() + warmup
        self.opens = self.rate_opens + rate_seconds
        self.closes = self.opens + seconds

    @classmethod
    def at(cls, rate_opens: float, opens: float, closes: float) -> "PhaseClock":
        """Another process's clock: its three moments (`time.monotonic()` is machine-wide)."""
        clock = cls(0.0, 0.0, 0.0)
        clock.rate_opens, clock.opens, clock.closes = rate_opens, opens, closes
        return clock

    def running(self) -> bool:
        return time.monotonic() < self.closes

    def in_rate_window(self, moment: float) -> bool:
        return self.rate_opens <= moment < self.opens

    def inside(self, moment: float) -> bool:
        return self.opens <= moment < self.closes

    async def until(self, moment: float) -> None:
        await asyncio.sleep(max(0.0, moment - time.monotonic()))


def percentile_ms(latencies: list[float], share: float) -> float:
    """The `share` quantile of `latencies` (seconds) in ms (nearest rank); nan if empty."""
    if not latencies:
        return float("nan")
    ordered = sorted(latencies)
    return 1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass
class Tally:
    """Everything one phase's clients record; latencies in seconds."""

    posts: list[float] = field(default_factory=list)
    views: list[float] = field(default_factory=list)
    deliveries: list[float] = field(default_factory=list)
    # Each event's deliveries, by (game, seq): how long its first and its last follower
    # waited, which a p99 over all deliveries blends (a crowd's spread, a slow move).
    by_event: dict[tuple[str, int], list[float]] = field(default_factory=dict)
    yardstick: list[float] = field(default_factory=list)
    rate_window_requests: int = 0  # POSTs and view GETs started in the rate window
    rate_window_actions: int = 0
    actions: int = 0  # POSTs answered 201 that started in the measured window
    conflicts: int = 0  # 409 version_conflict, each followed by a resync
    errors: list[str] = field(default_factory=list)
    views_off_turn: int = 0  # view GETs that found it was not the seat's turn after all
    games_finished: int = 0
    crowd_cpu: float = 0.0  # the crowd processes' CPU seconds in the measured window

    async def timed(self, clock: PhaseClock, into: list[float], request: Awaitable[Sent]) -> Sent:
        """Await a POST or view GET; record its latency if it started in the measured window.

        A request is counted in the rate window when it starts: counted once answered,
        a saturated server's slow answers came after the yardstick read the rate (0/s).
        """
        started = time.monotonic()
        self.rate_window_requests += clock.in_rate_window(started)
        response = await request
        if clock.inside(started):
            into.append(time.monotonic() - started)
        return response

    def count_action(self, clock: PhaseClock, started: float) -> None:
        """Count an action (a POST answered 201) that started in one of the windows."""
        self.actions += clock.inside(started)
        self.rate_window_actions += clock.in_rate_window(started)

    def delivered(self, game: str, timings: Iterable[tuple[int, float]]) -> None:
        """Record a follower's (seq, delivery seconds) of `game`'s events."""
        for seq, seconds in timings:
            self.deliveries.append(seconds)
            self.by_event.setdefault((game, seq), []).append(seconds)

    def first_and_last(self) -> tuple[list[float], list[float]]:
        """For each event, its first follower's delivery and its last one's."""
        events = self.by_event.values()
        return [min(times) for times in events], [max(times) for times in events]

    def error(self, what: str) -> None:
        if len(self.errors) < 1000:
            self.errors.append(what)
