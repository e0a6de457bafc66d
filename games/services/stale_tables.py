"""Tables that never fill: closed once nobody has sat down for a while (docs/clocks.md).

A table waiting for players is closed when it is older than `WAITING_TABLE_HOURS` and
no seat was taken in that time: a `table_closed` event (reason `never_filled`) is
appended at version 0, so the table is over (`finished`, no winner) by the same path as
any game, and its players are told (`table_closed` in their own feed). A periodic task
runs it; the claim skips tables a join holds (`SELECT ... FOR UPDATE SKIP LOCKED`), and
the fourth seat starting the game first makes the close a lost race that appends nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games import rules, selectors, store
from games.errors import VersionConflictError
from games.models import Game, GameStatus, Seat
from games.services.play import commit

NEVER_FILLED = "never_filled"
#: tables one run closes at most; the rest wait for the next run
CLOSE_LIMIT = 100


def stale_tables_close(*, now: datetime | None = None, limit: int = CLOSE_LIMIT) -> int:
    """Close the tables nobody has joined for `WAITING_TABLE_HOURS`; how many."""
    now = timezone.now() if now is None else now
    quiet_since = now - timedelta(hours=settings.WAITING_TABLE_HOURS)
    joined_lately = Seat.objects.filter(game=OuterRef("pk"), joined_at__gte=quiet_since)
    closed = 0
    with transaction.atomic():
        stale = (
            Game.objects.filter(status=GameStatus.WAITING, created_at__lt=quiet_since)
            .exclude(Exists(joined_lately))
            .order_by("created_at")
        )
        if connection.vendor == "postgresql":
            stale = stale.select_for_update(skip_locked=True)
        for game_id in list(stale.values_list("id", flat=True)[:limit]):
            closed += table_close(game_id=game_id, now=now)
    return closed


def table_close(*, game_id: UUID, now: datetime) -> bool:
    """Close the table `game_id` if it still waits for players; False if it started."""
    table = selectors.game_table(game_id)
    if table.status != GameStatus.WAITING or table.version != 0:
        return False
    waiting = store.LoadedGame(state=rules.new_game(), version=0)
    events = rules.decide(waiting.state, rules.CloseTable(NEVER_FILLED))
    try:
        commit(table, None, waiting, events, actor=store.Actor.system(), moved=False, now=now)
    except VersionConflictError:
        return False
    return True
