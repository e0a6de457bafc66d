"""Moving the test database between migrations, for the tests of a data migration."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(targets: list[tuple[str, str]]) -> Any:
    """Migrate to `targets`; the historical apps there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def latest_schema_after() -> Iterator[None]:
    """Leave the database at the latest migrations, which the other tests expect."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
