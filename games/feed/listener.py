"""Wake long-polls and streams when a game gets new events.

The append transaction runs `pg_notify('belote_game_events', '<game uuid>:<version>')`.
Each server process keeps ONE PostgreSQL connection listening on that channel (one per
event loop, so one per ASGI worker) and wakes the waiters registered for the game named
in each notification. A notification is only a hint: a woken waiter reads the events
table again, which is the truth. On a database without NOTIFY (SQLite, the embedded
default) waiters sleep for a short interval instead.
"""

import asyncio
import contextlib
import contextvars
import logging
import weakref
from collections.abc import AsyncIterator
from typing import Any, Protocol

import psycopg
from django.db import connection

logger = logging.getLogger(__name__)

CHANNEL = "belote_game_events"
# How long `notifies()` may sit silent before the connection is probed with a query.
HEALTH_CHECK_SECONDS = 30.0
# While the listener is (re)connecting a notification can be missed: waiters re-read
# the database at least this often until it is listening again.
UNLISTENED_POLL_SECONDS = 1.0
RECONNECT_DELAYS = (0.2, 0.5, 1.0, 2.0, 5.0)
# Databases without LISTEN/NOTIFY (SQLite) are re-read this often while a client waits.
POLL_SECONDS = 0.5
# Connection parameters Django passes to psycopg that are not libpq settings.
_DJANGO_ONLY_PARAMS = ("context", "cursor_factory", "prepare_threshold")


class Wakeup(Protocol):
    @property
    def notified(self) -> bool:
        """Whether every notification of the game reaches this wakeup now (the listener
        is connected and listening): a wakeup that does not come means nothing moved."""

    async def wait(self, timeout: float) -> None:
        """Return when the game may have new events, or after `timeout` seconds."""


class _PollingWakeup:
    notified = False

    async def wait(self, timeout: float) -> None:
        await asyncio.sleep(min(timeout, POLL_SECONDS))


class _NotifiedWakeup:
    def __init__(self, listener: "GameEventListener") -> None:
        self._listener = listener
        self.woken = asyncio.Event()

    @property
    def notified(self) -> bool:
        return self._listener.listening

    async def wait(self, timeout: float) -> None:
        if not self._listener.listening:
            timeout = min(timeout, UNLISTENED_POLL_SECONDS)
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation
        # that comes as the event is set, and a hub's watch would then outlive its end.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self.woken.wait()
        self.woken.clear()


class GameEventListener:
    """The per-process LISTEN connection and the waiters it wakes, keyed by game id."""

    def __init__(self, connect_params: dict[str, Any]) -> None:
        self._connect_params = connect_params
        self._waiters: dict[str, set[_NotifiedWakeup]] = {}
        self._task: asyncio.Task[None] | None = None
        self.listening = False

    @contextlib.asynccontextmanager
    async def subscribe(self, game_id: str) -> AsyncIterator[Wakeup]:
        """Register a waiter for `game_id`; read the database only after entering.

        Registering first and reading second closes the lost-wakeup race: an event
        appended after the read notifies a waiter that is already registered.
        """
        self._ensure_running()
        wakeup = _NotifiedWakeup(self)
        self._waiters.setdefault(game_id, set()).add(wakeup)
        try:
            yield wakeup
        finally:
            waiters = self._waiters.get(game_id)
            if waiters is not None:
                waiters.discard(wakeup)
                if not waiters:
                    del self._waiters[game_id]

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def _ensure_running(self) -> None:
        if self._task is None or self._task.done():
            # A context of its own: it outlives the request whose wait started it.
            loop = asyncio.get_running_loop()
            self._task = loop.create_task(self._run(), context=contextvars.Context())

    async def _run(self) -> None:
        failures = 0
        while True:
            try:
                await self._listen()
            except (psycopg.Error, OSError) as error:
                logger.warning("game event listener lost its connection: %s", error)
            finally:
                self.listening = False
                # Anything may have happened while nobody listened.
                self._wake_all()
            await asyncio.sleep(RECONNECT_DELAYS[min(failures, len(RECONNECT_DELAYS) - 1)])
            failures += 1

    async def _listen(self) -> None:
        conn = await psycopg.AsyncConnection.connect(**self._connect_params, autocommit=True)
        async with conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            self.listening = True
            self._wake_all()
            while True:
                async for notify in conn.notifies(timeout=HEALTH_CHECK_SECONDS):
                    self._wake_game(notify.payload.partition(":")[0])
                await conn.execute("SELECT 1")

    def _wake_game(self, game_id: str) -> None:
        for wakeup in self._waiters.get(game_id, ()):
            wakeup.woken.set()

    def _wake_all(self) -> None:
        for waiters in self._waiters.values():
            for wakeup in waiters:
                wakeup.woken.set()


_listeners: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, GameEventListener]" = (
    weakref.WeakKeyDictionary()
)


def listener_connect_params() -> dict[str, Any]:
    """psycopg keyword arguments for the default database, as Django connects to it."""
    params = connection.get_connection_params()
    for name in _DJANGO_ONLY_PARAMS:
        params.pop(name, None)
    return params


@contextlib.asynccontextmanager
async def game_wakeups(game_id: str) -> AsyncIterator[Wakeup]:
    """A `Wakeup` for `game_id` for as long as the block runs (see the module doc)."""
    if connection.vendor != "postgresql":
        yield _PollingWakeup()
        return
    loop = asyncio.get_running_loop()
    listener = _listeners.get(loop)
    if listener is None:
        listener = _listeners[loop] = GameEventListener(listener_connect_params())
    async with listener.subscribe(game_id) as wakeup:
        yield wakeup
