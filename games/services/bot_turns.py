"""Bots play through the same path as people: a task per bot turn, queued after commit.

The task carries the version it was scheduled at; `bot_play` does nothing if the game
has moved on, so redelivered or duplicate tasks are harmless.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from uuid import UUID

from celery import current_app
from django.db import models, transaction
from django.utils import timezone

from games import rules, selectors, store
from games.audit import seeds
from games.models import BotLevel, Game, GameStatus, Seat

#: The Celery task that plays one bot turn (games/tasks.py).
PLAY_BOT_TURN_TASK = "games.tasks.play_bot_turn"
# Longer than a bot's slowest decision plus the queue's usual delay, so a sweep never
# races a task that is merely running; short enough that a player barely notices.
STALLED_AFTER = timedelta(seconds=20)


def schedule_bot_turn(
    game_id: UUID, progress: store.Progress, *, seats: Sequence[selectors.SeatRow] | None = None
) -> None:
    """After commit, queue the bot whose turn it is at `progress` (if a bot's turn).

    `seats`: the table's seats as the caller read them for this version, which saves a
    query (once the game has started, only `seat_absent` and `seat_returned` change them).
    """
    turn = progress.summary.turn
    if progress.summary.status != GameStatus.PLAYING or turn is None:
        return
    if seats is None:
        bot_turn = Seat.objects.filter(game_id=game_id, seat=turn, bot_level__isnull=False)
        if not bot_turn.exists():
            return
    elif not any(row.seat == turn and row.bot_level for row in seats):
        return
    version = progress.version

    def enqueue() -> None:
        # By name: the tasks module imports the services, not the other way round.
        current_app.send_task(PLAY_BOT_TURN_TASK, args=(str(game_id), version))

    # robust: the action is committed whatever the broker says; a failure is logged.
    transaction.on_commit(enqueue, robust=True)


#: the level of the bot that plays for an absent player (docs/clocks.md)
ABSENT_SEAT_LEVEL = BotLevel(seeds.ABSENT_SEAT_LEVEL)


def seats_follow_absence(
    game_id: UUID, seats: Sequence[selectors.SeatRow], state: rules.GameState
) -> tuple[selectors.SeatRow, ...]:
    """Give the bot level to the player's seats `state` has absent, and take it back from
    those it has not; the seats as they now are. The bot tasks and the stalled-turn sweep
    then find an absent player's turns like any bot's."""
    followed = []
    for row in seats:
        level = ABSENT_SEAT_LEVEL.value if state.absent[row.seat] else None
        if row.user_id is None or row.bot_level == level:
            followed.append(row)
            continue
        Seat.objects.filter(game_id=game_id, seat=row.seat).update(bot_level=level)
        followed.append(replace(row, bot_level=level))
    return tuple(followed)


def stalled_bot_turns(*, older_than: timedelta = STALLED_AFTER) -> list[tuple[str, int]]:
    """Games waiting on a bot whose task never ran (broker down at commit, worker killed).

    Returns `(game id, version)` pairs; queueing them again is harmless because a bot
    task does nothing once its game has moved past the version it carries.
    """
    bot_turn = Seat.objects.filter(
        game=models.OuterRef("pk"), seat=models.OuterRef("turn"), bot_level__isnull=False
    )
    stalled = Game.objects.filter(
        status=GameStatus.PLAYING,
        updated_at__lt=timezone.now() - older_than,
    ).filter(models.Exists(bot_turn))
    return [(str(game_id), version) for game_id, version in stalled.values_list("id", "version")]
