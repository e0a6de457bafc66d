"""Duplicate boards (docs/fairness.md, "Boards"): a board's log stays unpublished after
its end until the board's owner releases the deal. Every existing game is unsealed."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0009_commit_reveal_seeds")]
    operations = [migrations.AddField("game", "deal_sealed", models.BooleanField(default=False))]
