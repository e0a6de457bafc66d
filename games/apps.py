"""The games app: tables, seats, event-sourced games, bots and the live feed."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"
