"""Diagnostic tasks: proof that a worker is consuming the broker and can use the database."""

import socket

from celery import shared_task

from belote_project.models import WorkerHeartbeat


@shared_task(name="diagnostics.ping")
def ping(token: str) -> dict[str, str]:
    """Record a heartbeat for ``token`` (idempotent) and return what the database holds."""
    heartbeat, _created = WorkerHeartbeat.objects.get_or_create(
        token=token, defaults={"worker": socket.gethostname()}
    )
    stored = WorkerHeartbeat.objects.get(pk=heartbeat.pk)
    return {"token": stored.token, "worker": stored.worker}
