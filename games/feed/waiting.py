"""Waiting for a game's next events without holding a thread or a database connection.

Both the long-poll and the event stream follow the same pattern: register a wakeup
for the game, then read the database, then sleep on the wakeup. Registering before
reading means an event appended in between still wakes the reader.
"""

import asyncio
import json
import weakref
from collections.abc import AsyncGenerator, Hashable
from functools import partial
from uuid import UUID

from asgiref.sync import sync_to_async
from django.db import connection

from games.feed.listener import Wakeup, game_wakeups
from games.feed.selectors import (
    FeedPage,
    FeedViewer,
    GameRead,
    SignedOut,
    game_read,
    viewer_signed_in,
)

# A stream says something at least this often, so proxies keep the connection open.
KEEPALIVE_SECONDS = 15.0
# Events sent per database read by a stream catching up.
STREAM_BATCH = 100
# What an EventSource waits before reconnecting after the stream ends, in milliseconds.
RECONNECT_MILLISECONDS = 3000
GAME_FINISHED = "game_finished"
# A held long-poll or a stream rechecks its viewer's token when it reads after this
# long: a logout or an expiry stops it within these seconds (plus the next wakeup),
# without a token lookup for every event and every watcher.
TOKEN_RECHECK_SECONDS = 5.0


def _release() -> None:
    # The reader is about to sleep: an idle client must not keep a database
    # connection open (a pooled one goes back to the pool).
    if not connection.in_atomic_block:
        connection.close()


def _read_and_release(game_id: UUID, after: int, limit: int) -> GameRead:
    read = game_read(game_id, after=after, limit=limit)
    _release()
    return read


class _TokenClock:
    """When the viewer's token was last found valid (the request's authentication
    counts as the first check); `due` says whether the next read should check again."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._checked_at = loop.time()

    def due(self) -> bool:
        if self._loop.time() - self._checked_at < TOKEN_RECHECK_SECONDS:
            return False
        self._checked_at = self._loop.time()  # the read about to run checks it
        return True


_read = sync_to_async(game_read)
_read_then_sleep = sync_to_async(_read_and_release)

#: Reads in flight that waiters may share, per event loop: a game's watchers woken by
#: one event would otherwise read the same rows one after another on the one thread
#: that runs them (200 spectators: 200 reads). Keyed by everything the read depends
#: on; not by the seat, which each waiter looks up in the read itself.
_ReadKey = tuple[UUID, int, int, Hashable]
_Reads = dict[_ReadKey, "asyncio.Task[GameRead]"]
_shared_reads: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Reads]" = (
    weakref.WeakKeyDictionary()
)


async def _read_shared(
    viewer: FeedViewer, after: int, limit: int, wakeup: Wakeup, recheck_token: bool
) -> FeedPage:
    """The viewer's page after `after`, for the seat it holds now, from a read of the
    game that started at the same wakeup generation as this waiter's (so after every
    notification it has seen), joined if another waiter started it."""
    if recheck_token:
        await _check_token(viewer)
    generation = wakeup.generation()
    if generation is None:
        read = await _read_then_sleep(viewer.game_id, after, limit)
        return read.page_for(viewer)
    loop = asyncio.get_running_loop()
    reads = _shared_reads.setdefault(loop, {})
    key = (viewer.game_id, after, limit, generation)
    task = reads.get(key)
    if task is None:
        task = reads[key] = loop.create_task(_read_then_sleep(viewer.game_id, after, limit))
        task.add_done_callback(partial(_forget, reads, key))
    # A waiter leaving (its client gone) must not cancel the read the others wait for.
    return (await asyncio.shield(task)).page_for(viewer)


def _forget(reads: _Reads, key: _ReadKey, done: "asyncio.Task[GameRead]") -> None:
    if reads.get(key) is done:
        del reads[key]
    if not done.cancelled():
        done.exception()  # its waiters got it; if they all left, it is nobody's to log


async def _check_token(viewer: FeedViewer) -> None:
    if not await _signed_in(viewer):
        raise SignedOut


def _signed_in_and_release(viewer: FeedViewer) -> bool:
    signed_in = viewer_signed_in(viewer)
    _release()
    return signed_in


_signed_in = sync_to_async(_signed_in_and_release)


def _answers(page: FeedPage, after: int) -> bool:
    return page.last_seq > after or page.exhausted


async def _first_page(viewer: FeedViewer, *, after: int, limit: int) -> FeedPage:
    """The viewer's events after `after` now, for the seat it holds now."""
    return (await _read(viewer.game_id, after=after, limit=limit)).page_for(viewer)


async def wait_for_page(viewer: FeedViewer, *, after: int, limit: int, wait: float) -> FeedPage:
    """The viewer's events after `after`; with `wait` > 0, wait up to that many seconds
    for the stream to move past `after` (an empty page when it does not).

    Every read redacts for the seat the viewer holds when it reads, so the answer is
    for the seat held when it was read, whatever the seat was when the request came.
    """
    page = await _first_page(viewer, after=after, limit=limit)
    if wait <= 0 or _answers(page, after):
        return page
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    token = _TokenClock(loop)
    async with game_wakeups(str(viewer.game_id)) as wakeup:
        while True:
            page = await _read_shared(viewer, after, limit, wakeup, token.due())
            remaining = deadline - loop.time()
            if _answers(page, after) or remaining <= 0:
                return page
            await wakeup.wait(remaining)


def sse_event(event: dict[str, object]) -> bytes:
    """One Server-Sent Event: `id` the seq, `event` the type, `data` the event as JSON."""
    data = json.dumps(event, separators=(",", ":"))
    return f"id: {event['seq']}\nevent: {event['type']}\ndata: {data}\n\n".encode()


async def event_stream(
    viewer: FeedViewer, *, after: int, seat: int | None
) -> AsyncGenerator[bytes, None]:
    """Server-Sent Events from seq `after` on, as `seat` sees them (the viewer's seat
    when the stream was opened), until the game ends, the client leaves, the viewer's
    token stops being valid (its reconnection then meets a 401) or the viewer no longer
    holds `seat` (its reconnection is then served for the seat it holds).

    A client that disconnects cancels the task iterating this generator; leaving the
    `async with` block then drops its wakeup.
    """
    loop = asyncio.get_running_loop()
    yield f"retry: {RECONNECT_MILLISECONDS}\n\n".encode()
    said_something_at = loop.time()
    token = _TokenClock(loop)
    async with game_wakeups(str(viewer.game_id)) as wakeup:
        while True:
            try:
                page = await _read_shared(viewer, after, STREAM_BATCH, wakeup, token.due())
            except SignedOut:
                return
            if page.seat != seat:
                return
            for event in page.events:
                yield sse_event(event)
            after = page.last_seq
            if page.events:
                said_something_at = loop.time()
            if page.exhausted or any(event["type"] == GAME_FINISHED for event in page.events):
                return
            if page.has_more:
                continue
            silence = KEEPALIVE_SECONDS - (loop.time() - said_something_at)
            if silence <= 0:
                yield b": keep-alive\n\n"
                said_something_at = loop.time()
                continue
            await wakeup.wait(silence)
