"""Helpers for the feed tests: a seated table, random play, what each seat must not see,
and a real server to follow games on."""

import asyncio
import json
import random
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar
from uuid import UUID

import httpx
from asgiref.sync import sync_to_async
from django.db import connections

from accounts.models import User
from bench.asgi_scope import http_scope
from games import rules, store
from games.api.asgi import AsgiApp
from games.models import Seat
from games.services.play import game_act
from games.services.tables import game_create, seat_join
from tests.games.leaks import secrets_by_seq
from tests.live_server import HTTP_TIMEOUT


@dataclass(frozen=True)
class Table:
    game_id: UUID
    players: dict[int, User]


def seated_table(make_user: Callable[..., User], **options: Any) -> Table:
    """Four players seated, so the game has started."""
    creator = make_user()
    game = game_create(user=creator, options=options)
    for _ in range(3):
        seat_join(game_id=game.id, user=make_user())
    seats = Seat.objects.filter(game=game).select_related("user")
    return Table(game_id=game.id, players={row.seat: row.user for row in seats if row.user})


def play_random(table: Table, actions: int, *, seed: int = 7) -> int:
    """Play up to `actions` random legal actions; the version after them."""
    chooser = random.Random(seed)
    loaded = store.load(table.game_id)
    for _ in range(actions):
        turn = rules.view(loaded.state, None)["turn"]
        if turn is None:
            break
        choice = chooser.choice(rules.legal_actions(loaded.state, turn))
        game_act(
            game_id=table.game_id,
            user=table.players[turn],
            action=choice,
            expected_version=loaded.version,
        )
        loaded = store.load(table.game_id)
    return loaded.version


def secret_cards_by_seq(game_id: UUID) -> dict[int, dict[int, frozenset[str]]]:
    """After each event: per seat, the cards it holds that nobody else may know yet."""
    return {seq: secrets.cards for seq, secrets in secrets_by_seq(game_id).items()}


def cards_seen(
    events: list[dict[str, Any]], secrets: dict[int, dict[int, frozenset[str]]]
) -> dict[int, set[str]]:
    """Per seat, which of its secret cards appear anywhere in the events."""
    seen: dict[int, set[str]] = {}
    for event in events:
        texts = set(_strings(event))
        for seat, cards in secrets[event["seq"]].items():
            if texts & cards:
                seen.setdefault(seat, set()).update(texts & cards)
    return seen


def foreign_cards_seen(
    events: list[dict[str, Any]], viewer: int | None, secrets: dict[int, dict[int, frozenset[str]]]
) -> list[tuple[int, str]]:
    """(seq, card) for every other seat's secret card found anywhere in the events."""
    leaks = []
    for event in events:
        others = set().union(
            *(cards for seat, cards in secrets[event["seq"]].items() if seat != viewer)
        )
        leaks += [(event["seq"], text) for text in _strings(event) if text in others]
    return leaks


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def parse_sse(text: str) -> list[dict[str, str]]:
    """The events of a text/event-stream body (comments and `retry:` lines dropped)."""
    frames = []
    for block in text.split("\n\n"):
        fields = dict(
            line.split(": ", 1) for line in block.splitlines() if line and not line.startswith(":")
        )
        if "data" in fields:
            frames.append(fields)
    return frames


def sse_events(frames: list[dict[str, str]]) -> list[dict[str, Any]]:
    events = [json.loads(frame["data"]) for frame in frames]
    for frame, event in zip(frames, events, strict=True):
        assert frame["id"] == str(event["seq"])
        assert frame["event"] == event["type"]
    return events


async def asgi_get(app: AsgiApp, path: str, query: str, token: str) -> tuple[int, Any]:
    """One GET through the ASGI application, as a server would make it."""
    headers = [(b"host", b"127.0.0.1"), (b"authorization", f"Bearer {token}".encode())]
    scope = http_scope("GET", path, headers, query)
    requested = False
    messages: list[Any] = []

    async def receive() -> dict[str, Any]:
        nonlocal requested
        if not requested:
            requested = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client never disconnects
        raise AssertionError

    async def send(message: Any) -> None:
        messages.append(message)

    await app(scope, receive, send)
    body = b"".join(message.get("body", b"") for message in messages[1:])
    return messages[0]["status"], json.loads(body)


