"""The events table is append-only: a trigger refuses UPDATE, DELETE and TRUNCATE.

PostgreSQL only. SQLite (embedded development) keeps no trigger: its `flush`
empties tables with DELETE, which a trigger would break, and nothing there is
production data.

TRUNCATE is let through only when the session has set `belote.allow_truncate`
to `on`: the test suite's flush between transactional tests does that, no
application code does.
"""

from django.db import migrations

INSTALL = """
CREATE OR REPLACE FUNCTION games_gameevent_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE'
       AND coalesce(current_setting('belote.allow_truncate', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'games_gameevent is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER games_gameevent_no_update_delete
    BEFORE UPDATE OR DELETE ON games_gameevent
    FOR EACH ROW EXECUTE FUNCTION games_gameevent_append_only();
CREATE TRIGGER games_gameevent_no_truncate
    BEFORE TRUNCATE ON games_gameevent
    FOR EACH STATEMENT EXECUTE FUNCTION games_gameevent_append_only();
"""

REMOVE = """
DROP TRIGGER IF EXISTS games_gameevent_no_truncate ON games_gameevent;
DROP TRIGGER IF EXISTS games_gameevent_no_update_delete ON games_gameevent;
DROP FUNCTION IF EXISTS games_gameevent_append_only();
"""


def _on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, None)

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [
        migrations.RunPython(_on_postgresql(INSTALL), _on_postgresql(REMOVE)),
    ]
