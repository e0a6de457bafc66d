"""Celery tasks: thin and idempotent; each carries the game or the round it acts on."""

from uuid import UUID

from celery import shared_task

from tournaments import services


@shared_task(ignore_result=True)
def record_game_result(game_id: str) -> bool:
    """A tournament game ended: record its result (a no-op once recorded)."""
    return services.game_result_record(UUID(game_id))


@shared_task(ignore_result=True)
def close_round(tournament_id: str, number: int) -> bool:
    """Close round `number` and open the next (a no-op unless it is the round being
    played and all its results are in)."""
    return services.round_close(UUID(tournament_id), number)


@shared_task(ignore_result=True)
def sweep_unrecorded_games() -> int:
    """Periodic (celery beat): results and round closes whose task was lost."""
    return services.unrecorded_games_sweep()


@shared_task(ignore_result=True)
def start_due_tournaments() -> int:
    """Periodic (celery beat): start the tournaments whose registration has closed."""
    return services.due_tournaments_start()
