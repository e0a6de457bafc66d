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
thread the feed's requests share (games/feed/asgi.py) and never inside one request's
context: a request that ends does not take the read others wait for with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar
from uuid import UUID

from asgiref.sync import sync_to_async
from django.db import connection

from games import rules, store
from games.feed.events import EventsAfter, events_after, served_event, visible_events
from games.feed.listener import game_wakeups
from games.feed.selectors import FeedPage, FeedViewer, GameHeading, game_heading

# Events a hub keeps (about two hands); followers further behind read the store.
WINDOW_EVENTS = 128
# Hubs nobody follows kept per process, so a long-poll's next request finds its window.
IDLE_HUBS_KEPT = 256
# A followed game is read at least this often even if no notification comes.
WATCH_SECONDS = 30.0

Result = TypeVar("Result")


def _released(read: Callable[..., Result]) -> Callable[..., Result]:
    """`read`, then its thread's database connection closed (a pooled one goes back)."""

    def read_and_release(*args: Any, **kwargs: Any) -> Result:
        try:
            return read(*args, **kwargs)
        finally:
            if not connection.in_atomic_block:
                connection.close()

    return read_and_release


def in_pool_thread(read: Callable[..., Result]) -> Callable[..., Coroutine[Any, Any, Result]]:
    """`read` as a coroutine run on the loop's thread pool, releasing its connection."""
    return sync_to_async(_released(read), thread_sensitive=False)


def detached(
    loop: asyncio.AbstractEventLoop, work: Coroutine[Any, Any, Result]
) -> asyncio.Task[Result]:
    """A task that belongs to no request: it outlives whichever follower started it."""
    return loop.create_task(work, context=contextvars.Context())


class Window:
    """The hub's latest events (seqs `start + 1 .. end`) with the state after each, and
    each seat's wire form of them, computed when a follower of that seat first asks."""

    def __init__(self, start: int, before: rules.GameState) -> None:
        self.start = start
        self._before = before
        self._events: list[store.StoredEvent] = []
        self._states: list[rules.GameState] = []
        self._served: dict[int | None, list[dict[str, Any] | None]] = {}

    @property
    def end(self) -> int:
        return self.start + len(self._events)

    def extend(self, events: list[store.StoredEvent]) -> None:
        state = self._states[-1] if self._states else self._before
        for stored in events:
            state = rules.apply(state, stored.event)
            self._events.append(stored)
            self._states.append(state)
        dropped = len(self._events) - WINDOW_EVENTS
        if dropped > 0:
            self._before = self._states[dropped - 1]
            self.start += dropped
            del self._events[:dropped], self._states[:dropped]
            for served in self._served.values():
                del served[:dropped]

    def page(self, seat: int | None, after: int, up_to: int) -> list[dict[str, Any]]:
        """The events `after < seq <= up_to` as `seat` sees them (`start <= after`)."""
        served = self._served.setdefault(seat, [])
        wanted = up_to - self.start
        for index in range(len(served), wanted):
            stored = self._events[index]
            visible = rules.redact(stored.event, seat, self._states[index])
            served.append(None if visible is None else served_event(stored, visible))
        return [event for event in served[after - self.start : wanted] if event is not None]


@dataclass(frozen=True)
class HubRead:
    """One read of the game by its hub: `index` orders reads by when they started."""

    index: int
    heading: GameHeading
    window: Window


@dataclass(frozen=True)
class _Fetched:
    heading: GameHeading
    events: list[store.StoredEvent]
    restart: rules.GameState | None  # a new window at heading.version, from this state


def _fetch(game_id: UUID, known: int | None) -> _Fetched:
    """The game's heading, then the events after `known` (the window's end) up to its
    version; when too many are missing (or none are known) the state at the version."""
    heading = game_heading(game_id)
    missing = heading.version - (known if known is not None else 0)
    if known is None or missing > WINDOW_EVENTS:
        return _Fetched(heading, [], store.state_at(game_id, heading.version).state)
    events = store.load_events_after(game_id, known, limit=missing) if missing > 0 else []
    return _Fetched(heading, events, None)


_fetch_in_thread = in_pool_thread(_fetch)
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
        # Older cursors' events, read once per read, cursor and page size.
        self._tails: dict[tuple[int, int, int], asyncio.Task[EventsAfter]] = {}

    async def fresh_read(self) -> HubRead:
        """A read that started after this call: it sees every seat change and event
        committed before the call."""
        wanted = self._started + 1
        self._request_read()
        return await self._read_from(wanted, timeout=None)  # type: ignore[return-value]

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
        try:
            known = self._window.end if self._window is not None else None
            fetched = await _fetch_in_thread(self.game_id, known)
            if fetched.restart is not None or self._window is None:
                assert fetched.restart is not None
                self._window = Window(fetched.heading.version, fetched.restart)
            else:
                self._window.extend(fetched.events)
            self._latest = HubRead(index=index, heading=fetched.heading, window=self._window)
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
        if self._watch is None:
            self._watching = asyncio.Event()
            self._watch = detached(self._loop, self._watch_notifications(self._watching))

    async def watching(self) -> None:
        """Return once notifications of this game reach the hub."""
        await self._watching.wait()

    def stop_watching(self) -> asyncio.Task[None] | None:
        """End the watch; the task to await until it has left the listener."""
        stopped, self._watch = self._watch, None
        if stopped is not None:
            stopped.cancel()
        return stopped

    async def _watch_notifications(self, watching: asyncio.Event) -> None:
        async with game_wakeups(str(self.game_id)) as wakeup:
            watching.set()
            while True:
                await wakeup.wait(WATCH_SECONDS)
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
                stopped = hub.stop_watching()
        if not hub.followers:
            del self.followed[hub.game_id]
            self.idle[hub.game_id] = hub
            while len(self.idle) > IDLE_HUBS_KEPT:
                self.idle.popitem(last=False)
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
