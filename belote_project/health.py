"""Reachability checks behind /healthz."""

from django.db import connection

from belote_project.celery import app as celery_app

BROKER_TIMEOUT_SECONDS = 2


def database_error() -> str | None:
    """None when a query succeeds, else why it did not."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as error:  # any failure means "unreachable"
        return f"{type(error).__name__}: {error}"
    return None


def broker_error() -> str | None:
    """None when the Celery broker accepts a connection, else why it did not."""
    try:
        with celery_app.connection_for_write() as broker:
            broker.ensure_connection(max_retries=1, timeout=BROKER_TIMEOUT_SECONDS)
    except Exception as error:  # any failure means "unreachable"
        return f"{type(error).__name__}: {error}"
    return None
