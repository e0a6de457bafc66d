"""The load benchmark's spectators spread over client processes of their own (`--clients K`).

One client process reading 200 followers' answers one after another timestamps the last
of them late by its own work: the time it spent on the others (its client parses each
answer and sends each next poll), not the server's. Real spectators are 200 phones.
With `--clients K`, a table's spectators are split over K processes, each running
`python -m bench.load_crowd`: the same followers as bench/load_feed.py, each with an
HTTP client of its own (`Clients`), on the phase's clock (`time.monotonic()` is the machine's, the
same in every process).

The parent writes the orders as one JSON line on the child's stdin: base URL, game,
tokens, SSE or long-poll, the feed's server, the clock's three moments. Once the table's
players have stopped, it writes a second line: the last seq each token may see. The child lets its
followers catch up to it (at most DRAIN_SECONDS), then answers one JSON line on stdout:
each follower's received seqs and timings, its errors, and its CPU in the measured window.
"""

import asyncio
import json
import sys
import time
from dataclasses import dataclass
from typing import Any

import uvloop

from bench.load_feed import Clients, Follower
from bench.load_http import HTTP_TIMEOUT
from bench.load_measures import PhaseClock, Tally

DRAIN_SECONDS = 10.0
LINE_LIMIT = 1 << 26  # an answer carries every seq and timing of its followers


@dataclass
class Followed:
    """What one follower of a child process received: its seqs, its timed deliveries."""

    token: str
    received: list[int]
    timings: list[tuple[int, float]]


@dataclass
class CrowdResult:
    followers: list[Followed]
    errors: list[str]
    cpu_measured: float  # the processes' CPU seconds in the measured window


class CrowdProcesses:
    """A table's spectators for one game, followed by `processes` child processes."""

    def __init__(
        self, base_url: str, game_id: str, tokens: list[str], clock: PhaseClock, sse: bool,
        processes: int, feed_url: str,
    ) -> None:  # fmt: skip
        self._orders = [
            {
                "base_url": base_url,
                "game_id": game_id,
                "tokens": tokens[number::processes],
                "sse": sse,
                "feed_url": feed_url,
                "clock": [clock.rate_opens, clock.opens, clock.closes],
            }
            for number in range(processes)
            if tokens[number::processes]
        ]
        self.tokens = tokens
        self._children: list[asyncio.subprocess.Process] = []

    async def start(self) -> None:
        """Start the children; return once each has its followers polling."""
        for orders in self._orders:
            child = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bench.load_crowd",
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=LINE_LIMIT,
            )  # fmt: skip
            assert child.stdin is not None
            child.stdin.write(json.dumps(orders).encode() + b"\n")
            await child.stdin.drain()
            self._children.append(child)
        for child in self._children:
            assert child.stdout is not None
            if (await child.stdout.readline()).strip() != b"following":
                raise RuntimeError("a crowd process did not start")

    async def finish(self, last_seqs: dict[str, int]) -> CrowdResult:
        """Tell the children the last seq each token may see; gather what they received."""
        result = CrowdResult(followers=[], errors=[], cpu_measured=0.0)
        for child in self._children:
            assert child.stdin is not None
            child.stdin.write(json.dumps(last_seqs).encode() + b"\n")
            await child.stdin.drain()
        for child in self._children:
            assert child.stdout is not None
            answer = json.loads(await child.stdout.readline())
            await child.wait()
            result.followers.extend(
                Followed(f["token"], f["received"], [tuple(t) for t in f["timings"]])
                for f in answer["followers"]
            )
            result.errors.extend(answer["errors"])
            result.cpu_measured += answer["cpu_measured"]
        return result

    def kill(self) -> None:
        for child in self._children:
            if child.returncode is None:
                child.kill()


async def _measure_cpu(clock: PhaseClock, into: list[float]) -> None:
    for moment in (clock.opens, clock.closes):
        await clock.until(moment)
        into.append(time.process_time())


async def _child(orders: dict[str, Any], lines: asyncio.StreamReader) -> dict[str, Any]:
    clock = PhaseClock.at(*orders["clock"])
    tally = Tally()
    clients = Clients(orders["base_url"], HTTP_TIMEOUT, orders["tokens"])
    followers = [
        Follower(
            clients.of(token),
            orders["game_id"],
            token,
            clock,
            tally,
            feed_url=orders["feed_url"],
        )
        for token in orders["tokens"]
    ]
    cpu: list[float] = []
    tasks = [asyncio.create_task(f.follow(orders["sse"])) for f in followers]
    measuring = asyncio.create_task(_measure_cpu(clock, cpu))
    print("following", flush=True)
    last_seqs: dict[str, int] = json.loads(await lines.readline())
    if len(cpu) == 1:  # its game ended inside the window: its share of the window ends here
        cpu.append(time.process_time())
    deadline = time.monotonic() + DRAIN_SECONDS
    while time.monotonic() < deadline and any(
        f.received[-1:] != [last_seqs[f.token]] for f in followers if last_seqs.get(f.token)
    ):
        await asyncio.sleep(0.05)
    for task in [*tasks, measuring]:
        task.cancel()
    await asyncio.gather(*tasks, measuring, return_exceptions=True)
    await clients.aclose()
    return {
        "followers": [
            {"token": f.token, "received": f.received, "timings": f.timings} for f in followers
        ],
        "errors": tally.errors,
        "cpu_measured": cpu[1] - cpu[0] if len(cpu) >= 2 else 0.0,
    }


async def _main() -> None:
    loop = asyncio.get_running_loop()
    lines = asyncio.StreamReader(limit=LINE_LIMIT)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(lines), sys.stdin)
    orders = json.loads(await lines.readline())
    answer = await _child(orders, lines)
    print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    uvloop.run(_main())
