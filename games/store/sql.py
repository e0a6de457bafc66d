"""Plain SQL's parameters and column values, the same on PostgreSQL and SQLite.

The hot reads and the append talk to `django.db.connection.cursor()` directly. A
parameter goes through the matching Django field's `get_db_prep_value`, so it is stored
exactly as the ORM would store it (a UUID natively on PostgreSQL, as 32 hex digits on
SQLite; JSON through psycopg's `Jsonb` or as text); a column comes back the way both
backends hand it to plain SQL.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from django.db import connection, models
from django.utils import timezone

_UUID = models.UUIDField()
_JSON = models.JSONField()
_DATETIME = models.DateTimeField()


def uuid_param(value: UUID | str) -> Any:
    """`value` as this database stores a UUID (a malformed id: ValidationError)."""
    return _UUID.get_db_prep_value(value, connection)


def json_param(value: object) -> Any:
    return _JSON.get_db_prep_value(value, connection)


def datetime_param(value: datetime) -> Any:
    return _DATETIME.get_db_prep_value(value, connection)


def json_column(text: str) -> Any:
    """A JSON column's value: Django has both backends hand it to plain SQL as text."""
    return json.loads(text)


def datetime_column(value: datetime) -> datetime:
    """A datetime column's value, aware: SQLite's comes back naive, and is kept in UTC."""
    return value if timezone.is_aware(value) else value.replace(tzinfo=UTC)
