"""One reader per followed game per process, shared by everyone following it.

Long-polls and streams of a game do not read the database each on their own: they follow
the game's `GameHub`. A hub reads the game when a follower arrives (a read that starts
after it did) and when a notification says the game moved, one read at a time however
many followers wait: the game's version, status and seat map in one statement
(`game_heading`), then only the events it has not seen yet. It keeps the latest events
(a `Window`) with the state after each, so each event is redacted once per seat, and
hands every follower its page from memory, for the seat the follower holds in that read's
seat map. A follower whose cursor is older than the window gets the events from the
store, still paired with that read's seats and version.

The reads run on the event loop's default thread pool with a fresh context, never on the
threads the feed's requests share (games/api/asgi.py) and never inside one request's
context: a request that ends does not take the read others wait for with it
(games/feed/threads.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from games.feed.events import EventsAfter, events_after, visible_events
from games.feed.listener import Wakeup, game_wakeups
from games.feed.selectors import FeedPage, FeedViewer, GameHeading
from games.feed.threads import detached, in_pool_thread
from games.feed.window import Window, fetch

# Hubs nobody follows kept per process, so a long-poll's next request finds its window.
IDLE_HUBS_KEPT = 256
# A followed game is read at least this often even if no notification comes.
WATCH_SECONDS = 30.0
# A hub whose last watcher left keeps watching this long: a long-poll answered a moment
# ago comes back within milliseconds, and a hub watched all along needs no read for it.
WATCH_LINGER_SECONDS = 10.0


@dataclass(frozen=True)
class HubRead:
    """One read of the game by its hub: `index` orders reads by when they started."""

    index: int
    heading: GameHeading
    window: Window
    # (watch, wakes) when the read started, if notifications reached the hub then.
    watched_from: tuple[int, int] | None = None


_fetch_in_thread = in_pool_thread(fetch)
_events_after_in_thread = in_pool_thread(events_after)


class GameHub:
    """The reads of one game that every follower in this process shares."""

    def __init__(self, game_id: UUID) -> None:
        self.game_id = game_id
        self.followers = 0
        self.watchers = 0  # followers that wait for what comes next
        self._loop = asyncio.get_running_loop()
        self._window: Window | None = None
        self._latest: HubRead | None = None
        self._failed: tuple[int, BaseException] | None = None
        self._started = 0
        self._reading: asyncio.Task[None] | None = None
        self._again = False
        self._news = asyncio.Event()
        self._watch: asyncio.Task[None] | None = None
        self._watching = asyncio.Event()
        self._wakeup: Wakeup | None = None  # the watch's, once it is subscribed
        self._watches = 0  # watches started so far: one that stops and restarts counts anew
        self._wakes = 0  # notifications (and timeouts) the watch has woken for
        self._linger: asyncio.TimerHandle | None = None
        # Older cursors' events, read once per read, cursor and page size.
        self._tails: dict[tuple[int, int, int], asyncio.Task[EventsAfter]] = {}

    async def fresh_read(self, *, then_wait: bool = False) -> HubRead:
        """A read that started after this call: it sees every seat change and event
        committed before the call.

        A follower that will wait for the next read (`then_wait`) may get the latest
        read instead, without a query, when nothing can have changed since it started:
        the game had started (seats change only before, games/services/tables.py), the
        hub has watched without a break since, and no notification (nor a lost listener
        connection) came in between. An event committed whose notification is still on
        its way is missing from it, but that notification wakes the hub and the
        follower's wait ends with the read it makes."""
        latest = self._latest
        if then_wait and latest is not None and self._still_current(latest):
            return latest
        wanted = self._started + 1
        self._request_read()
        return await self._read_from(wanted, timeout=None)  # type: ignore[return-value]

    def _still_current(self, read: HubRead) -> bool:
        return (
            self._reading is None
            and read.heading.version > 0
            and read.watched_from == (self._watches, self._wakes)
            and self._wakeup is not None
            and self._wakeup.notified
        )

    async def next_read(self, seen: HubRead, timeout: float) -> HubRead | None:
        """The first read after `seen` (one runs when the game is notified), or None
        after `timeout` seconds."""
        return await self._read_from(seen.index + 1, timeout=timeout)

    async def page(self, read: HubRead, viewer: FeedViewer, *, after: int, limit: int) -> FeedPage:
        """Up to `limit` events after `after` as `viewer` sees them, for the seat it
        holds in `read`, and never past `read`'s version."""
        heading = read.heading
        seat = heading.seats.get(viewer.user_id)
        up_to = min(heading.version, after + limit)
        events: list[dict[str, Any]] = []
        if up_to > after:
            if read.window.start <= after:
                events = read.window.page(seat, after, up_to)
            else:
                tail = await self._tail(read, after, up_to - after)
                events = visible_events(tail.before, tail.stream, seat)
        return FeedPage(
            events=events,
            last_seq=max(up_to, after),
            version=heading.version,
            finished=heading.finished,
            seat=seat,
        )

    async def _tail(self, read: HubRead, after: int, limit: int) -> EventsAfter:
        key = (read.index, after, limit)
        task = self._tails.get(key)
        if task is None:
            if self._tails and next(iter(self._tails))[0] != read.index:
                self._tails.clear()  # keep only the latest read's
            task = self._tails[key] = detached(
                self._loop, _events_after_in_thread(self.game_id, after, limit=limit)
            )
        # A follower leaving must not cancel what the others wait for.
        return await asyncio.shield(task)

    async def _read_from(self, index: int, timeout: float | None) -> HubRead | None:
        try:
            async with asyncio.timeout(timeout):
                while True:
                    if self._failed is not None and self._failed[0] >= index:
                        raise self._failed[1]
                    if self._latest is not None and self._latest.index >= index:
                        return self._latest
                    await self._news.wait()
        except TimeoutError:
            return None

    def _request_read(self) -> None:
        if self._reading is None:
            self._started += 1
            self._reading = detached(self._loop, self._read(self._started))
        else:
            self._again = True  # the read in flight may have started too early

    async def _read(self, index: int) -> None:
        watched_from = None
        if self._wakeup is not None and self._wakeup.notified:
            watched_from = (self._watches, self._wakes)
        try:
            known = self._window.end if self._window is not None else None
            fetched = await _fetch_in_thread(self.game_id, known)
            if fetched.restart is not None or self._window is None:
                assert fetched.restart is not None
                self._window = Window(fetched.heading.version, fetched.restart)
            else:
                self._window.extend(fetched.events)
            self._latest = HubRead(index, fetched.heading, self._window, watched_from)
        except Exception as error:  # handed to the followers of this read
            self._failed = (index, error)
        finally:
            self._reading = None
            news, self._news = self._news, asyncio.Event()
            news.set()
            if self._again:
                self._again = False
                self._request_read()

    def start_watching(self) -> None:
        if self._linger is not None:
            self._linger.cancel()
            self._linger = None
        if self._watch is None:
            self._watches += 1
            self._watching = asyncio.Event()
            self._watch = detached(self._loop, self._watch_notifications(self._watching))

    def linger(self) -> None:
        """Stop watching in `WATCH_LINGER_SECONDS` unless a watcher comes back by then."""
        if self._linger is None:
            self._linger = self._loop.call_later(WATCH_LINGER_SECONDS, self.stop_watching)

    async def watching(self) -> None:
        """Return once notifications of this game reach the hub."""
        await self._watching.wait()

    def stop_watching(self) -> asyncio.Task[None] | None:
        """End the watch; the task to await until it has left the listener."""
        if self._linger is not None:
            self._linger.cancel()
            self._linger = None
        stopped, self._watch, self._wakeup = self._watch, None, None
        if stopped is not None:
            stopped.cancel()
        return stopped

    async def _watch_notifications(self, watching: asyncio.Event) -> None:
        async with game_wakeups(str(self.game_id)) as wakeup:
            self._wakeup = wakeup
            watching.set()
            while True:
                await wakeup.wait(WATCH_SECONDS)
                self._wakes += 1
                if self.watchers:  # a lingering hub only notes it: its next follower reads
                    self._request_read()


