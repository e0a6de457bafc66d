"""Bots play through the same path as people: a task per bot turn, queued after commit.

The task carries the version it was scheduled at; `bot_play` does nothing if the game
has moved on, so redelivered or duplicate tasks are harmless.
"""

from __future__ import annotations

from django.db import transaction

from games.models import Game, GameStatus, Seat


def schedule_bot_turn(game: Game, version: int) -> None:
    """After commit, queue the bot whose turn it is at `version` (if a bot's turn)."""
    if game.status != GameStatus.PLAYING or game.turn is None:
        return
    if not Seat.objects.filter(game=game, seat=game.turn, bot_level__isnull=False).exists():
        return
    game_id = str(game.id)

    def enqueue() -> None:
        from games.tasks import play_bot_turn  # noqa: PLC0415 (tasks import the services)

        play_bot_turn.delay(game_id, version)

    # robust: the action is committed whatever the broker says; a failure is logged.
    transaction.on_commit(enqueue, robust=True)
