"""How many feeds a user holds open, counted across every server process.

Each user has `MAX_OPEN_FEEDS_PER_USER` slots, cache keys `feed-slot:<user id>:<n>`.
A stream or a held long-poll first takes a free slot with `cache.add` (one atomic
`SET NX` on Redis) under a random holder id and a lifetime of `LEASE_SECONDS`; a stream
renews its slot while it runs; the feed gives it back when it ends. A process killed
with feeds open cannot give theirs back: those slots lapse by themselves.

A take tries the user's first slot before it reads which are free: most users hold one
feed (a spectator's re-poll, say), so most takes are one round trip, not two. A
give-back deletes the key at once while the lease cannot have lapsed (it was taken or
renewed less than `LEASE_SECONDS - LAPSE_MARGIN_SECONDS` ago, as every long-poll's
is), so nobody else can hold it; an older one deletes it only if it is still its own.
With 200 long-poll spectators of one game, these round trips were a quarter of a server
worker's sampled time (py-spy, `./scripts/bench load --tables 1 --spectators 200`):
four per poll before, two now.

A held long-poll gives its slot back as its answer leaves, not before: the answer does
not wait for the cache's round trip, which on a pool thread shared with every other
feed put each woken poll of a crowd in a queue (`./scripts/bench feedcost`, 200
followers of one game, quiet machine: every poll answered 137-142 ms after the move with
the wait, 74-80 ms without; docs/feed.md). A client that polls again at once may then find its
previous slot not yet free: a take that finds every slot held looks once more after
`RETAKE_SECONDS` before it refuses, so only a caller really at the cap is refused. Only the
cache's public API is used, so any shared backend works (the embedded file cache is
shared by the processes of one machine, though its `add` is not atomic).
"""

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncGenerator, AsyncIterator
from types import TracebackType

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache

from games.feed.threads import detached

logger = logging.getLogger(__name__)

# Longer than the longest long-poll (30 s): a held poll never needs to renew.
LEASE_SECONDS = 45
# A stream renews when it sends something this long after its last renewal; it sends at
# least every 15 s (its keep-alive), so renewals are at most 25 s apart.
RENEW_SECONDS = 10.0
# How long a take that found every slot held waits before its second and last look:
# ample for a slot given back in the background as an answer left (one cache round trip).
RETAKE_SECONDS = 0.05
# A lease this much younger than LEASE_SECONDS is certainly still held (the clock starts
# before the cache is asked): ample for a cache round trip and a busy process's delays.
LAPSE_MARGIN_SECONDS = 10.0


class TooManyFeeds(Exception):  # noqa: N818 (a refusal, not a failure of the code)
    """Every slot of the user is held by an open feed."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"At most {limit} feeds may be open at once; close one first.")
        self.limit = limit
        # The longest a slot stays taken by a feed that is gone without saying so.
        self.retry_after = LEASE_SECONDS


class FeedSlot:
    """One slot held by one open feed, given back when the `async with` block ends,
    unless the block handed it to a stream (`hand_over`) that outlives it."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.holder = secrets.token_hex(16)
        self._handed_over = False
        self._released = False
        # When the lease was last taken or renewed, read before the cache was asked (so
        # never later than the cache's own clock started); never, until it is.
        self._leased_at = float("-inf")

    def lease(self) -> bool:
        """Take the slot's key if it is free (`cache.add`)."""
        asked_at = time.monotonic()
        if cache.add(self.key, self.holder, timeout=LEASE_SECONDS):
            self._leased_at = asked_at
            return True
        return False

    def _surely_held(self) -> bool:
        return time.monotonic() - self._leased_at < LEASE_SECONDS - LAPSE_MARGIN_SECONDS

    def hand_over(self, frames: AsyncGenerator[bytes, None]) -> "SlotHoldingFrames":
        self._handed_over = True
        return SlotHoldingFrames(frames, self)

    async def __aenter__(self) -> "FeedSlot":
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if not self._handed_over:
            _give_back_soon(self)

    def renew(self) -> bool:
        """Extend the lease; False when it lapsed and another feed has the slot now."""
        renewed_at = time.monotonic()
        if cache.get(self.key) == self.holder and cache.touch(self.key, LEASE_SECONDS):
            self._leased_at = renewed_at
            return True
        return self.lease()

    def release(self) -> None:
        """Give the slot back (once; a lapsed lease someone else took is left alone)."""
        if self._released:
            return
        self._released = True
        if self._surely_held() or cache.get(self.key) == self.holder:
            cache.delete(self.key)


