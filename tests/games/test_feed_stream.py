"""The stream generator and the long-poll, driven in-process on an event loop."""

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest
from asgiref.sync import sync_to_async

from accounts.models import AccessToken, User
from accounts.services import access_token_issue
from accounts.tokens import token_digest
from games.feed import hub, listener, waiting
from games.feed.selectors import FeedViewer
from tests.games.feed_support import play_random, run_closing_connections, seated_table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

WAIT_SECONDS = 20.0


@pytest.fixture
def viewer(make_user: Callable[..., User]) -> FeedViewer:
    table = seated_table(make_user)
    play_random(table, 3)
    return FeedViewer(game_id=table.game_id, user_id=table.players[0].pk)


async def _frames_until(stream: AsyncIterator[bytes], wanted: bytes) -> list[bytes]:
    frames = []
    async with asyncio.timeout(WAIT_SECONDS):
        async for frame in stream:
            frames.append(frame)
            if wanted in frame:
                return frames
    return frames


def test_a_silent_stream_sends_keepalive_comments(
    viewer: FeedViewer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(waiting, "KEEPALIVE_SECONDS", 0.2)

    async def scenario() -> list[bytes]:
        stream = waiting.event_stream(viewer, after=4, seat=0)
        try:
            return await _frames_until(stream, b": keep-alive")
        finally:
            await stream.aclose()

    frames = run_closing_connections(scenario)

    assert frames[0] == b"retry: 3000\n\n"
    assert frames[-1] == b": keep-alive\n\n"


def test_a_client_leaving_the_stream_leaves_no_waiter_behind(
    viewer: FeedViewer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The hub keeps watching a little after its last follower left, then stops by itself.
    monkeypatch.setattr(hub, "WATCH_LINGER_SECONDS", 0.2)

    async def scenario() -> tuple[object, object, object]:
        stream = waiting.event_stream(viewer, after=0, seat=0)
        reader = asyncio.create_task(_frames_until(stream, b"never sent"))
        await asyncio.sleep(0.5)
        followed = hub.followed_games()
        reader.cancel()  # what the ASGI handler does when the client disconnects
        with pytest.raises(asyncio.CancelledError):
            await reader
        await stream.aclose()
        await asyncio.sleep(0.5)  # past the linger: the watch's end has run
        game_listener = listener._listeners[asyncio.get_running_loop()]
        return set(followed), hub.followed_games(), dict(game_listener._waiters)

    followed_while_open, followed, waiters = run_closing_connections(scenario)
    assert followed_while_open == {viewer.game_id}
    assert followed == {}
    assert waiters == {}


def test_a_long_poll_on_a_finished_game_does_not_wait(
    make_user: Callable[..., User],
) -> None:
    table = seated_table(make_user, target=1)
    version = play_random(table, 400)
    viewer = FeedViewer(game_id=table.game_id, user_id=make_user().pk)

    async def scenario() -> tuple[float, int]:
        loop = asyncio.get_running_loop()
        started = loop.time()
        page = await waiting.wait_for_page(viewer, after=version, limit=10, wait=WAIT_SECONDS)
        return loop.time() - started, page.last_seq

    seconds, last_seq = run_closing_connections(scenario)

    assert seconds < WAIT_SECONDS / 2
    assert last_seq == version


def test_a_stream_ends_when_its_token_stops_being_valid(
    make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(waiting, "KEEPALIVE_SECONDS", 0.2)
    monkeypatch.setattr(waiting, "TOKEN_RECHECK_SECONDS", 0.0)  # at every read
    table = seated_table(make_user)
    version = play_random(table, 2)
    token = access_token_issue(user=table.players[0])
    access_token = AccessToken.objects.get(digest=token_digest(token))
    viewer = FeedViewer(
        game_id=table.game_id, user_id=table.players[0].pk, token_id=access_token.pk
    )

    async def scenario() -> list[bytes]:
        stream = waiting.event_stream(viewer, after=version, seat=0)
        frames = await _frames_until(stream, b": keep-alive")  # served while signed in
        await sync_to_async(access_token.delete)()  # logout
        await sync_to_async(play_random)(table, 1, seed=3)
        async with asyncio.timeout(WAIT_SECONDS):
            frames += [frame async for frame in stream]  # the stream ends by itself
        return frames

    frames = run_closing_connections(scenario)

    assert frames[-1] == b": keep-alive\n\n"  # nothing after the logout, not the new event
    assert not any(frame.startswith(b"id:") for frame in frames)


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def time(self) -> float:
        return self.now


def test_the_token_is_rechecked_at_most_every_few_seconds() -> None:
    clock = _Clock()
    token = waiting.TokenClock(clock)  # type: ignore[arg-type]
    assert not token.due()  # the request's authentication has just checked it
    clock.now += waiting.TOKEN_RECHECK_SECONDS - 0.1
    assert not token.due()
    clock.now += 0.2
    assert token.due()  # this read checks it...
    assert not token.due()  # ...so the next ones need not
    clock.now += waiting.TOKEN_RECHECK_SECONDS
    assert token.due()
