"""The periodic tasks Celery beat runs (settings.CELERY_BEAT_SCHEDULE): one beat process
runs them (`worker --beat` locally, `scheduler` in compose). Each is idempotent, so a
late or doubled run is harmless."""

from typing import Any

BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "requeue-stalled-bot-turns": {
        "task": "games.tasks.requeue_stalled_bot_turns",
        "schedule": 15.0,
    },
    # The turn clocks' sweeper: a timeout lands at most this period after its grace.
    "expire-due-turns": {
        "task": "games.tasks.expire_due_turns",
        "schedule": 1.0,
    },
    "close-stale-tables": {
        "task": "games.tasks.close_stale_tables",
        "schedule": 300.0,
    },
    # A safety net: results and round closes are queued on commit; this finds lost ones.
    "sweep-unrecorded-tournament-games": {
        "task": "tournaments.tasks.sweep_unrecorded_games",
        "schedule": 30.0,
    },
    # A tournament starts by itself once its registration closes (docs/tournaments.md).
    "start-due-tournaments": {
        "task": "tournaments.tasks.start_due_tournaments",
        "schedule": 30.0,
    },
    "purge-idempotency-records": {
        "task": "games.tasks.purge_idempotency_records",
        "schedule": 3600.0,
    },
}
