"""Fixtures for the games tests.

The events table refuses TRUNCATE (docs/storage.md) unless the session sets
`belote.allow_truncate`; transactional tests end with Django's flush, which
truncates every table, so those tests set it on their connection just before.
"""

from collections.abc import Iterator

import pytest
from django.db import connection


def _is_transactional(request: pytest.FixtureRequest) -> bool:
    marker = request.node.get_closest_marker("django_db")
    if marker is not None and marker.kwargs.get("transaction"):
        return True
    return "transactional_db" in request.fixturenames


@pytest.fixture(autouse=True)
def _events_truncatable_by_flush(request: pytest.FixtureRequest) -> Iterator[None]:
    # Set up after pytest-django's database fixture, so this teardown runs before its flush.
    yield
    if _is_transactional(request) and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET belote.allow_truncate = 'on'")
