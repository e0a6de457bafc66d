"""Expiry: the sweeper plays the due turns for their seats, exactly once (docs/clocks.md).

A turn whose `turn_deadline` passed more than `GRACE` ago is due. The sweeper claims due
games with `SELECT ... FOR UPDATE SKIP LOCKED` on PostgreSQL, so two sweepers never take
the same game (SQLite has one writer at a time: a plain select). Each timeout is an
append at the version the claim read: a move that landed first moved the game on, and
the timeout does nothing. No ETA task is involved: the deadline is a column, the sweep
a periodic task, so neither a redelivered nor a lost message can skip or double one.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from django.db import connection, transaction
from django.utils import timezone

from games import rules, selectors, store
from games.audit import seeds
from games.audit.seeds import bot_seed
from games.errors import VersionConflictError
from games.models import BotLevel, Game, GameStatus
from games.services.clocks import GRACE
from games.services.deals import decide_move
from games.services.play import commit

#: the bot whose choice is played for a player whose time ran out
TIMEOUT_LEVEL = BotLevel(seeds.TIMEOUT_LEVEL)
#: games one sweep expires at most: a backlog is worked off over a few ticks, and the
#: sweep's transaction (which holds the claims) stays short
SWEEP_LIMIT = 100


def due_turns_expire(*, now: datetime | None = None, limit: int = SWEEP_LIMIT) -> int:
    """Play every turn due at `now` (default: the current time) for its seat; how many."""
    now = timezone.now() if now is None else now
    expired = 0
    with transaction.atomic():
        due = Game.objects.filter(
            status=GameStatus.PLAYING, turn_deadline__lte=now - GRACE
        ).order_by("turn_deadline")
        if connection.vendor == "postgresql":
            due = due.select_for_update(skip_locked=True)
        for game_id, version in list(due.values_list("id", "version")[:limit]):
            expired += turn_time_out(game_id=game_id, expected_version=version, now=now)
    return expired


def turn_time_out(*, game_id: UUID, expected_version: int, now: datetime) -> bool:
    """Play the `basic` bot's choice for the seat whose turn, at `expected_version`, is due
    at `now`: a timeout (actor `system`). False, appending nothing, if the game moved on
    or its turn is not due."""
    table = selectors.game_table(game_id)
    deadline, seat = table.turn_deadline, table.turn
    if table.version != expected_version or deadline is None or seat is None:
        return False
    if deadline > now - GRACE:
        return False
    loaded = store.load(table.id)
    if loaded.version != expected_version or loaded.state.absent[seat]:
        return False
    from games.bots import choose_action  # noqa: PLC0415 (bots are optional to the API)

    seed = bot_seed(bytes.fromhex(loaded.state.hand_seed), expected_version, seat)
    wire = choose_action(rules.view(loaded.state, seat), seed, TIMEOUT_LEVEL)
    move = rules.parse_action(wire)
    events = decide_move(loaded.state, seat, move, table.hand_secrets, timed_out=True)
    try:
        commit(table, seat, loaded, events, actor=store.Actor.system(), now=now)
    except VersionConflictError:
        return False
    return True
