"""A stream's feed slot: renewed while its frames go out, never in their way."""

import asyncio
import itertools
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
