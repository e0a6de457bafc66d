"""Celery tasks: thin and idempotent; each carries the version it was scheduled at."""

from uuid import UUID

from celery import shared_task
from django.utils import timezone

from games import services
from games.services.bot_turns import PLAY_BOT_TURN_TASK, stalled_bot_turns
from games.services.clocks import EXPIRE_TURN_TASK


@shared_task(name=PLAY_BOT_TURN_TASK, ignore_result=True)
def play_bot_turn(game_id: str, expected_version: int) -> bool:
    """Let the bot whose turn it is at `expected_version` act; a no-op if the game moved on."""
    return services.bot_play(game_id=UUID(game_id), expected_version=expected_version)


@shared_task(ignore_result=True)
def purge_idempotency_records() -> int:
    """Periodic (celery beat): forget Idempotency-Key answers past their retention."""
    return services.idempotency_records_purge()


@shared_task(ignore_result=True)
def requeue_stalled_bot_turns() -> int:
    """Periodic (celery beat): queue again the bot turns whose task was lost."""
    stalled = stalled_bot_turns()
    for game_id, version in stalled:
        play_bot_turn.delay(game_id, version)
    return len(stalled)


@shared_task(name=EXPIRE_TURN_TASK, ignore_result=True)
def expire_turn(game_id: str, expected_version: int) -> bool:
    """The hint of one turn's deadline: time it out if it is due and the game has not
    moved past `expected_version` (a no-op otherwise; the sweeper is the guarantee)."""
    return services.turn_time_out(
        game_id=UUID(game_id), expected_version=expected_version, now=timezone.now()
    )


@shared_task(ignore_result=True)
def expire_due_turns() -> int:
    """Periodic (celery beat): play the turns whose clock ran out (docs/clocks.md)."""
    return services.due_turns_expire()


@shared_task(ignore_result=True)
def close_stale_tables() -> int:
    """Periodic (celery beat): close the tables nobody filled in time (docs/clocks.md)."""
    return services.stale_tables_close()
