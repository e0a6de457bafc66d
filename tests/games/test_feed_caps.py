"""The cap on feeds one user holds open (issue 10, finding 7), against a real server.

The server runs with a cap of 3; its slots live in the shared cache, so slots taken in
this process count there too, as they would across gunicorn's workers.
"""

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from accounts.models import User
from games.feed import leases
from games.feed.leases import TooManyFeeds, feed_slot_take
from tests.games.feed_support import Table, play_random, seated_table
from tests.live_server import LiveServer, live_server

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

CAP = 3


@pytest.fixture(scope="module")
def server(django_db_setup: None) -> Iterator[LiveServer]:
    with live_server(MAX_OPEN_FEEDS_PER_USER=str(CAP)) as started:
        yield started


@pytest.fixture
def table(make_user: Callable[..., User]) -> Table:
    table = seated_table(make_user)
    play_random(table, 3)
    return table


def _open_stream(
    feeds: contextlib.ExitStack, client: httpx.Client, table: Table
) -> Iterator[bytes]:
    """A stream kept open (unread past its first frame) until `feeds` closes: the
    returned iterator must be kept too, since dropping it closes the connection."""
    response = feeds.enter_context(client.stream("GET", f"/api/v1/games/{table.game_id}/stream"))
    assert response.status_code == 200
    chunks = response.iter_raw()
    assert next(chunks).startswith(b"retry:")
    return chunks


def _assert_too_many_feeds(response: httpx.Response) -> None:
    assert response.status_code == 429
    assert response.headers["content-type"] == "application/problem+json"
    assert int(response.headers["Retry-After"]) == leases.LEASE_SECONDS
    body = response.json()
    assert body["code"] == "too_many_feeds"
    assert body["retry_after"] == leases.LEASE_SECONDS
    assert "events" not in body


def _long_poll(client: httpx.Client, table: Table, wait: float) -> httpx.Response:
    version = play_random(table, 0)
    return client.get(
        f"/api/v1/games/{table.game_id}/events", params={"after": version, "wait": wait}
    )


def test_a_feed_beyond_the_cap_is_a_429_until_one_closes(
    server: LiveServer, table: Table, make_user: Callable[..., User]
) -> None:
    user, other = make_user(), make_user()
    client = server.client(user)
    with contextlib.ExitStack() as feeds:
        streams = [_open_stream(feeds, server.client(user), table) for _ in range(CAP)]

        _assert_too_many_feeds(client.get(f"/api/v1/games/{table.game_id}/stream"))
        _assert_too_many_feeds(_long_poll(client, table, wait=5))
        assert _long_poll(client, table, wait=0).status_code == 200  # not held: no slot
        with contextlib.ExitStack() as others:
            assert _open_stream(others, server.client(other), table)  # another user's slots

        streams.pop(0).close()  # the server notices the disconnect and frees the slot
        for _ in range(40):
            answered = _long_poll(client, table, wait=0.5)
            if answered.status_code == 200:
                break
            time.sleep(0.25)
        assert answered.status_code == 200
        # That long-poll gave its slot back before it answered.
        streams.append(_open_stream(feeds, server.client(user), table))
        _assert_too_many_feeds(client.get(f"/api/v1/games/{table.game_id}/stream"))


def test_slots_taken_in_another_process_count(
    server: LiveServer, table: Table, make_user: Callable[..., User], settings: Any
) -> None:
    caches = {"default": {**settings.CACHES["default"], "KEY_PREFIX": server.cache_prefix}}
    settings.CACHES = caches  # this process counts in the server's slots
    settings.MAX_OPEN_FEEDS_PER_USER = CAP
    user = make_user()
    slots = [asyncio.run(feed_slot_take(user.pk)) for _ in range(CAP)]
    client = server.client(user)

    _assert_too_many_feeds(client.get(f"/api/v1/games/{table.game_id}/stream"))
    slots[0].release()
    with contextlib.ExitStack() as feeds:
        assert _open_stream(feeds, client, table)
    for slot in slots[1:]:
        slot.release()


