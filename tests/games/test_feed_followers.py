"""Many followers of one game, reconnecting followers, and games that do not wait for each
other (issue 12): every follower gets every event it may see exactly once, in order."""

import asyncio
import json
import threading
from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

import httpx
import pytest
from asgiref.sync import sync_to_async
from django.core.asgi import get_asgi_application

from accounts.models import User
from accounts.services import access_token_issue
from games.api.asgi import with_feed_handler
from games.feed import selectors, window
from games.feed.events import viewer_events_after
from games.feed.selectors import GameHeading
from tests.games.feed_support import (
    Table,
    asgi_get,
    play_random,
    run_closing_connections,
    seated_table,
)
from tests.live_server import HTTP_TIMEOUT, LiveServer, live_server, schema_checked_async

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

LONG_POLLS = 50
STREAMS = 10
SPECTATORS = 8
# Short, so a poll sent after the last event answers soon; a wake answers at once.
POLL_WAIT = 3


@pytest.fixture(scope="module")
def server(django_db_setup: None) -> Iterator[LiveServer]:
    with live_server(MAX_OPEN_FEEDS_PER_USER="64") as started:
        yield started


def _with_tokens(users: list[User]) -> list[tuple[User, str]]:
    return [(user, access_token_issue(user=user)) for user in users]


class Follower:
    """One viewer following the game, by long-poll or by stream, from `after`."""

    def __init__(
        self, client: httpx.AsyncClient, game_id: UUID, viewer: tuple[User, str], after: int
    ) -> None:
        self.client, (self.user, token), self.cursor = client, viewer, after
        self.headers = {"Authorization": f"Bearer {token}"}
        self.url = f"/api/v1/games/{game_id}"
        self.seqs: list[int] = []

    def _take(self, events: list[dict[str, Any]]) -> None:
        self.seqs += [event["seq"] for event in events]

    async def poll_until(self, target: Callable[[], int | None]) -> None:
        while (last := target()) is None or self.cursor < last:
            params = {"after": self.cursor, "wait": POLL_WAIT}
            response = await self.client.get(
                f"{self.url}/events", params=params, headers=self.headers
            )
            assert response.status_code == 200, response.text
            self._take(response.json()["events"])
            self.cursor = response.json()["last_seq"]

    async def stream_until(self, target: Callable[[], int | None], *, once: bool = False) -> None:
        """Read streams (reconnecting with Last-Event-ID) until the target seq; with
        `once`, leave after the first event, as a client that loses its connection."""
        while (last := target()) is None or self.cursor < last:
            headers = {**self.headers, "Last-Event-ID": str(self.cursor)}
            async with self.client.stream("GET", f"{self.url}/stream", headers=headers) as reply:
                assert reply.status_code == 200
                async for line in reply.aiter_lines():
                    if line.startswith("data: "):
                        event = json.loads(line[len("data: ") :])
                        self._take([event])
                        self.cursor = event["seq"]
                        if once or ((last := target()) is not None and self.cursor >= last):
                            return


def _seen_alone(table: Table, user: User, after: int) -> list[int]:
    seat = next((seat for seat, player in table.players.items() if player == user), None)
    return [event["seq"] for event in viewer_events_after(table.game_id, after, seat=seat).events]


def test_fifty_long_polls_and_ten_streams_of_one_game_each_get_every_event_once(
    server: LiveServer, make_user: Callable[..., User]
) -> None:
    table = seated_table(make_user)
    start = play_random(table, 2)
    viewers = _with_tokens([*table.players.values(), *(make_user() for _ in range(SPECTATORS))])
    final: list[int] = []

    async def scenario() -> list[Follower]:
        limits = httpx.Limits(max_connections=LONG_POLLS + STREAMS + 4)
        async with httpx.AsyncClient(
            base_url=server.url,
            timeout=HTTP_TIMEOUT,
            limits=limits,
            event_hooks={"response": [schema_checked_async]},
        ) as client:
            pollers = [
                Follower(client, table.game_id, viewers[n % len(viewers)], start)
                for n in range(LONG_POLLS)
            ]
            streamers = [
                Follower(client, table.game_id, viewers[n % len(viewers)], start)
                for n in range(STREAMS)
            ]
            target = lambda: final[0] if final else None  # noqa: E731
            polling = [asyncio.create_task(f.poll_until(target)) for f in pollers]
            streaming = [asyncio.create_task(f.stream_until(target)) for f in streamers]
            version = start
            for seed in range(6):  # one by one, some while followers are between polls
                await asyncio.sleep(0.2)
                version = await sync_to_async(play_random)(table, 1, seed=seed)
            final.append(version)
            await asyncio.gather(*polling)
            # A stream that got the last event before it was known to be the last one
            # just stays open: done once every stream has it.
            async with asyncio.timeout(HTTP_TIMEOUT):
                while any(f.cursor < version for f in streamers):
                    await asyncio.sleep(0.05)
            for task in streaming:
                task.cancel()
            await asyncio.gather(*streaming, return_exceptions=True)
            return pollers + streamers

    followers = asyncio.run(scenario())

    assert final[0] > start
    for follower in followers:
        assert follower.seqs == _seen_alone(table, follower.user, start)