class _Hubs:
    """This event loop's hubs: followed ones, and the most recent idle ones."""

    def __init__(self) -> None:
        self.followed: dict[UUID, GameHub] = {}
        self.idle: OrderedDict[UUID, GameHub] = OrderedDict()

    def join(self, game_id: UUID, *, watch: bool) -> GameHub:
        hub = self.followed.get(game_id) or self.idle.pop(game_id, None) or GameHub(game_id)
        self.followed[game_id] = hub
        hub.followers += 1
        if watch:
            hub.watchers += 1
            hub.start_watching()
        return hub

    def leave(self, hub: GameHub, *, watch: bool) -> asyncio.Task[None] | None:
        """The follower is gone; the hub's watch task if that ended it."""
        hub.followers -= 1
        stopped = None
        if watch:
            hub.watchers -= 1
            if not hub.watchers:
                if WATCH_LINGER_SECONDS > 0:
                    hub.linger()
                else:
                    stopped = hub.stop_watching()
        if not hub.followers:
            del self.followed[hub.game_id]
            self.idle[hub.game_id] = hub
            while len(self.idle) > IDLE_HUBS_KEPT:
                self.idle.popitem(last=False)[1].stop_watching()
        return stopped


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Hubs] = weakref.WeakKeyDictionary()


def followed_games() -> dict[UUID, GameHub]:
    """The games followed in this event loop now (for tests and diagnostics)."""
    hubs = _hubs.get(asyncio.get_running_loop())
    return dict(hubs.followed) if hubs is not None else {}


@contextlib.asynccontextmanager
async def following(game_id: UUID, *, watch: bool = True) -> AsyncIterator[GameHub]:
    """The game's hub for as long as the block runs; with `watch`, it follows the game's
    notifications from before the block starts (a page read once does without)."""
    hubs = _hubs.setdefault(asyncio.get_running_loop(), _Hubs())
    hub = hubs.join(game_id, watch=watch)
    try:
        if watch:
            await hub.watching()
        yield hub
    finally:
        stopped = hubs.leave(hub, watch=watch)
        if stopped is not None:
            await asyncio.wait([stopped])  # out of the listener's books when the block ends
