"""Plain SQL's parameters and column values, the same on PostgreSQL and SQLite.

The hot reads talk to `django.db.connection.cursor()` directly. A UUID parameter goes
through Django's `UUIDField.get_db_prep_value`, so it matches what the ORM stored
(natively on PostgreSQL, as 32 hex digits on SQLite); a column comes back the way both
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


def uuid_param(value: UUID | str) -> Any:
    """`value` as this database stores a UUID (a malformed id: ValidationError)."""
    return _UUID.get_db_prep_value(value, connection)


def json_column(text: str) -> Any:
    """A JSON column's value: Django has both backends hand it to plain SQL as text."""
    return json.loads(text)


def datetime_column(value: datetime) -> datetime:
    """A datetime column's value, aware: SQLite's comes back naive, and is kept in UTC."""
    return value if timezone.is_aware(value) else value.replace(tzinfo=UTC)
