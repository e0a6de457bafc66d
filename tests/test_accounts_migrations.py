"""accounts/migrations/0002: existing accounts get their canonical username, and where
two already shared one, the oldest keeps its name and the later one is renamed."""

import pytest

from tests.migrations import latest_schema_after, migrate

# (the fixture, imported here so that this module may use it)
__all__ = ["latest_schema_after"]

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("latest_schema_after"),
]

BEFORE = [("accounts", "0001_initial")]
AFTER = [("accounts", "0002_canonical_username")]


def test_the_migration_fills_canonical_usernames_and_renames_later_look_alikes(capsys):
    old = migrate(BEFORE)
    User = old.get_model("accounts", "User")
    # lower() told these apart, so the old constraint let both in.
    first = User.objects.create(username="Stra\N{LATIN SMALL LETTER SHARP S}e", password="x")
    second = User.objects.create(username="STRASSE", password="x")
    other = User.objects.create(username="Carol", password="x")

    new = migrate(AFTER)

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
