"""The games app: tables, seats, event-sourced games, bots and the live feed."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Here, not in accounts: accounts knows nothing of games (pyproject.toml's
        # import contracts), so the games let go of a deleted account themselves.
        from accounts.signals import account_deleting  # noqa: PLC0415 (apps are loaded)
        from games.services.departures import on_account_deleting  # noqa: PLC0415

        account_deleting.connect(on_account_deleting, dispatch_uid="games-seats-release")
