"""Tournaments still in registration without a turn clock get the default one: a
tournament's games always carry a clock now (docs/tournaments.md, "No-shows")."""

from typing import Any

from django.db import migrations

# The value of tournaments.services.registration.DEFAULT_TURN_SECONDS when this was written:
# a migration keeps its own copy, so that changing the default later rewrites nothing.
DEFAULT_TURN_SECONDS = 60


def give_a_clock(apps: Any, schema_editor: Any) -> None:
    tournament_model = apps.get_model("tournaments", "Tournament")
    for tournament in tournament_model.objects.filter(status="registration"):
        if tournament.options.get("turn_seconds") is None:
            tournament.options = {**tournament.options, "turn_seconds": DEFAULT_TURN_SECONDS}
            tournament.save(update_fields=["options"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0002_duplicate_boards")]

    operations = [migrations.RunPython(give_a_clock, migrations.RunPython.noop)]
