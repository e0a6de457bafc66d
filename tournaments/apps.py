"""The tournaments app: listens for finished games and documents its players' notices
(games knows nothing of tournaments)."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # games sends `game_finished` after the commit that ends a game; it cannot import
        # tournaments (pyproject.toml's contracts), so tournaments listens.
        from games.signals import game_finished  # noqa: PLC0415 (apps are loaded)
        from tournaments.services.results import on_game_finished  # noqa: PLC0415

        game_finished.connect(on_game_finished, dispatch_uid="tournaments-game-finished")
        # The progress notices a player finds in /me/events, documented in its schema.
        from tournaments.api.notices import notices_documented  # noqa: PLC0415

        notices_documented()
