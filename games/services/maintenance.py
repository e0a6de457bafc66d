"""Housekeeping that keeps caches and records bounded."""

from datetime import timedelta

from django.utils import timezone

from games.models import IdempotencyRecord

# A client retries within minutes; a day covers apps that were offline overnight.
IDEMPOTENCY_RETENTION = timedelta(days=1)


def idempotency_records_purge(*, older_than: timedelta = IDEMPOTENCY_RETENTION) -> int:
    """Delete stored answers older than `older_than`; their keys become usable again."""
    deleted, _ = IdempotencyRecord.objects.filter(
        created_at__lt=timezone.now() - older_than
    ).delete()
    return deleted
