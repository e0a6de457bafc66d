"""Commit-reveal (docs/fairness.md): a table commits to its hand secrets when it is
created, and each seat contributes a client seed. Tables from before keep empty values:
their deals stay drawn by the service alone, as they were."""

from django.db import migrations, models


def _hex_column():
    return models.CharField(default="", editable=False, max_length=64)


class Migration(migrations.Migration):
    dependencies = [("games", "0008_event_hash_chain")]
    operations = [
        migrations.AddField("game", "hand_secrets", _hex_column()),
        migrations.AddField("game", "secret_chain", _hex_column()),
        migrations.AddField(
            "seat", "client_seed", models.CharField(blank=True, default="", max_length=64)
        ),
    ]
