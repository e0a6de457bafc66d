"""The per-process LISTEN connection wakes the waiters of the notified game only."""

import asyncio
import time
from typing import Any

import psycopg
import pytest
from django.db import connection

from games.feed.listener import CHANNEL, GameEventListener, Wakeup, listener_connect_params

pytestmark = pytest.mark.django_db(transaction=True)

# Generous: a wakeup that works returns in milliseconds, one that does not takes this long.
WAIT_SECONDS = 20.0


@pytest.fixture(autouse=True)
def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("LISTEN/NOTIFY needs PostgreSQL")


async def _notify(params: dict[str, Any], payload: str) -> None:
    async with await psycopg.AsyncConnection.connect(**params, autocommit=True) as conn:
        await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))


async def _until_listening(listener: GameEventListener, wakeup: Wakeup) -> None:
    async with asyncio.timeout(WAIT_SECONDS):
        while not listener.listening:
            await asyncio.sleep(0.01)
    # Connecting wakes every waiter (anything may have happened before): consume that.
    await wakeup.wait(0)


async def _timed_wait(wakeup: Wakeup, timeout: float) -> float:
    started = time.monotonic()
    await wakeup.wait(timeout)
    return time.monotonic() - started


def _seconds_waited_for_game_a(*, notified: str, timeout: float) -> float:
    """How long a waiter of game-a waits when `notified` is sent while it waits."""
    params = listener_connect_params()

    async def scenario() -> float:
        listener = GameEventListener(params)
        try:
            async with listener.subscribe("game-a") as wakeup:
                await _until_listening(listener, wakeup)
                waiting = asyncio.create_task(_timed_wait(wakeup, timeout))
                await asyncio.sleep(0.1)
                await _notify(params, notified)
                return await waiting
        finally:
            await listener.close()

    return asyncio.run(scenario())


def test_notification_wakes_the_waiter_of_its_game_before_the_timeout() -> None:
    waited = _seconds_waited_for_game_a(notified="game-a:7", timeout=WAIT_SECONDS)
    assert waited < WAIT_SECONDS / 2


def test_notification_for_another_game_does_not_wake_the_waiter() -> None:
    assert _seconds_waited_for_game_a(notified="game-b:3", timeout=2.0) >= 2.0


def test_a_lost_connection_wakes_the_waiters_and_is_replaced() -> None:
    params = listener_connect_params()

    async def scenario() -> tuple[float, float]:
        listener = GameEventListener(params)
        try:
            async with listener.subscribe("game-a") as wakeup:
                await _until_listening(listener, wakeup)
                async with await psycopg.AsyncConnection.connect(
                    **params, autocommit=True
                ) as admin:
                    await admin.execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        " WHERE datname = current_database() AND query = %s",
                        (f"LISTEN {CHANNEL}",),
                    )
                woken_by_the_loss = await _timed_wait(wakeup, WAIT_SECONDS)
                await _until_listening(listener, wakeup)
                waiting = asyncio.create_task(_timed_wait(wakeup, WAIT_SECONDS))
                await asyncio.sleep(0.1)
                await _notify(params, "game-a:8")
                return woken_by_the_loss, await waiting
        finally:
            await listener.close()

    woken_by_the_loss, woken_by_the_notification = asyncio.run(scenario())

    assert woken_by_the_loss < WAIT_SECONDS / 2
    assert woken_by_the_notification < WAIT_SECONDS / 2


def test_waiters_leave_no_trace_after_their_block() -> None:
    async def scenario() -> dict[str, Any]:
        listener = GameEventListener(listener_connect_params())
        try:
            async with listener.subscribe("game-a"), listener.subscribe("game-a"):
                pass
            return dict(listener._waiters)
        finally:
            await listener.close()

    assert asyncio.run(scenario()) == {}
