"""Helpers for the feed tests: a seated table, random play, what each seat must not see,
and a real server to follow games on."""

import asyncio
import contextlib
import json
import os
import random
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar
from uuid import UUID

import httpx
import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections

from accounts.models import User
from accounts.services import access_token_issue
from bench.load_bench import ROOT, free_port, server_command, wait_until_serving
from games import event_store, rules
from games.models import Seat
from games.services.play import game_act
from games.services.tables import game_create, seat_join


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
    loaded = event_store.load(table.game_id)
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
        loaded = event_store.load(table.game_id)
    return loaded.version


def secret_cards_by_seq(game_id: UUID) -> dict[int, dict[int, set[str]]]:
    """After each event: per seat, the cards it holds that nobody else may know yet."""
    state = rules.new_game()
    public: set[str] = set()
    secrets: dict[int, dict[int, set[str]]] = {}
    for stored in event_store.load_events_after(game_id, 0):
        state = rules.apply(state, stored.event)
        stored_form = rules.event_to_dict(stored.event)
        if stored_form["type"] == "hand_dealt":
            public = {stored_form["turned_card"]}
        elif stored_form["type"] == "declarations_shown":
            public |= set(_strings(stored_form["declarations"]))
        secrets[stored.seq] = {
            seat: set(rules.view(state, seat)["hand"]) - public for seat in range(4)
        }
    return secrets


def cards_seen(
    events: list[dict[str, Any]], secrets: dict[int, dict[int, set[str]]]
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
    events: list[dict[str, Any]], viewer: int | None, secrets: dict[int, dict[int, set[str]]]
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


Result = TypeVar("Result")


def run_closing_connections(scenario: Callable[[], Coroutine[Any, Any, Result]]) -> Result:
    """asyncio.run, then close the connections sync_to_async's thread opened."""

    async def then_close() -> Result:
        try:
            return await scenario()
        finally:
            await sync_to_async(connections.close_all)()

    return asyncio.run(then_close())


# Generous: a working feed answers in milliseconds, a broken one only at these.
HTTP_TIMEOUT = 30.0


@dataclass(frozen=True)
class LiveServer:
    """The production server command on a loopback port, reading the test database.

    `cache_prefix` is its cache's key prefix, its own so that servers of other runs
    (sharing Redis) never see its entries, such as the feed slots.
    """

    url: str
    cache_prefix: str

    def client(self, user: User) -> httpx.Client:
        token = access_token_issue(user=user)
        return httpx.Client(
            base_url=self.url, headers={"Authorization": f"Bearer {token}"}, timeout=HTTP_TIMEOUT
        )


def _database_url() -> str:
    db = connection.settings_dict
    credentials = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{credentials}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


@contextlib.contextmanager
def live_server(**settings: str) -> Iterator[LiveServer]:
    """A server (one worker) for a module's tests; they commit their data (transactional
    tests) so that it sees them, and their appends reach it through PostgreSQL NOTIFY.
    `settings`: more environment variables for it."""
    if connection.vendor != "postgresql":
        pytest.skip("the live feed tests need PostgreSQL")
    port = free_port()
    server = LiveServer(url=f"http://127.0.0.1:{port}", cache_prefix=f"live-{uuid.uuid4().hex}")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "belote_project.settings",
        "DATABASE_URL": _database_url(),
        "CACHE_KEY_PREFIX": server.cache_prefix,
        **settings,
    }
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            server_command(port, workers=1), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        try:
            try:
                wait_until_serving(server.url, process)
            except RuntimeError as error:
                log.seek(0)
                pytest.fail(f"{error}: {log.read().decode()}")
            yield server
        finally:
            process.terminate()
            process.wait(timeout=10)


class Background:
    """A call run in a thread, timed, whose result the test collects later."""

    def __init__(self, call: Callable[[], Any]) -> None:
        self.result: Any = None
        self.seconds = 0.0

        def run() -> None:
            started = time.monotonic()
            self.result = call()
            self.seconds = time.monotonic() - started

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def join(self) -> Any:
        self._thread.join(HTTP_TIMEOUT + 5)
        assert not self._thread.is_alive()
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
