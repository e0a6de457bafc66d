"""Every event carries its link of the hash chain (docs/audit.md); existing games are
chained here, from their first event, as append would have chained them.

The append-only trigger refuses the backfill's UPDATE: it is disabled for this
transaction's statements and enabled again before the migration commits.
"""

from django.db import migrations, models

from games.audit.chain import GENESIS, link

TRIGGER = "games_gameevent_no_update_delete"


def _set_trigger(schema_editor, enabled):
    if schema_editor.connection.vendor == "postgresql":
        action = "ENABLE" if enabled else "DISABLE"
        schema_editor.execute(f"ALTER TABLE games_gameevent {action} TRIGGER {TRIGGER}")


def chain_existing_events(apps, schema_editor):
    event_model = apps.get_model("games", "GameEvent")
    _set_trigger(schema_editor, enabled=False)
    game_id, previous = None, GENESIS
    rows = event_model.objects.order_by("game_id", "seq").only(
        "id", "game_id", "seq", "type", "schema_version", "payload"
    )
    for event in rows.iterator(chunk_size=2000):
        if event.game_id != game_id:
            game_id, previous = event.game_id, GENESIS
        previous = link(previous, event.seq, event.type, event.schema_version, event.payload)
        event_model.objects.filter(pk=event.pk).update(hash=previous)
    _set_trigger(schema_editor, enabled=True)


#: empty for a writer of the release before, during a rolling deploy (games/models.py)
HASH = models.CharField(db_default="", max_length=64)


class Migration(migrations.Migration):
    dependencies = [("games", "0007_player_notices")]
    operations = [
        migrations.AddField("gameevent", "hash", HASH),
        migrations.RunPython(chain_existing_events, migrations.RunPython.noop),
    ]
