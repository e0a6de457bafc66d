"""A player's own feed: their notices after a cursor, and their stream.

The notices are the user's alone (games/services/notices.py writes them), so there is
nothing to redact and no hub to share: a game's hub serves the many followers of one
game from one read, while a user's feed has one follower, the user's app. A long-poll
of it is a numbered list's (games/feed/lists.py) under the key `player-<user id>`; the
stream subscribes to that key's wakeup before its first read, holds no thread nor
database connection while it waits, and reads again on each notification (on SQLite,
ten times a second).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any

from games.feed.listener import Wakeup, game_wakeups
from games.feed.selectors import SignedOut
from games.feed.threads import in_pool_thread
from games.feed.waiting import (
    RECONNECT_MILLISECONDS,
    Silence,
    TokenClock,
    sse_event,
    token_check,
)
from games.models import PlayerNotice
from games.selectors import deadline_text
from games.services.notices import PLAYER_KEY_PREFIX

# Notices a stream sends per read when catching up.
STREAM_BATCH = 100


@dataclass(frozen=True)
class PlayerViewer:
    """A signed-in user reading their own feed, with the token they came with (checked
    again now and then while a poll is held or a stream runs)."""

    user_id: int
    token_id: int | None = None


@dataclass(frozen=True)
class NoticePage:
    """The user's notices after a cursor; `last_seq` is where to resume."""

    notices: list[dict[str, Any]]
    last_seq: int
    has_more: bool


def notices_after(user_id: int, after: int, limit: int) -> NoticePage:
    """Up to `limit` of the user's notices with `seq > after`, oldest first."""
    rows = list(
        PlayerNotice.objects.filter(user_id=user_id, seq__gt=after)
        .order_by("seq")
        .values(
            "seq",
            "type",
            "game_id",
            "version",
            "seat",
            "turn_deadline",
            "reason",
            "data",
            "created_at",
        )[: limit + 1]
    )
    notices = [notice_wire(row) for row in rows[:limit]]
    return NoticePage(
        notices=notices,
        last_seq=notices[-1]["seq"] if notices else after,
        has_more=len(rows) > limit,
    )


def notice_wire(row: Mapping[str, Any]) -> dict[str, Any]:
    """A notice as the API sends it (one of the `PlayerNotice` schema's components): a
    game's with its game's members, another app's with the members it gave."""
    if row["game_id"] is None:
        return {
            "seq": row["seq"],
            "type": row["type"],
            **row["data"],
            "created_at": deadline_text(row["created_at"]),
        }
    return {
        "seq": row["seq"],
        "type": row["type"],
        "game_id": str(row["game_id"]),
        "version": row["version"],
        "seat": row["seat"],
        "turn_deadline": deadline_text(row["turn_deadline"]),
        "reason": row["reason"] or None,
        "created_at": deadline_text(row["created_at"]),
    }


_read = in_pool_thread(notices_after)


@contextlib.asynccontextmanager
async def player_wakeups(user_id: int) -> AsyncIterator[Wakeup]:
    """A `Wakeup` for the user's new notices for as long as the block runs."""
    async with game_wakeups(f"{PLAYER_KEY_PREFIX}{user_id}") as wakeup:
        yield wakeup


async def notice_stream(viewer: PlayerViewer, *, after: int) -> AsyncGenerator[bytes, None]:
    """Server-Sent Events of the user's notices from `after` on, until the client leaves
    or the token stops being valid (the reconnection then meets a 401)."""
    loop = asyncio.get_running_loop()
    yield f"retry: {RECONNECT_MILLISECONDS}\n\n".encode()
    silence, token = Silence(loop), TokenClock(loop)
    async with player_wakeups(viewer.user_id) as wakeup:
        while True:
            try:
                await token_check(viewer.token_id, token)
            except SignedOut:
                return
            page = await _read(viewer.user_id, after, STREAM_BATCH)
            if page.notices:
                yield b"".join(sse_event(notice) for notice in page.notices)
                after = page.last_seq
                silence.broken()
            if page.has_more:
                continue
            if silence.left() <= 0:
                yield Silence.FRAME
                silence.broken()
            else:
                await wakeup.wait(silence.left())
