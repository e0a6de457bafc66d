"""Long-polling a numbered list that one wakeup key announces: a player's notices, or
another app's list (a tournament's progress, docs/tournaments.md).

Such a list has one reader per follower, no redaction and no hub (a game's feed needs
both, games/feed/hub.py): a waiter subscribes to the key's wakeup before its first read
(so an item committed in between still wakes it), reads on the loop's thread pool,
holds no thread nor database connection while it waits, and reads again on each
notification `<key>:<seq>` on the game feed's channel (games/feed/listener.py), or ten
times a second on SQLite.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import TypeVar

from games.feed.listener import game_wakeups
from games.feed.threads import in_pool_thread
from games.feed.waiting import TokenClock, token_check

Page = TypeVar("Page")


async def wait_for_list(
    key: str,
    read: Callable[[], Page],
    *,
    answers: Callable[[Page], bool],
    wait: float,
    token_id: int | None,
    hold: Callable[[], AbstractAsyncContextManager[object]] | None = None,
) -> Page:
    """`read()` (a sync read of the list after the caller's cursor, run on the thread
    pool); with `wait` > 0, until a page `answers` or `wait` seconds have passed (then
    the last page read, which does not answer). `hold` is entered only once the first
    read did not answer and the poll is about to wait (the caller's feed slot)."""
    read_async = in_pool_thread(read)
    if wait <= 0:
        return await read_async()
    async with game_wakeups(key) as wakeup, contextlib.AsyncExitStack() as held:
        page = await read_async()
        if answers(page):
            return page
        if hold is not None:
            await held.enter_async_context(hold())
        clock = TokenClock(asyncio.get_running_loop())
        # A read cut short by the end of the wait leaves the page before it: what that
        # read was fetching is still there for the next poll.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(wait):
                while not answers(page):
                    await wakeup.wait(wait)
                    await token_check(token_id, clock)
                    page = await read_async()
        return page
