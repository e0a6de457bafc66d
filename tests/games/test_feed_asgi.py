"""The feed paths on Django's ASGI handler without a thread per waiting client
(games/api/asgi.py)."""

import asyncio
import json
import os
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import pytest
from asgiref.sync import sync_to_async
from django.core.asgi import get_asgi_application

from accounts.models import AccessToken, User
from accounts.services import access_token_issue
from accounts.tokens import token_digest
from games import rules
from games.api.asgi import FEED_PATH, FEED_THREADS, AsgiApp, with_feed_handler
from games.feed import selectors, waiting, window
from games.feed.events import viewer_events_after
from games.feed.selectors import GameHeading
from tests.games.feed_support import (
    Table,
    asgi_get,
    play_random,
    run_closing_connections,
    seated_table,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

PARKED = 30


@dataclass
class LongPoll:
    """A started game, a seated player's token and the feed application to poll it with."""

    table: Table
    version: int
    token: str
    app: AsgiApp
    path: str


def _long_poll_setup(make_user: Callable[..., User]) -> LongPoll:
    table = seated_table(make_user)
    return LongPoll(
        table=table,
        version=play_random(table, 2),
        token=access_token_issue(user=table.players[0]),
        app=with_feed_handler(get_asgi_application()),
        path=f"/api/v1/games/{table.game_id}/events",
    )


def test_parked_long_polls_hold_no_thread_and_all_wake(
    make_user: Callable[..., User], settings: Any
) -> None:
    settings.MAX_OPEN_FEEDS_PER_USER = PARKED  # one user parks them all
    poll = _long_poll_setup(make_user)
    table, version, token, app, path = poll.table, poll.version, poll.token, poll.app, poll.path

    async def scenario() -> tuple[int, list[tuple[int, Any]]]:
        polls = [
            asyncio.create_task(asgi_get(app, path, f"after={version}&wait=20", token))
            for _ in range(PARKED)
        ]
        await asyncio.sleep(2.0)  # every request is parked by now
        threads_while_parked = threading.active_count()
        await sync_to_async(play_random)(table, 1, seed=3)
        return threads_while_parked, await asyncio.gather(*polls)

    threads_before = threading.active_count()
    threads_while_parked, answers = run_closing_connections(scenario)

    # The feed's request threads and the loop's pool (its reads) at most: none per poll.
    loop_pool = min(32, (os.cpu_count() or 1) + 4)  # ThreadPoolExecutor's default size
    assert FEED_THREADS + loop_pool < PARKED
    assert threads_while_parked - threads_before <= FEED_THREADS + loop_pool
    assert {status for status, _ in answers} == {200}
    assert {body["last_seq"] for _, body in answers} == {version + 1}


@pytest.mark.parametrize(
    ("path", "feed"),
    [
        ("/api/v1/games/0b7f2f8e-53c8-4c3e-9f3a-1c2d3e4f5a6b/events", True),
        ("/api/v1/games/0b7f2f8e-53c8-4c3e-9f3a-1c2d3e4f5a6b/stream", True),
        ("/api/v1/games/0b7f2f8e-53c8-4c3e-9f3a-1c2d3e4f5a6b", False),
        ("/api/v1/games/0b7f2f8e-53c8-4c3e-9f3a-1c2d3e4f5a6b/actions", False),
        ("/api/v1/games/0b7f2f8e-53c8-4c3e-9f3a-1c2d3e4f5a6b/events/x", False),
    ],
)
def test_only_the_feed_paths_take_the_shared_thread_handler(path: str, feed: bool) -> None:
    assert bool(FEED_PATH.search(path)) is feed


def test_a_long_poll_held_past_a_logout_answers_401(
    make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(waiting, "TOKEN_RECHECK_SECONDS", 0.0)  # at every read
    poll = _long_poll_setup(make_user)
    table, version, token, app, path = poll.table, poll.version, poll.token, poll.app, poll.path

    async def scenario() -> tuple[int, Any]:
        poll = asyncio.create_task(asgi_get(app, path, f"after={version}&wait=20", token))
        await asyncio.sleep(1.0)  # parked
        await sync_to_async(AccessToken.objects.filter(digest=token_digest(token)).delete)()
        await sync_to_async(play_random)(table, 1, seed=3)  # wakes the poll
        return await poll

    status, body = run_closing_connections(scenario)

    assert status == 401
    assert body["code"] == "invalid_token"
    assert "events" not in body


def test_watchers_woken_by_one_event_share_one_read_and_one_redaction_per_seat(
    make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    poll = _long_poll_setup(make_user)
    spectators = [access_token_issue(user=make_user()) for _ in range(PARKED)]
    players = {seat: access_token_issue(user=user) for seat, user in poll.table.players.items()}
    reads: list[UUID] = []
    redactions: Counter[int | None] = Counter()
    counted_heading, counted_redact = selectors.game_heading, rules.redact

    def counting_heading(game_id: UUID) -> GameHeading:
        reads.append(game_id)
        return counted_heading(game_id)

    def counting_redact(event: Any, seat: int | None, state: Any) -> Any:
        redactions[seat] += 1
        return counted_redact(event, seat, state)

    monkeypatch.setattr(window, "game_heading", counting_heading)
    monkeypatch.setattr(rules, "redact", counting_redact)
    query = f"after={poll.version}&wait=20"

    async def scenario() -> tuple[int, list[tuple[int, Any]]]:
        polls = [
            asyncio.create_task(asgi_get(poll.app, poll.path, query, token))
            for token in [*spectators, *players.values()]
        ]
        await asyncio.sleep(2.0)  # all parked
        reads.clear()
        redactions.clear()
        new_version = await sync_to_async(play_random)(poll.table, 1, seed=3)
        return new_version, await asyncio.gather(*polls)

    new_version, answers = run_closing_connections(scenario)

    assert {status for status, _ in answers} == {200}
    # One read of the game for every watcher (a notification may come while it runs:
    # one more), and each new event redacted once per seat, however many watch it.
    assert 1 <= len(reads) <= 2
    assert dict(redactions) == dict.fromkeys((0, 1, 2, 3, None), new_version - poll.version)
    # Each player got the page of their own seat, as if it had read alone.
    for (_, body), seat in zip(answers[PARKED:], poll.table.players, strict=True):
        alone = viewer_events_after(poll.table.game_id, poll.version, seat=seat)
        assert body["events"] == json.loads(json.dumps(alone.events, default=str))
    spectator = viewer_events_after(poll.table.game_id, poll.version, seat=None)
    for _, body in answers[:PARKED]:
        assert body["events"] == json.loads(json.dumps(spectator.events, default=str))


def test_a_poll_back_at_a_watched_started_game_reuses_the_latest_read_and_still_wakes(
    make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    poll = _long_poll_setup(make_user)
    reads: list[UUID] = []
    counted_heading = selectors.game_heading

    def counting_heading(game_id: UUID) -> GameHeading:
        reads.append(game_id)
        return counted_heading(game_id)

    monkeypatch.setattr(window, "game_heading", counting_heading)

    async def scenario() -> tuple[Any, int, list[UUID], Any, int]:
        first = asyncio.create_task(
            asgi_get(poll.app, poll.path, f"after={poll.version}&wait=20", poll.token)
        )
        await asyncio.sleep(1.0)  # parked
        moved_to = await sync_to_async(play_random)(poll.table, 1, seed=3)
        _, answered = await first
        reads.clear()
        # The follower comes back at once, as a client does: the hub still watches.
        again = asyncio.create_task(
            asgi_get(poll.app, poll.path, f"after={answered['last_seq']}&wait=20", poll.token)
        )
        await asyncio.sleep(1.0)  # parked
        reads_while_parked = list(reads)
        moved_again_to = await sync_to_async(play_random)(poll.table, 1, seed=4)
        return answered, moved_to, reads_while_parked, await again, moved_again_to

    answered, moved_to, reads_while_parked, (status, body), moved_again_to = (
        run_closing_connections(scenario)
    )

    assert answered["last_seq"] == moved_to
    assert reads_while_parked == []  # nothing could have changed: no query for it
    assert status == 200
    assert body["last_seq"] == moved_again_to
    seat = 0  # the token is the seat-0 player's (_long_poll_setup)
    alone = viewer_events_after(poll.table.game_id, moved_to, seat=seat)
    assert body["events"] == json.loads(json.dumps(alone.events, default=str))
