"""Housekeeping that keeps caches and records bounded, and rebuilds the read model."""

from datetime import timedelta
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from games import selectors, store
from games.models import Game, IdempotencyRecord
from games.services.clocks import clock_replayed

# A client retries within minutes; a day covers apps that were offline overnight.
IDEMPOTENCY_RETENTION = timedelta(days=1)


def idempotency_records_purge(*, older_than: timedelta = IDEMPOTENCY_RETENTION) -> int:
    """Delete stored answers older than `older_than`; their keys become usable again."""
    deleted, _ = IdempotencyRecord.objects.filter(
        created_at__lt=timezone.now() - older_than
    ).delete()
    return deleted


@transaction.atomic
def read_model_rebuild(*, game_id: UUID) -> None:
    """Recompute every cached column of the game's row from its events: the rules'
    summary (`store.rebuild_read_model`) and the turn clock (`clock_replayed`)."""
    store.rebuild_read_model(game_id)
    options = selectors.game_table(game_id).options
    clock = clock_replayed(options, store.load_events_after(game_id, 0))
    Game.objects.filter(pk=game_id).update(**clock.columns())
