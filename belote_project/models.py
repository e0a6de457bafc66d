"""The diagnostics tables: what the worker writes to prove it reaches the database."""

from django.db import models


class WorkerHeartbeat(models.Model):
    """Written by the ``ping`` task, so a round trip proves the worker reaches our database."""

    token = models.CharField(max_length=64, unique=True)
    worker = models.CharField(max_length=255)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.token} by {self.worker}"
