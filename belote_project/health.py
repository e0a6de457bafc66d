"""Reachability checks behind /healthz, and who may read why one failed.

Why a check failed (an exception's text: hosts, ports, database names) is for the logs
and for staff; anyone else learns only which checks failed, by name.
"""

import logging

from django.db import DatabaseError, connection
from rest_framework.exceptions import APIException
from rest_framework.request import Request

from belote_project.celery import app as celery_app

BROKER_TIMEOUT_SECONDS = 2

logger = logging.getLogger(__name__)


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


#: Each check by the name /healthz reports it under.
CHECKS = {"database": database_error, "broker": broker_error}


def failed_checks() -> dict[str, str]:
    """Every check that failed, with why; each failure is logged."""
    failures = {}
    for name, check in CHECKS.items():
        error = check()
        if error is not None:
            logger.error("health check %s failed: %s", name, error)
            failures[name] = error
    return failures


def caller_is_staff(request: Request) -> bool:
    """Whether an active staff user sent this request (by bearer token or session).

    The view authenticates lazily, here: a bad token or an unreachable database (where
    tokens and sessions live) leaves the caller anonymous instead of failing the check.
    """
    try:
        user = request.user
    except (APIException, DatabaseError):
        return False
    return bool(user.is_active and user.is_staff)
