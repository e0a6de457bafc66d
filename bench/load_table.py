"""The load benchmark's tables: four players and their spectators, one game after another.

Each seat's player follows the game (bench/load_feed.py) and, when the events show it may
be its turn, GETs its view, thinks, POSTs a random entry of `legal_actions` with
`expected_version`, and goes on from the view the POST answers while it is still its turn
(after its own trick, say). A 409 `version_conflict` is counted and the player resyncs by
reading its view again. A finished game is replaced by a new one at the same table.
Once the phase ends, each follower's received seqs are compared with a fresh read.
"""

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bench.load_crowd import CrowdProcesses, Followed
from bench.load_feed import Clients, Follower, all_visible_seqs
from bench.load_http import Answer, fetch
from bench.load_measures import PhaseClock, Tally

SEATS = range(4)
DRAIN_SECONDS = 10.0  # how long followers get to catch up once the players stop


@dataclass
class Players:
    """Who sits and who watches: four seat users of its own for each table, and the
    spectators' users, `spectators_per_table` of them for each table in turn."""

    seats: list[list[str]]
    spectators: list[str]
    think: float
    spectators_per_table: int
    sse: bool
    # Client processes of their own for each table's spectators (bench/load_crowd.py);
    # 0: they run in this process with the seats.
    crowd_processes: int = 0
    # The feed's paths on a server of their own (`--feed-workers`); "": the same server.
    feed_url: str = ""


@dataclass
class Check:
    """The exactly-once check: followers and events compared, and what did not match."""

    followers: int = 0
    events: int = 0
    mismatches: list[str] = field(default_factory=list)


def expect(response: Answer, status: int) -> dict[str, Any]:
    if response.status != status:
        raise RuntimeError(f"{response.url}: {response.status} {response.text}")
    body: dict[str, Any] = response.json()
    return body


class Player:
    """A seat's player: reads its view when its follower says it may be its turn, then acts."""

    def __init__(self, follower: Follower, seat: int, think: float, chooser: random.Random):
        self.follower, self.seat, self.think, self.chooser = follower, seat, think, chooser
        self.known_version = -1  # the version of the latest view this player has
        self.own: set[int] = set()  # the seqs its own actions appended
        self.wake = asyncio.Event()
        follower.on_batch = self.wake.set

    @property
    def _url(self) -> str:
        return f"/api/v1/games/{self.follower.game_id}"

    async def play(self) -> None:
        clock = self.follower.clock
        while clock.running() and not self.follower.finished:
            try:
                await asyncio.wait_for(self.wake.wait(), clock.closes - time.monotonic())
            except TimeoutError:
                return
            self.wake.clear()
            if self.follower.tracker.turn != self.seat:
                continue
            if self.follower.cursor <= self.known_version:
                continue
            view: dict[str, Any] | None = await self._read_view(counted=True)
            while view is not None and view["turn"] == self.seat:
                await asyncio.sleep(self.think)
                if not clock.running():
                    return
                view = await self._act(view)

    async def _read_view(self, counted: bool) -> dict[str, Any] | None:
        follower, tally = self.follower, self.follower.tally
        request = fetch(follower.client, "GET", self._url, follower.token)
        response = await tally.timed(follower.clock, tally.views, request)
        if response.status != 200:
            tally.error(f"view: {response.status} {response.text[:200]}")
            return None
        view: dict[str, Any] = response.json()
        self.known_version = view["version"]
        if counted and view["turn"] != self.seat and follower.clock.inside(time.monotonic()):
            tally.views_off_turn += 1
        return view

    async def _act(self, view: dict[str, Any]) -> dict[str, Any] | None:
        follower, tally = self.follower, self.follower.tally
        body = {
            "action": self.chooser.choice(view["legal_actions"]),
            "expected_version": view["version"],
        }
        started = time.monotonic()
        request = fetch(follower.client, "POST", f"{self._url}/actions", follower.token, body=body)
        response = await tally.timed(follower.clock, tally.posts, request)
        if response.status == 201:
            game: dict[str, Any] = response.json()["game"]
            self.own.update(range(view["version"] + 1, game["version"] + 1))
            self.known_version = game["version"]
            tally.count_action(follower.clock, started)
            return game
        if response.status == 409 and response.json().get("code") == "version_conflict":
            tally.conflicts += 1
            return await self._read_view(counted=False)
        tally.error(f"action: {response.status} {response.text[:200]}")
        return None


