"""One case-folding rule for usernames (accounts/usernames.py), kept in a UNIQUE column.

Existing accounts get their canonical form. Where two already share one (names the old
rule, `lower()`, told apart: `Straße` and `STRASSE`), the oldest account keeps its name
and each later one is renamed `<name>#<id>`: `#` is refused at registration, so the new
name is free and cannot be taken, and the account can still log in under it. The
migration prints every rename for the operator to tell the players concerned.
"""

from django.db import migrations, models

from accounts.usernames import canonical_username


def fill_canonical_usernames(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    taken = set()
    for user in User.objects.order_by("pk").only("pk", "username"):
        canonical = canonical_username(user.username)
        if canonical in taken:
            renamed = f"{user.username}#{user.pk}"
            print(f"\n  accounts: user {user.pk} {user.username!r} renamed {renamed!r}")
            user.username, canonical = renamed, canonical_username(renamed)
        taken.add(canonical)
        user.canonical_username = canonical
        user.save(update_fields=["username", "canonical_username"])


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="canonical_username",
            field=models.CharField(default="", editable=False, max_length=150),
            preserve_default=False,
        ),
        migrations.RunPython(fill_canonical_usernames, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="user", name="accounts_user_username_ci_unique"),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(
                fields=["canonical_username"], name="accounts_user_canonical_username_unique"
            ),
        ),
    ]