def test_followers_that_reconnect_with_their_cursor_lose_nothing(
    server: LiveServer, make_user: Callable[..., User]
) -> None:
    table = seated_table(make_user)
    start = play_random(table, 1)
    final: list[int] = []
    target = lambda: final[0] if final else None  # noqa: E731
    seated, spectator = _with_tokens([table.players[1], make_user()])

    async def scenario() -> list[Follower]:
        async with httpx.AsyncClient(
            base_url=server.url,
            timeout=HTTP_TIMEOUT,
            event_hooks={"response": [schema_checked_async]},
        ) as client:
            streamer = Follower(client, table.game_id, seated, start)
            poller = Follower(client, table.game_id, spectator, start)
            await sync_to_async(play_random)(table, 1, seed=5)
            await streamer.stream_until(target, once=True)  # gone after one event
            abandoned = asyncio.create_task(poller.poll_until(target))
            await asyncio.sleep(0.5)
            abandoned.cancel()  # a long-poll dropped while held: nothing was received
            await asyncio.gather(abandoned, return_exceptions=True)
            final.append(await sync_to_async(play_random)(table, 5, seed=6))
            await asyncio.gather(streamer.stream_until(target), poller.poll_until(target))
            return [streamer, poller]

    for follower in asyncio.run(scenario()):
        assert follower.cursor == final[0]
        assert follower.seqs == _seen_alone(table, follower.user, start)


def test_a_game_whose_read_is_stuck_does_not_hold_back_another_games_followers(
    make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.MAX_OPEN_FEEDS_PER_USER = 40
    busy, other = seated_table(make_user), seated_table(make_user)
    busy_version, other_version = play_random(busy, 1), play_random(other, 1)
    app = with_feed_handler(get_asgi_application())
    token = access_token_issue(user=make_user())  # a spectator of both
    release = threading.Event()
    stuck = threading.Event()
    read_heading = selectors.game_heading

    def heading(game_id: UUID) -> GameHeading:
        if game_id == busy.game_id and stuck.is_set():
            release.wait(HTTP_TIMEOUT)  # the busy game's read hangs until released
        return read_heading(game_id)

    monkeypatch.setattr(window, "game_heading", heading)

    def path(table: Table) -> str:
        return f"/api/v1/games/{table.game_id}/events"

    other_moved_to: list[int] = []

    async def scenario() -> tuple[list[Any], Any, bool]:
        busy_polls = [
            asyncio.create_task(asgi_get(app, path(busy), f"after={busy_version}&wait=25", token))
            for _ in range(30)
        ]
        other_poll = asyncio.create_task(
            asgi_get(app, path(other), f"after={other_version}&wait=25", token)
        )
        await asyncio.sleep(1.0)  # all parked, their first reads done
        stuck.set()
        await sync_to_async(play_random)(busy, 1, seed=2)  # its woken read hangs
        other_moved_to.append(await sync_to_async(play_random)(other, 1, seed=2))
        try:
            other_answer = await asyncio.wait_for(other_poll, HTTP_TIMEOUT)
            busy_still_waiting = not any(poll.done() for poll in busy_polls)
        finally:
            release.set()
        return await asyncio.gather(*busy_polls), other_answer, busy_still_waiting

    busy_answers, (status, body), busy_still_waiting = run_closing_connections(scenario)

    # The other game's follower got its event while the busy game's read was stuck.
    assert status == 200
    seqs = [event["seq"] for event in body["events"]]  # the first append's, or all
    assert seqs == list(range(other_version + 1, other_version + 1 + len(seqs)))
    assert other_version < body["last_seq"] <= other_moved_to[0]
    assert busy_still_waiting
    assert {status for status, _ in busy_answers} == {200}
    assert all(body["last_seq"] > busy_version for _, body in busy_answers)
