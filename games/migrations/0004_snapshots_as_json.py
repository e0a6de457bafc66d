"""Snapshots become JSON (games/store/snapshots.py) instead of pickles, and the unused
`Game.game_seed` column goes (the seed is in the `game_started` event).

Snapshots are a cache: the old pickled rows are dropped, not converted, and are rebuilt
as games are played.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0003_idempotency_response_headers")]

    operations = [
        migrations.RunSQL("DELETE FROM games_gamesnapshot", migrations.RunSQL.noop),
        migrations.RemoveField(model_name="gamesnapshot", name="state"),
        migrations.AddField(
            model_name="gamesnapshot",
            name="state",
            field=models.JSONField(default=dict),
            preserve_default=False,
        ),
        migrations.RemoveField(model_name="game", name="game_seed"),
    ]