def test_a_slot_whose_process_died_lapses_by_itself(
    monkeypatch: pytest.MonkeyPatch, settings: Any, make_user: Callable[..., User]
) -> None:
    monkeypatch.setattr(leases, "LEASE_SECONDS", 1)
    settings.MAX_OPEN_FEEDS_PER_USER = 2
    user_id = make_user().pk
    vanished = [asyncio.run(feed_slot_take(user_id)) for _ in range(2)]  # never given back
    with pytest.raises(TooManyFeeds):
        asyncio.run(feed_slot_take(user_id))

    time.sleep(1.5)  # past the lease

    taken = asyncio.run(feed_slot_take(user_id))
    assert taken.key == vanished[0].key
    assert not vanished[0].renew()  # its slot is another feed's now
    assert vanished[1].renew()  # lapsed but free: taken back
    with pytest.raises(TooManyFeeds):
        asyncio.run(feed_slot_take(user_id))
    vanished[0].release()  # late: the slot is another feed's, and stays its
    with pytest.raises(TooManyFeeds):
        asyncio.run(feed_slot_take(user_id))
    taken.release()
    assert asyncio.run(feed_slot_take(user_id)).key == taken.key


class _CountedCache:
    """The cache, counting the calls made to it (each one round trip on Redis)."""

    def __init__(self, cache: Any) -> None:
        self._cache, self.calls = cache, 0

    def __getattr__(self, name: str) -> Any:
        self.calls += 1
        return getattr(self._cache, name)


def test_a_users_only_feed_takes_and_gives_back_its_slot_in_one_round_trip_each(
    monkeypatch: pytest.MonkeyPatch, settings: Any, make_user: Callable[..., User]
) -> None:
    settings.MAX_OPEN_FEEDS_PER_USER = 3
    counted = _CountedCache(leases.cache)
    monkeypatch.setattr(leases, "cache", counted)
    user_id = make_user().pk

    only = asyncio.run(feed_slot_take(user_id))
    assert (only.key, counted.calls) == (f"feed-slot:{user_id}:0", 1)
    only.release()
    assert counted.calls == 2

    first, second = (asyncio.run(feed_slot_take(user_id)) for _ in range(2))
    assert (first.key, second.key) == (only.key, f"feed-slot:{user_id}:1")
    assert counted.calls == 2 + 1 + 3  # the second: the first slot, which are free, one add
    first.release()
    assert asyncio.run(feed_slot_take(user_id)).key == first.key  # free again at once
    second.release()


def test_your_own_feed_takes_the_same_slots_as_the_games_feeds(
    server: LiveServer, table: Table, make_user: Callable[..., User]
) -> None:
    user = make_user()
    client = server.client(user)
    with contextlib.ExitStack() as feeds:
        response = feeds.enter_context(client.stream("GET", "/api/v1/me/stream"))
        assert response.status_code == 200
        kept = [response.iter_raw()]
        assert next(kept[0]).startswith(b"retry:")
        kept += [_open_stream(feeds, server.client(user), table) for _ in range(CAP - 1)]

        _assert_too_many_feeds(client.get("/api/v1/me/stream"))
        _assert_too_many_feeds(client.get("/api/v1/me/events", params={"wait": 5}))
        assert client.get("/api/v1/me/events").status_code == 200  # not held: no slot


def test_a_slot_given_back_just_after_a_take_looked_is_found_by_its_second_look(
    settings: Any, make_user: Callable[..., User]
) -> None:
    """A long-poll gives its slot back as its answer leaves, without waiting: the
    client's next poll may come before it is back, and must not be refused for it."""
    settings.MAX_OPEN_FEEDS_PER_USER = 2
    user_id = make_user().pk

    async def take_while_the_last_poll_gives_back() -> tuple[leases.FeedSlot, float]:
        held = [await feed_slot_take(user_id) for _ in range(2)]
        loop = asyncio.get_running_loop()
        # Given back a little after the next take first looks (well within its retake).
        loop.call_later(leases.RETAKE_SECONDS / 5, held[1].release)
        started = loop.time()
        again = await feed_slot_take(user_id)
        took = loop.time() - started
        held[0].release()
        again.release()
        return again, took

    again, took = asyncio.run(take_while_the_last_poll_gives_back())
    assert again.key.endswith(":1")  # the slot that came back
    assert took >= leases.RETAKE_SECONDS  # found by the second look, not the first


def test_a_held_long_poll_gives_its_slot_back_once_it_has_answered(
    server: LiveServer, table: Table, make_user: Callable[..., User]
) -> None:
    user = make_user()
    client = server.client(user)
    with contextlib.ExitStack() as feeds:
        streams = [_open_stream(feeds, server.client(user), table) for _ in range(CAP - 1)]
        version = play_random(table, 0)
        for _ in range(5):  # the last slot, taken and given back by each held poll
            assert _long_poll(client, table, wait=0.2).status_code == 200
        assert _long_poll(client, table, wait=0).json()["last_seq"] == version
        streams.append(_open_stream(feeds, server.client(user), table))
        _assert_too_many_feeds(_long_poll(client, table, wait=1))
