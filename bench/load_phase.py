"""One phase of the load benchmark: its tables, the yardstick at their rate, the CPU read.

The phase's clock (bench/load_measures.py) opens a rate window after the warm-up, where
the game clients run alone: their request rate (POSTs and view GETs; the feed's held
requests are not counted) and the server's CPU per action come from it. In the measured
window that follows, separate client tasks POST to the yardstick endpoint at that rate,
open-loop (one request every 1/rate s, whatever the answers' latency), and every latency
is recorded.
"""

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import aiohttp

from bench.load_feed import Clients
from bench.load_http import HTTP_TIMEOUT, fetch
from bench.load_measures import PhaseClock, Tally
from bench.load_server import database_transactions, postgres_cpu_seconds
from bench.load_table import Check, Players, Table, open_game

YARDSTICK_PATH = "/api/v1/bench/insert"
YARDSTICK_CONCURRENCY = 64


@dataclass
class PhaseSpec:
    tables: int
    spectators: int
    sse: bool
    clients: int = 0  # client processes for each table's spectators (0: this process)

    @property
    def label(self) -> str:
        feed = "SSE" if self.sse else "long-poll"
        where = f" (spectators in {self.clients} client processes)" if self.clients else ""
        return f"{self.tables} tables, {self.spectators} spectator(s) each, {feed}{where}"


@dataclass
class Timing:
    warmup: float
    rate_seconds: float
    seconds: float


@dataclass
class CpuReading:
    """CPU seconds so far: the server's workers (None: not known), all PostgreSQL processes,
    this process; and the benchmark database's transactions so far."""

    workers: float | None
    postgres: float | None
    client: float
    transactions: int | None

    @classmethod
    def now(cls, server_cpu: Callable[[], float | None]) -> "CpuReading":
        return cls(
            server_cpu(), postgres_cpu_seconds(), time.process_time(), database_transactions()
        )


def _spent(later: float | None, earlier: float | None) -> float | None:
    return None if later is None or earlier is None else later - earlier


@dataclass
class PhaseResult:
    spec: PhaseSpec
    timing: Timing
    tally: Tally = field(default_factory=Tally)
    check: Check = field(default_factory=Check)
    yardstick_rate: float = 0.0
    readings: list[CpuReading] = field(default_factory=list)  # rate window open, close, end

    def workers_cpu(self, window: int) -> float | None:
        return _spent(self.readings[window + 1].workers, self.readings[window].workers)

    def postgres_cpu(self, window: int) -> float | None:
        return _spent(self.readings[window + 1].postgres, self.readings[window].postgres)

    def transactions(self, window: int) -> float | None:
        later, earlier = self.readings[window + 1].transactions, self.readings[window].transactions
        return None if later is None or earlier is None else float(later - earlier)

    def client_cpu(self, window: int) -> float:
        return self.readings[window + 1].client - self.readings[window].client


async def drive_yardstick(
    client: aiohttp.ClientSession, tokens: list[str], clock: PhaseClock, result: PhaseResult
) -> None:
    """POST to the yardstick at the game clients' rate through the measured window."""
    await clock.until(clock.opens)
    tally = result.tally
    result.yardstick_rate = rate = tally.rate_window_requests / result.timing.rate_seconds
    if rate <= 0:
        return
    slots = asyncio.Semaphore(YARDSTICK_CONCURRENCY)
    pending: set[asyncio.Task[None]] = set()

    async def insert(token: str) -> None:
        async with slots:
            started = time.monotonic()
            response = await fetch(client, "POST", YARDSTICK_PATH, token)
            tally.yardstick.append(time.monotonic() - started)
            if response.status != 201:
                tally.error(f"yardstick: {response.status} {response.text[:200]}")

    sent = 0
    while (moment := clock.opens + sent / rate) < clock.closes:
        await clock.until(moment)
        task = asyncio.create_task(insert(tokens[sent % len(tokens)]))
        pending.add(task)
        task.add_done_callback(pending.discard)
        sent += 1
    await asyncio.gather(*pending)


async def read_cpu(
    server_cpu: Callable[[], float | None], clock: PhaseClock, result: PhaseResult
) -> None:
    for moment in (clock.rate_opens, clock.opens, clock.closes):
        await clock.until(moment)
        result.readings.append(CpuReading.now(server_cpu))


async def run_phase(
    base_url: str,
    server_cpu: Callable[[], float | None],
    players: Players,
    yardstick_tokens: list[str],
    spec: PhaseSpec,
    timing: Timing,
) -> PhaseResult:
    """Play the phase's tables through its windows; the figures and the check."""
    result = PhaseResult(spec=spec, timing=timing)
    players = replace(
        players, spectators_per_table=spec.spectators, sse=spec.sse, crowd_processes=spec.clients
    )
    timeout = HTTP_TIMEOUT
    spectators = players.spectators[: spec.tables * spec.spectators]
    seated = [token for table in players.seats[: spec.tables] for token in table]
    in_process = [] if players.crowd_processes else spectators  # the others: load_crowd.py
    clients = Clients(base_url, timeout, [*seated, *in_process])
    try:
        connector = aiohttp.TCPConnector(limit=YARDSTICK_CONCURRENCY)
        async with aiohttp.ClientSession(
            base_url=base_url, connector=connector, timeout=timeout
        ) as yardstick:
            # Opening 64 tables takes a while on a busy machine: the clock starts once they are.
            games = await asyncio.gather(
                *(
                    open_game(clients.of(players.seats[number][0]), players.seats[number])
                    for number in range(spec.tables)
                )
            )
            clock = PhaseClock(timing.warmup + players.think, timing.rate_seconds, timing.seconds)
            tables = [
                Table(clients, players, number, clock, result.tally, result.check).run(game)
                for number, game in enumerate(games)
            ]
            await asyncio.gather(
                *tables,
                drive_yardstick(yardstick, yardstick_tokens, clock, result),
                read_cpu(server_cpu, clock, result),
            )
    finally:
        await clients.aclose()
    return result
