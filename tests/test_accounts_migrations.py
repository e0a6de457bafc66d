"""accounts/migrations/0002: existing accounts get their canonical username, and where
two already shared one, the oldest keeps its name and the later one is renamed."""

from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("accounts", "0001_initial")]
AFTER = [("accounts", "0002_canonical_username")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture(autouse=True)
def _latest_schema_after() -> Iterator[None]:
    """Leave the database at the latest migrations, which the other tests of this
    process expect (accounts has migrations after 0002)."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_the_migration_fills_canonical_usernames_and_renames_later_look_alikes(capsys):
    old = _migrate(BEFORE)
    User = old.get_model("accounts", "User")
    # lower() told these apart, so the old constraint let both in.
    first = User.objects.create(username="Stra\N{LATIN SMALL LETTER SHARP S}e", password="x")
    second = User.objects.create(username="STRASSE", password="x")
    other = User.objects.create(username="Carol", password="x")

    new = _migrate(AFTER)

    rows = dict(new.get_model("accounts", "User").objects.values_list("pk", "username"))
    canonical = dict(
        new.get_model("accounts", "User").objects.values_list("pk", "canonical_username")
    )
    assert rows == {
        first.pk: "Stra\N{LATIN SMALL LETTER SHARP S}e",
        second.pk: f"STRASSE#{second.pk}",
        other.pk: "Carol",
    }
    assert canonical == {
        first.pk: "strasse",
        second.pk: f"strasse#{second.pk}",
        other.pk: "carol",
    }
    assert f"'STRASSE' renamed 'STRASSE#{second.pk}'" in capsys.readouterr().out
