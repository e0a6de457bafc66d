"""Feed slots: a stream's renewed while its frames go out, never in their way; a held
long-poll's kept for the user's next poll."""

import asyncio
import itertools
import time
from collections.abc import AsyncGenerator, Callable
from typing import Any

import pytest
from django.core.cache import cache

from accounts.models import User
from games.feed import leases
from games.feed.leases import FeedSlot, feed_slot_take

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

GAP = 0.05  # seconds between two frames of the test's stream


async def _frames(count: int) -> AsyncGenerator[bytes, None]:
    for number in range(count):
        yield f"frame {number}\n".encode()
        await asyncio.sleep(GAP)


async def _read(slot: FeedSlot, count: int) -> list[float]:
    """Send the stream's frames through the slot; when each came (loop time)."""
    loop = asyncio.get_running_loop()
    frames = slot.hand_over(_frames(count))
    came = []
    async for _ in frames:
        came.append(loop.time())
    frames.close()
    return came


def test_a_stream_keeps_its_slot_past_the_lease_by_renewing_it(
    monkeypatch: pytest.MonkeyPatch, settings: Any, make_user: Callable[..., User]
) -> None:
    monkeypatch.setattr(leases, "LEASE_SECONDS", 1)
    monkeypatch.setattr(leases, "RENEW_SECONDS", 0.2)
    settings.MAX_OPEN_FEEDS_PER_USER = 1
    user_id = make_user().pk

    async def stream_for_two_leases() -> tuple[bool, bool]:
        slot = await feed_slot_take(user_id)
        reading = asyncio.create_task(_read(slot, int(2.0 / GAP)))
        await asyncio.sleep(1.5)  # past the first lease
        held_meanwhile = cache.get(slot.key) == slot.holder
        await reading
        return held_meanwhile, cache.get(slot.key) is None

    held_meanwhile, given_back = asyncio.run(stream_for_two_leases())
    assert held_meanwhile
    assert given_back


def test_a_slow_renewal_holds_no_frame_back_and_a_lost_one_ends_the_stream(
    monkeypatch: pytest.MonkeyPatch, settings: Any, make_user: Callable[..., User]
) -> None:
    monkeypatch.setattr(leases, "RENEW_SECONDS", 0.0)  # due at every frame
    renewals: list[float] = []

    async def slow_renewal_that_finds_the_slot_taken(slot: FeedSlot) -> bool:
        renewals.append(asyncio.get_running_loop().time())
        await asyncio.sleep(10 * GAP)
        return False

    monkeypatch.setattr(leases, "_renew", slow_renewal_that_finds_the_slot_taken)
    settings.MAX_OPEN_FEEDS_PER_USER = 1
    user_id = make_user().pk

    async def stream() -> list[float]:
        return await _read(await feed_slot_take(user_id), 40)

    came = asyncio.run(stream())
    gaps = [later - earlier for earlier, later in itertools.pairwise(came)]
    assert max(gaps) < 5 * GAP  # no frame waited for the renewal
    assert len(renewals) == 1  # one at a time
    # The renewal said the slot is another feed's: the stream ended at the next frame
    # after it did, well before its 40 frames.
    assert 9 <= len(came) <= 13


class _CountedCache:
    """The cache, noting the calls made to it (each one round trip on Redis)."""

    def __init__(self, cache: Any) -> None:
        self._cache, self.calls = cache, []

    def __getattr__(self, name: str) -> Any:
        self.calls.append(name)
        return getattr(self._cache, name)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch, settings: Any) -> _CountedCache:
    settings.MAX_OPEN_FEEDS_PER_USER = 2
    counting = _CountedCache(leases.cache)
    monkeypatch.setattr(leases, "cache", counting)
    return counting


async def _held_poll(user_id: int) -> FeedSlot:
    """A held long-poll's slot, taken and left as the poll takes and leaves it."""
    async with await feed_slot_take(user_id) as slot:
        return slot


def test_a_held_polls_slot_goes_to_the_users_next_poll_without_a_round_trip(
    counted: _CountedCache, make_user: Callable[..., User]
) -> None:
    user_id, other_id = make_user().pk, make_user().pk

    async def polls() -> tuple[FeedSlot, list[str], FeedSlot, FeedSlot, list[str]]:
        first = await _held_poll(user_id)
        taken = list(counted.calls)
        other = await _held_poll(other_id)  # another user's poll: its own slot
        again = await _held_poll(user_id)
        return first, taken, other, again, list(counted.calls)

    first, taken, other, again, calls = asyncio.run(polls())

    assert taken == ["add"]
    assert other.key != first.key
    assert again is first  # kept, then taken back from memory
    assert calls == ["add", "add"]  # none for the taking back, none given back yet


def test_a_kept_slot_no_poll_takes_back_is_given_back(
    counted: _CountedCache, make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(leases, "KEEP_SECONDS", 0.1)
    user_id = make_user().pk

    async def poll_then_nothing() -> tuple[bool, bool]:
        slot = await _held_poll(user_id)
        kept = cache.get(slot.key) == slot.holder
        await asyncio.sleep(0.5)
        return kept, cache.get(slot.key) is None

    kept, given_back = asyncio.run(poll_then_nothing())

    assert kept
    assert given_back
    assert counted.calls == ["add", "delete"]


def test_a_kept_slot_too_old_for_another_poll_is_given_back_and_a_new_one_taken(
    counted: _CountedCache, make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    user_id = make_user().pk

    async def polls() -> tuple[FeedSlot, FeedSlot]:
        first = await _held_poll(user_id)
        # As if the lease had been taken long ago: it may lapse during the next poll.
        monkeypatch.setattr(leases, "LONGEST_POLL_SECONDS", leases.LEASE_SECONDS)
        second = await _held_poll(user_id)
        await asyncio.sleep(0.2)  # the old one given back in the background
        return first, second

    first, second = asyncio.run(polls())

    assert second is not first
    assert cache.get(second.key) == second.holder
    assert cache.get(first.key) in (None, second.holder)  # given back, or taken anew


def test_a_kept_slot_due_for_renewal_is_renewed_as_a_poll_takes_it_back(
    counted: _CountedCache, make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(leases, "RENEW_SECONDS", 0.0)  # due at once
    user_id = make_user().pk

    async def polls() -> tuple[FeedSlot, FeedSlot]:
        first = await _held_poll(user_id)
        again = await _held_poll(user_id)
        await asyncio.sleep(0.2)  # the renewal runs in the background
        return first, again

    first, again = asyncio.run(polls())

    assert again is first
    assert counted.calls == ["add", "touch"]  # surely held: a plain touch, no read


def test_slots_leased_together_fall_due_for_renewal_apart(
    monkeypatch: pytest.MonkeyPatch, make_user: Callable[..., User]
) -> None:
    monkeypatch.setattr(leases, "RENEW_SECONDS", 0.4)  # each falls due after 0.2-0.4 s
    user_id = make_user().pk
    slots = [FeedSlot(user_id, f"feed-slot-test:{user_id}:{number}") for number in range(40)]
    assert all(slot.lease() for slot in slots)  # as a crowd arriving at once

    time.sleep(0.3)
    due = [slot.renewal_due() for slot in slots]
    for slot in slots:
        slot.release()

    # Each draws its own moment: some are due by now, others not yet.
    assert any(due)
    assert not all(due)
