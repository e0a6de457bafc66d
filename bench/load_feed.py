"""The load benchmark's followers: a seat or a spectator reading its game's feed live.

A follower reads `GET /games/{id}/events?after=N&wait=20` in a loop (long-poll) or holds
`GET /games/{id}/stream` open, reconnecting with `Last-Event-ID` (SSE). For each event it
checks that seqs only increase (nothing twice, nothing out of order) and notes its
delivery time: receive time minus the event's `created_at` (the server's clock, which is
this machine's). A seat's follower also tracks whose turn the events imply (TurnTracker),
so that its player reads the view only when it may have to act. Every user has an HTTP
client of its own (`Clients`), in this process or in a crowd process (load_crowd.py), and
every follower its own connection for its long-polls (load_http.py says why).
"""

import asyncio
import json
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

import aiohttp

from bench.load_http import LONG_POLL_WAIT, PollConnection, bearer, fetch
from bench.load_measures import PhaseClock, Tally


class Clients:
    """An HTTP client of its own for each user, as each phone has: one shared pool of
    hundreds of connections made the client's connection search the benchmark's
    bottleneck (with 200 spectators the client spent its time assigning requests to
    connections while the server sat idle)."""

    def __init__(
        self, base_url: str, timeout: aiohttp.ClientTimeout, tokens: Iterable[str]
    ) -> None:
        self.base_url, self._timeout = base_url, timeout
        self._clients: dict[str, aiohttp.ClientSession] = {}
        for token in tokens:  # before the phase's clock starts
            self.of(token)

    def of(self, token: str) -> aiohttp.ClientSession:
        """The user's client: its feed and its player's requests, a few connections."""
        client = self._clients.get(token)
        if client is None:
            client = aiohttp.ClientSession(
                base_url=self.base_url,
                connector=aiohttp.TCPConnector(limit=4),
                timeout=self._timeout,
            )
            self._clients[token] = client
        return client

    async def aclose(self) -> None:
        for client in self._clients.values():
            await client.close()


class TurnTracker:
    """The seat to act as the events show it (docs/rules-api.md's event table).

    The next seat after a bid or a card, the trick's winner after a trick, the declaring
    seat after a declaration (it plays its card next), the dealer's left after a deal or
    once trump is set; nobody once the game is finished. A hand's last trick, its score
    and the next deal come in one append, so the last event of a batch decides.
    """

    def __init__(self) -> None:
        self.turn: int | None = None
        self._dealer: int | None = None

    def see(self, event: dict[str, Any]) -> None:
        kind, data = event["type"], event["data"]
        if kind == "hand_dealt":
            self._dealer = data["dealer"]
        if kind in ("hand_dealt", "trump_set") and self._dealer is not None:
            self.turn = (self._dealer + 1) % 4
        elif kind in ("bid", "card_played"):
            self.turn = (data["seat"] + 1) % 4
        elif kind == "declared":
            self.turn = data["seat"]
        elif kind == "trick_won":
            self.turn = data["winner"]
        elif kind == "game_finished":
            self.turn = None


class Follower:
    """One viewer (a seat's player or a spectator) following one game."""

    def __init__(
        self,
        client: aiohttp.ClientSession,
        game_id: str,
        token: str,
        clock: PhaseClock,
        tally: Tally,
        *,
        feed_url: str,
        on_batch: Callable[[], None] | None = None,
    ) -> None:
        """`feed_url`: the server the follower follows its game on (the players', or
        another one for the feed's paths)."""
        self.client, self.game_id, self.token = client, game_id, token
        self.feed_url = feed_url
        self.clock, self.tally, self.on_batch = clock, tally, on_batch
        self.cursor = 0  # the feed's last_seq (it moves past events this viewer may not see)
        self.received: list[int] = []
        self.tracker = TurnTracker()
        self.finished = False
        # (seq, delivery seconds) of events received in the measured window; the seats'
        # own appends are taken out once the run is over (Table.deliveries).
        self.timings: list[tuple[int, float]] = []
        # When it began to follow: events older than that reach it by catching up, and
        # their age says when the follower came, not how fast the feed delivers.
        self.following_since = float("inf")

    def receive(self, event: dict[str, Any]) -> None:
        now = time.monotonic()
        seq = event["seq"]
        if self.received and seq <= self.received[-1]:
            self.tally.error(f"{self.game_id}: seq {seq} after {self.received[-1]}")
        self.received.append(seq)
        sent = datetime.fromisoformat(event["created_at"]).timestamp()
        if self.clock.inside(now) and sent >= self.following_since:
            self.timings.append((seq, time.time() - sent))
        self.tracker.see(event)
        self.finished = self.finished or event["type"] == "game_finished"

    def batch_done(self) -> None:
        if self.on_batch is not None:
            self.on_batch()

    async def long_poll(self) -> None:
        """Follow by long-polls until the game is finished (or the task is cancelled)."""
        connection = PollConnection(self.feed_url, self.token)
        path = f"/api/v1/games/{self.game_id}/events"
        try:
            while not self.finished:
                params = {"after": self.cursor, "wait": LONG_POLL_WAIT}
                response = await connection.get(path, params)
                if response.status != 200:
                    self.tally.error(f"events: {response.status} {response.text[:200]}")
                    await asyncio.sleep(1.0)
                    continue
                page = response.json()
                for event in page["events"]:
                    self.receive(event)
                self.cursor = page["last_seq"]
                self.batch_done()
        finally:
            connection.close()

    async def stream(self) -> None:
        """Follow by Server-Sent Events until the game is finished, reconnecting as a client
        does (`Last-Event-ID`: the last seq received) when the stream ends."""
        url = f"{self.feed_url}/api/v1/games/{self.game_id}/stream"
        while not self.finished:
            headers = {**bearer(self.token), "Last-Event-ID": str(self.cursor)}
            async with self.client.get(url, headers=headers) as response:
                if response.status == 204:
                    return
                if response.status != 200:
                    text = (await response.read()).decode(errors="replace")
                    self.tally.error(f"stream: {response.status} {text[:200]}")
                    await asyncio.sleep(1.0)
                    continue
                async for line in response.content:
                    if line.startswith(b"data:"):
                        event = json.loads(line[5:])
                        self.receive(event)
                        self.cursor = event["seq"]
                        self.batch_done()

    async def follow(self, sse: bool) -> None:
        self.following_since = time.time()
        await (self.stream() if sse else self.long_poll())


async def all_visible_seqs(client: aiohttp.ClientSession, game_id: str, token: str) -> list[int]:
    """The seqs a fresh read of `/events?after=0`, page after page, gives this viewer."""
    seqs: list[int] = []
    after = 0
    while True:
        params = {"after": after, "limit": 500}
        response = await fetch(
            client, "GET", f"/api/v1/games/{game_id}/events", token, params=params
        )
        if response.status != 200:
            raise RuntimeError(f"{response.url}: {response.status} {response.text}")
        page = response.json()
        seqs.extend(event["seq"] for event in page["events"])
        after = page["last_seq"]
        if page["next"] is None:
            return seqs