Result = TypeVar("Result")


def run_closing_connections(scenario: Callable[[], Coroutine[Any, Any, Result]]) -> Result:
    """asyncio.run, then close the connections sync_to_async's thread opened."""

    async def then_close() -> Result:
        try:
            return await scenario()
        finally:
            await sync_to_async(connections.close_all)()

    return asyncio.run(then_close())


class Background:
    """A call run in a thread, timed, whose result the test collects later."""

    def __init__(self, call: Callable[[], Any]) -> None:
        self.result: Any = None
        self.error: BaseException | None = None
        self.seconds = 0.0

        def run() -> None:
            started = time.monotonic()
            try:
                self.result = call()
            except BaseException as error:  # raised again in the test's thread by join()
                self.error = error
            self.seconds = time.monotonic() - started

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def join(self) -> Any:
        self._thread.join(HTTP_TIMEOUT + 5)
        assert not self._thread.is_alive()
        if self.error is not None:
            raise self.error
        return self.result


@dataclass
class StreamRead:
    """What a client read of an event stream: `ended` when the server closed it."""

    status: int = 0
    text: str = ""
    ended: bool = False

    @property
    def events(self) -> list[dict[str, Any]]:
        return sse_events(parse_sse(self.text))


def read_stream_to_its_end(
    client: httpx.Client, url: str, opened: threading.Event, **headers: str
) -> StreamRead:
    """Read a stream until the server ends it, or give up after HTTP_TIMEOUT seconds
    (it sends a keep-alive every 15 s, so the deadline is checked). `opened` is set at the
    first frame, which the server sends after the stream's first read."""
    read = StreamRead()
    deadline = time.monotonic() + HTTP_TIMEOUT
    with client.stream("GET", url, headers=headers) as response:
        read.status = response.status_code
        for chunk in response.iter_text():
            read.text += chunk
            opened.set()
            if time.monotonic() > deadline:
                return read
    opened.set()
    read.ended = True
    return read


#: a held long-poll's wait: longer than any test needs it held, within the API's 30 s
LONG_POLL_WAIT = 20
#: how long a long-poll sent now takes to be parked on the server with its first read
#: done (nothing observable tells a client; a read later than this only serves it for
#: the seat held then, which a test must allow for anyway)
PARK_SECONDS = 1.0


def open_stream(client: httpx.Client, game_id: UUID, **headers: str) -> Background:
    """A stream read in the background, once its first read (for the seat held now) ran."""
    opened = threading.Event()
    url = f"/api/v1/games/{game_id}/stream"
    stream = Background(lambda: read_stream_to_its_end(client, url, opened, **headers))
    assert opened.wait(HTTP_TIMEOUT)
    return stream


def send_long_poll(client: httpx.Client, game_id: UUID, *, after: int = 0) -> Background:
    """A long-poll (`LONG_POLL_WAIT`) sent in the background; `time.sleep(PARK_SECONDS)`
    to have it parked."""
    return Background(
        lambda: client.get(
            f"/api/v1/games/{game_id}/events", params={"after": after, "wait": LONG_POLL_WAIT}
        )
    )


def read_stream_until(
    client: httpx.Client,
    url: str,
    last_seq: int,
    *,
    headers: dict[str, str],
    then: Callable[[], Any],
) -> list[dict[str, Any]]:
    """Stream events until seq `last_seq` arrived, call `then`, and read one more event."""
    text = ""
    with client.stream("GET", url, headers=headers) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        chunks = response.iter_text()
        while not any(frame["id"] == str(last_seq) for frame in parse_sse(text)):
            text += next(chunks)
        seen = len(parse_sse(text))
        then()
        while len(parse_sse(text)) == seen:
            text += next(chunks)
    return sse_events(parse_sse(text))
