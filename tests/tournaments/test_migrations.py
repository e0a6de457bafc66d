"""tournaments/migrations/0003: tournaments still in registration without a turn clock get
the default one; started ones and ones with a clock keep their options."""

import pytest

from accounts.models import User
from tests.migrations import latest_schema_after, migrate

# (the fixture, imported here so that this module may use it)
__all__ = ["latest_schema_after"]

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("latest_schema_after"),
]

BEFORE = [("tournaments", "0002_duplicate_boards")]
AFTER = [("tournaments", "0003_tournaments_always_timed")]


def test_untimed_tournaments_in_registration_get_the_default_clock():
    # accounts stay at their latest migration: the current model makes the user
    organiser = User.objects.create_user(username="org", password="x" * 12)
    old = migrate(BEFORE)
    tournament_model = old.get_model("tournaments", "Tournament")

    def made(status, options):
        return tournament_model.objects.create(
            name=status,
            format="swiss",
            organiser_id=organiser.pk,
            options=options,
            status=status,
            draw_seed="0" * 64,
        ).pk

    untimed = made("registration", {"target": 1, "turn_seconds": None})
    timed = made("registration", {"target": 1, "turn_seconds": 20})
    running = made("running", {"target": 1, "turn_seconds": None})

    new = migrate(AFTER)

    options = dict(new.get_model("tournaments", "Tournament").objects.values_list("pk", "options"))
    assert options == {
        untimed: {"target": 1, "turn_seconds": 60},
        timed: {"target": 1, "turn_seconds": 20},
        running: {"target": 1, "turn_seconds": None},
    }