async def open_game(client: aiohttp.ClientSession, seats: list[str]) -> str:
    created = await fetch(
        client, "POST", "/api/v1/games", seats[0], body={"options": {}, "seat": 0}
    )
    game_id: str = expect(created, 201)["id"]
    for seat in SEATS[1:]:
        path = f"/api/v1/games/{game_id}/seats"
        expect(await fetch(client, "POST", path, seats[seat], body={"seat": seat}), 201)
    return game_id


class Table:
    """One table of the phase: plays games until the phase's clock closes."""

    def __init__(
        self, clients: Clients, players: Players, number: int, clock: PhaseClock,
        tally: Tally, check: Check,
    ) -> None:  # fmt: skip
        self.clients, self.players, self.clock = clients, players, clock
        self.tally, self.check = tally, check
        self.chooser = random.Random(number)
        self.seats = players.seats[number]
        self.first_spectator = number * players.spectators_per_table

    async def run(self, first_game: str) -> None:
        """Play `first_game` (opened before the phase's clock started), then new ones."""
        await asyncio.sleep(self.players.think * self.chooser.random())  # tables not in step
        game_id = first_game
        while True:
            await self._one_game(game_id)
            if not self.clock.running():
                return
            game_id = await open_game(self.clients.of(self.seats[0]), self.seats)

    async def _one_game(self, game_id: str) -> None:
        first, many = self.first_spectator, self.players.spectators_per_table
        spectators = self.players.spectators[first : first + many]
        # Where everyone follows the game: the players' server, or one for the feed's paths.
        feed_url = self.players.feed_url or self.clients.base_url
        crowd = None
        if self.players.crowd_processes and spectators:
            crowd = CrowdProcesses(
                self.clients.base_url, game_id, spectators, self.clock, self.players.sse,
                self.players.crowd_processes, feed_url,
            )  # fmt: skip
            await crowd.start()
            spectators = []
        followers = [
            Follower(
                self.clients.of(token),
                game_id,
                token,
                self.clock,
                self.tally,
                feed_url=feed_url,
            )
            for token in [*self.seats, *spectators]
        ]
        players = [
            Player(followers[seat], seat, self.players.think, self.chooser) for seat in SEATS
        ]
        following = [asyncio.create_task(f.follow(self.players.sse)) for f in followers]
        try:
            await asyncio.gather(*(player.play() for player in players))
            received = await self._drain(game_id, followers, crowd)
        finally:
            if crowd is not None:
                crowd.kill()
        for task in following:
            task.cancel()
        await asyncio.gather(*following, return_exceptions=True)
        for number, follower in enumerate(followers):
            mine = players[number].own if number < len(players) else set()
            self.tally.delivered(game_id, (t for t in follower.timings if t[0] not in mine))
        for crowd_follower in received:
            self.tally.delivered(game_id, crowd_follower.timings)
        self.tally.games_finished += followers[0].finished

    async def _drain(
        self, game_id: str, followers: list[Follower], crowd: CrowdProcesses | None
    ) -> list[Followed]:
        """Once no one plays: let each follower catch up, then compare what it received
        with a fresh read; what the crowd's processes received."""
        tokens = {f.token for f in followers} | set(crowd.tokens if crowd else ())
        expected: dict[str, list[int]] = {}
        for token in tokens:
            expected[token] = await all_visible_seqs(self.clients.of(token), game_id, token)
        received: list[Followed] = []
        if crowd is not None:
            result = await crowd.finish({t: seqs[-1] for t, seqs in expected.items() if seqs})
            received = result.followers
            self.tally.crowd_cpu += result.cpu_measured
            for error in result.errors:
                self.tally.error(error)
        deadline = time.monotonic() + DRAIN_SECONDS
        while time.monotonic() < deadline and any(
            f.received[-1:] != expected[f.token][-1:] for f in followers
        ):
            await asyncio.sleep(0.05)
        got = [(f.token, f.received) for f in followers] + [(f.token, f.received) for f in received]
        for token, seqs in got:
            self.check.followers += 1
            self.check.events += len(seqs)
            if seqs != expected[token]:
                self.check.mismatches.append(
                    f"{game_id}: received {len(seqs)} events, a fresh read "
                    f"gives {len(expected[token])}"
                )
        return received