class SlotHoldingFrames:
    """A stream's frames for `StreamingHttpResponse`, holding its slot: renewed while
    frames go out, given back when Django closes the response, which it does however
    the stream ended (the client gone included) and even if it never started."""

    def __init__(self, frames: AsyncGenerator[bytes, None], slot: FeedSlot) -> None:
        self._frames = frames
        self._slot = slot

    async def __aiter__(self) -> AsyncIterator[bytes]:
        """The frames; a renewal falls due as one goes out, and runs in a task once it
        has: a frame never waits for the cache. Streams opened together fall due
        together, and a move's frames waited behind every one of their round trips:
        with 200 SSE spectators of one game (`./scripts/bench load --tables 1
        --spectators 200 --follow sse`, each frame timed in the server), the two moves
        that came as the renewals fell due left for their last spectator 81-136 ms
        after they were made, the others 28-71 ms. The whole phase's p99 stayed within
        its run-to-run noise (79 and 109 ms before, 82 and 94 after)."""
        loop = asyncio.get_running_loop()
        renewed_at = loop.time()
        renewing: asyncio.Task[bool] | None = None
        try:
            async with contextlib.aclosing(self._frames) as frames:
                async for frame in frames:
                    yield frame
                    if renewing is not None and renewing.done():
                        if not renewing.result():
                            return  # over the cap now: end; the reconnection competes again
                        renewing = None
                    if renewing is None and loop.time() - renewed_at >= RENEW_SECONDS:
                        renewed_at = loop.time()
                        renewing = detached(loop, _renew(self._slot))
        finally:
            if renewing is not None:  # settled before Django's close gives the slot back
                await asyncio.wait([renewing])

    def close(self) -> None:
        self._slot.release()


def _take(user_id: int, limit: int) -> FeedSlot | None:
    if limit < 1:
        return None
    first, *others = [f"feed-slot:{user_id}:{number}" for number in range(limit)]
    if (slot := FeedSlot(first)).lease():  # the user's only feed, most often
        return slot
    held = cache.get_many(others)
    for key in others:
        if key not in held and (slot := FeedSlot(key)).lease():
            return slot
    return None


# On the loop's thread pool, not the threads the feed's requests share
# (games/feed/asgi.py): the cache's round trips must not queue behind other requests'.
_take_async = sync_to_async(_take, thread_sensitive=False)
_renew = sync_to_async(FeedSlot.renew, thread_sensitive=False)
_release = sync_to_async(FeedSlot.release, thread_sensitive=False)


# Slots on their way back: a task the loop holds only weakly must be kept until it is done.
_GIVING_BACK: set[asyncio.Task[None]] = set()


def _given_back(task: asyncio.Task[None]) -> None:
    _GIVING_BACK.discard(task)
    if not task.cancelled() and task.exception() is not None:
        # The lease lapses by itself (LEASE_SECONDS), as a dead process's do.
        logger.warning("a feed slot was not given back: %r", task.exception())


def _give_back_soon(slot: FeedSlot) -> None:
    """Give `slot` back in a task of its own, which the answer does not wait for."""
    task = detached(asyncio.get_running_loop(), _release(slot))
    _GIVING_BACK.add(task)
    task.add_done_callback(_given_back)


async def feed_slot_take(user_id: int) -> FeedSlot:
    """A free slot of the user's, or `TooManyFeeds` (after a second look, RETAKE_SECONDS
    later: the caller's previous poll may have just answered, its slot on its way back)."""
    limit = settings.MAX_OPEN_FEEDS_PER_USER
    slot = await _take_async(user_id, limit)
    if slot is None:
        await asyncio.sleep(RETAKE_SECONDS)
        slot = await _take_async(user_id, limit)
    if slot is None:
        raise TooManyFeeds(limit)
    return slot
