"""Waiting for a game's next events without holding a thread or a database connection.

Both the long-poll and the event stream follow the game's hub (games/feed/hub.py): join
it, take a read that started after joining, then wait for the next read, which the hub
makes when a notification says the game moved. Joining before the first read starts
means an event appended in between still reaches the follower.
"""

import asyncio
import contextlib
import json
from collections.abc import AsyncGenerator, Callable
from contextlib import AbstractAsyncContextManager

from games.feed.hub import following
from games.feed.selectors import FeedPage, FeedViewer, SignedOut
from games.feed.tokens import token_alive

# A stream says something at least this often, so proxies keep the connection open.
KEEPALIVE_SECONDS = 15.0
# Events sent per page by a stream catching up.
STREAM_BATCH = 100
# What an EventSource waits before reconnecting after the stream ends, in milliseconds.
RECONNECT_MILLISECONDS = 3000
GAME_FINISHED = "game_finished"
# A held long-poll or a stream rechecks its viewer's token when it reads after this
# long: a logout or an expiry stops it within these seconds (plus the next wakeup),
# without a token lookup for every event and every watcher.
TOKEN_RECHECK_SECONDS = 5.0


class TokenClock:
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


class Silence:
    """How long a stream has sent nothing: when it is `due` to send a keep-alive."""

    FRAME = b": keep-alive\n\n"

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._since = loop.time()

    def broken(self) -> None:
        self._since = self._loop.time()

    def left(self) -> float:
        """Seconds the stream may stay silent still (0 or less: send a keep-alive now)."""
        return KEEPALIVE_SECONDS - (self._loop.time() - self._since)


async def token_check(token_id: int | None, clock: TokenClock) -> None:
    """Raise `SignedOut` if the token is due a check and no longer valid."""
    if token_id is None or not clock.due():
        return
    if not await token_alive(token_id):
        raise SignedOut


def _answers(page: FeedPage, after: int) -> bool:
    return page.last_seq > after or page.exhausted


async def wait_for_page(
    viewer: FeedViewer,
    *,
    after: int,
    limit: int,
    wait: float,
    hold: Callable[[], AbstractAsyncContextManager[object]] | None = None,
) -> FeedPage:
    """The viewer's events after `after`; with `wait` > 0, wait up to that many seconds
    for the stream to move past `after` (an empty page when it does not).

    `hold` is entered before the wait starts and left when it ends: a poll answered by
    its first read never enters it (the feed's slot is for polls that are held).
    Every read redacts for the seat the viewer holds when it reads, so the answer is
    for the seat held when it was read, whatever the seat was when the request came.
    """
    async with (
        following(viewer.game_id, watch=wait > 0) as hub,
        contextlib.AsyncExitStack() as held,
    ):
        read = await hub.fresh_read(then_wait=wait > 0)
        page = await hub.page(read, viewer, after=after, limit=limit)
        if wait <= 0 or _answers(page, after):
            return page
        if hold is not None:
            await held.enter_async_context(hold())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        token = TokenClock(loop)
        while (remaining := deadline - loop.time()) > 0:
            newer = await hub.next_read(read, remaining)
            if newer is None:
                break
            read = newer
            await token_check(viewer.token_id, token)
            page = await hub.page(read, viewer, after=after, limit=limit)
            if _answers(page, after):
                break
        return page


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
    `async with` block then leaves the game's hub.
    """
    loop = asyncio.get_running_loop()
    yield f"retry: {RECONNECT_MILLISECONDS}\n\n".encode()
    silence, token = Silence(loop), TokenClock(loop)
    async with following(viewer.game_id) as hub:
        read = await hub.fresh_read(then_wait=True)
        while True:
            try:
                await token_check(viewer.token_id, token)
            except SignedOut:
                return
            page = await hub.page(read, viewer, after=after, limit=STREAM_BATCH)
            if page.seat != seat:
                return
            for event in page.events:
                yield sse_event(event)
            after = page.last_seq
            if page.events:
                silence.broken()
            if page.exhausted or any(event["type"] == GAME_FINISHED for event in page.events):
                return
            if page.has_more:
                continue
            if (quiet := silence.left()) <= 0:
                yield Silence.FRAME
                silence.broken()
                continue
            read = await hub.next_read(read, quiet) or read
