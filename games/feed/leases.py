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
`RETAKE_SECONDS` before it refuses, so only a caller really at the cap is refused.

A held long-poll's slot is not given back at once, though: the process keeps it for the
same user's next poll, which a client sends as soon as it has read the answer, for
`KEEP_SECONDS`, and that poll takes it back from memory, without a round trip (a slot
nobody takes back by then is given back then). A user following a game by long-poll
thus costs the cache a round trip every `RENEW_SECONDS` (the kept lease's renewal)
instead of two for every poll: with 200 spectators of one game, those round trips were
a third of a server worker's sampled time (py-spy, `./scripts/bench load --tables 1
--spectators 200`, docs/feed.md). The price: a slot a long-poll held still counts for
up to `KEEP_SECONDS` after its answer left, in the other processes (this one takes it
back). Only the cache's public API is used, so any shared backend works (the embedded
file cache is shared by the processes of one machine, though its `add` is not atomic).
"""

import asyncio
import contextlib
import logging
import random
import secrets
import time
import weakref
from collections.abc import AsyncGenerator, AsyncIterator, Coroutine
from types import TracebackType
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache

from games.feed.threads import detached

logger = logging.getLogger(__name__)

# The longest a long-poll is held (the API's largest `wait`, games/api/feed_base.py).
LONGEST_POLL_SECONDS = 30
# Longer than the longest long-poll with LAPSE_MARGIN_SECONDS to spare, and long enough
# that a kept slot renewed every RENEW_SECONDS always has a poll's worth left.
LEASE_SECONDS = 60
# A stream renews when it sends something this long after its last renewal (it sends at
# least every 15 s, its keep-alive, so renewals are at most 25 s apart); a kept slot,
# when a poll takes it back this long after its last renewal. Each renewal draws its
# moment between RENEW_JITTER and 1 times this: feeds opened together (a crowd arriving
# for a game) would otherwise all fall due at one moment, each time. With 200 SSE
# spectators of one game, 100 renewals a worker queued on the loop's thread pool at
# once, and the move they met reached its spectators late: delivery p99 72 ms over a
# 60 s window against 18.6 ms for one spectator (`./scripts/bench load`, 3.9x).
RENEW_SECONDS = 10.0
RENEW_JITTER = 0.5
# How long a take that found every slot held waits before its second and last look:
# ample for a slot given back in the background as an answer left (one cache round trip).
RETAKE_SECONDS = 0.05
# A lease this much younger than LEASE_SECONDS is certainly still held (the clock starts
# before the cache is asked): ample for a cache round trip and a busy process's delays.
LAPSE_MARGIN_SECONDS = 10.0
# How long a held long-poll's slot waits in this process, once the answer has left, for
# the same user's next poll to take it back.
KEEP_SECONDS = 2.0


class TooManyFeeds(Exception):  # noqa: N818 (a refusal, not a failure of the code)
    """Every slot of the user is held by an open feed."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"At most {limit} feeds may be open at once; close one first.")
        self.limit = limit
        # The longest a slot stays taken by a feed that is gone without saying so.
        self.retry_after = LEASE_SECONDS


class FeedSlot:
    """One slot held by one open feed. When the `async with` block ends, this process
    keeps it for the user's next poll (`KEEP_SECONDS`), unless the block handed it to a
    stream (`hand_over`) that outlives it and gives it back when it ends."""

    def __init__(self, user_id: int, key: str) -> None:
        self.user_id = user_id
        self.key = key
        self.holder = secrets.token_hex(16)
        self._handed_over = False
        self._released = False
        # When the lease was last taken or renewed, read before the cache was asked (so
        # never later than the cache's own clock started); never, until it is.
        self._leased_at = float("-inf")
        self._renew_after = RENEW_SECONDS

    def _leased(self, at: float) -> None:
        self._leased_at = at
        self._renew_after = RENEW_SECONDS * random.uniform(RENEW_JITTER, 1.0)  # noqa: S311 (no secret)

    def lease(self) -> bool:
        """Take the slot's key if it is free (`cache.add`)."""
        asked_at = time.monotonic()
        if cache.add(self.key, self.holder, timeout=LEASE_SECONDS):
            self._leased(asked_at)
            return True
        return False

    def surely_held(self, for_seconds: float = 0.0) -> bool:
        """Whether the lease cannot lapse in the next `for_seconds`."""
        age = time.monotonic() - self._leased_at
        return age + for_seconds < LEASE_SECONDS - LAPSE_MARGIN_SECONDS

    def renewal_due(self) -> bool:
        return time.monotonic() - self._leased_at >= self._renew_after

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
            _kept(asyncio.get_running_loop()).keep(self)

    def renew(self) -> bool:
        """Extend the lease; False when it lapsed and another feed has the slot now.
        One round trip while the lease is surely held (nobody else can have the key)."""
        renewed_at = time.monotonic()
        if self.surely_held():
            renewed = cache.touch(self.key, LEASE_SECONDS)
        else:
            renewed = cache.get(self.key) == self.holder and cache.touch(self.key, LEASE_SECONDS)
        if renewed:
            self._leased(renewed_at)
            return True
        # Given back meanwhile (`release` marks it before it deletes): not taken again.
        return not self._released and self.lease()

    def release(self) -> None:
        """Give the slot back (once; a lapsed lease someone else took is left alone)."""
        if self._released:
            return
        self._released = True
        if self.surely_held() or cache.get(self.key) == self.holder:
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
        renewing: asyncio.Task[bool] | None = None
        try:
            async with contextlib.aclosing(self._frames) as frames:
                async for frame in frames:
                    yield frame
                    if renewing is not None and renewing.done():
                        if not renewing.result():
                            return  # over the cap now: end; the reconnection competes again
                        renewing = None
                    if renewing is None and self._slot.renewal_due():
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
    if (slot := FeedSlot(user_id, first)).lease():  # the user's only feed, most often
        return slot
    held = cache.get_many(others)
    for key in others:
        if key not in held and (slot := FeedSlot(user_id, key)).lease():
            return slot
    return None


# On the loop's thread pool, not the threads the feed's requests share
# (games/api/asgi.py): the cache's round trips must not queue behind other requests'.
_take_async = sync_to_async(_take, thread_sensitive=False)
_renew = sync_to_async(FeedSlot.renew, thread_sensitive=False)
_release = sync_to_async(FeedSlot.release, thread_sensitive=False)


# Slots on their way back or being renewed: a task the loop holds only weakly must be
# kept until it is done.
_IN_BACKGROUND: set[asyncio.Task[object]] = set()


def _in_background(work: Coroutine[Any, Any, object], done: str) -> None:
    """`work` on a slot in a task of its own, which no answer waits for."""

    def settled(task: asyncio.Task[object]) -> None:
        _IN_BACKGROUND.discard(task)
        if not task.cancelled() and task.exception() is not None:
            # The lease lapses by itself (LEASE_SECONDS), as a dead process's do.
            logger.warning("a feed slot was not %s: %r", done, task.exception())

    task = detached(asyncio.get_running_loop(), work)
    _IN_BACKGROUND.add(task)
    task.add_done_callback(settled)


def _give_back_soon(slot: FeedSlot) -> None:
    _in_background(_release(slot), "given back")


class _KeptSlots:
    """Held long-polls' slots this event loop keeps for their users' next polls."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._slots: dict[int, dict[FeedSlot, asyncio.TimerHandle]] = {}

    def keep(self, slot: FeedSlot) -> None:
        """Keep `slot` for its user's next poll; give it back if none comes in time."""
        expiry = self._loop.call_later(KEEP_SECONDS, self._expire, slot)
        self._slots.setdefault(slot.user_id, {})[slot] = expiry

    def take_back(self, user_id: int) -> FeedSlot | None:
        """A slot kept for `user_id` whose lease outlasts the longest poll, or None.
        One that falls due for renewal is renewed in the background (the lease has
        `LONGEST_POLL_SECONDS` left at least, ample for the round trip)."""
        kept = self._slots.get(user_id)
        while kept:
            slot, expiry = kept.popitem()
            expiry.cancel()
            if slot.surely_held(for_seconds=LONGEST_POLL_SECONDS):
                if not kept:
                    del self._slots[user_id]
                if slot.renewal_due():
                    _in_background(_renew(slot), "renewed")
                return slot
            _give_back_soon(slot)  # too old to hold another poll: given back, taken anew
        self._slots.pop(user_id, None)
        return None

    def _expire(self, slot: FeedSlot) -> None:
        kept = self._slots.get(slot.user_id, {})
        if kept.pop(slot, None) is not None:
            if not kept:
                del self._slots[slot.user_id]
            _give_back_soon(slot)


_kept_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _KeptSlots] = (
    weakref.WeakKeyDictionary()
)


def _kept(loop: asyncio.AbstractEventLoop) -> _KeptSlots:
    kept = _kept_slots.get(loop)
    if kept is None:
        kept = _kept_slots[loop] = _KeptSlots(loop)
    return kept


async def feed_slot_take(user_id: int) -> FeedSlot:
    """A slot of the user's: one this process kept from the user's last held poll, else
    a free one, or `TooManyFeeds` (after a second look, RETAKE_SECONDS later: the
    caller's previous poll may have just answered, its slot on its way back)."""
    kept = _kept(asyncio.get_running_loop()).take_back(user_id)
    if kept is not None:
        return kept
    limit = settings.MAX_OPEN_FEEDS_PER_USER
    slot = await _take_async(user_id, limit)
    if slot is None:
        await asyncio.sleep(RETAKE_SECONDS)
        slot = await _take_async(user_id, limit)
    if slot is None:
        raise TooManyFeeds(limit)
    return slot
