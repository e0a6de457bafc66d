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
from games.feed.selectors import FeedPage, FeedViewer, SignedOut, feed_page, viewer_signed_in

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


def _read_and_release(viewer: FeedViewer, after: int, limit: int) -> FeedPage:
    page = feed_page(viewer, after=after, limit=limit)
    _release()
    return page


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


_read = sync_to_async(feed_page)
_read_then_sleep = sync_to_async(_read_and_release)

#: Reads in flight that waiters may share, per event loop: a game's watchers woken by
#: one event would otherwise read the same page one after another on the one thread
#: that runs them (200 spectators: 200 reads). Keyed by everything the page depends on.
_ReadKey = tuple[UUID, int | None, int, int, Hashable]
_Reads = dict[_ReadKey, "asyncio.Task[FeedPage]"]
_shared_reads: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Reads]" = (
    weakref.WeakKeyDictionary()
)


async def _read_shared(
    viewer: FeedViewer, after: int, limit: int, wakeup: Wakeup, recheck_token: bool
) -> FeedPage:
    """`_read_then_sleep`, joining a read of the same page that started at the same
    wakeup generation (so after every notification this waiter has seen)."""
    if recheck_token:
        await _check_token(viewer)
    generation = wakeup.generation()
    if generation is None:
        return await _read_then_sleep(viewer, after, limit)
    loop = asyncio.get_running_loop()
    reads = _shared_reads.setdefault(loop, {})
    key = (viewer.game_id, viewer.seat, after, limit, generation)
    read = reads.get(key)
    if read is None:
        read = reads[key] = loop.create_task(_read_then_sleep(viewer, after, limit))
        read.add_done_callback(partial(_forget, reads, key))
    # A waiter leaving (its client gone) must not cancel the read the others wait for.
    return await asyncio.shield(read)


def _forget(reads: _Reads, key: _ReadKey, done: "asyncio.Task[FeedPage]") -> None:
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


async def wait_for_page(viewer: FeedViewer, *, after: int, limit: int, wait: float) -> FeedPage:
    """The viewer's events after `after`; with `wait` > 0, wait up to that many seconds
    for the stream to move past `after` (an empty page when it does not)."""
    page = await _read(viewer, after=after, limit=limit)
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


async def event_stream(viewer: FeedViewer, *, after: int) -> AsyncGenerator[bytes, None]:
    """Server-Sent Events from seq `after` on, until the game ends, the client leaves
    or the viewer's token stops being valid (its reconnection then meets a 401).

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
