"""`manage.py rebuild_read_model [GAME_ID ...]`: recompute games' cached columns from
their events (all games when none is named), the turn clock included."""

from typing import Any
from uuid import UUID

from django.core.management.base import BaseCommand, CommandParser

from games import services
from games.models import Game


class Command(BaseCommand):
    help = "Recompute the cached columns of games (all, or those named) from their events."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=UUID, help="Only these games.")

    def handle(self, *args: Any, **options: Any) -> None:
        games = options["game_ids"] or Game.objects.values_list("id", flat=True).iterator()
        rebuilt = 0
        for game_id in games:
            services.read_model_rebuild(game_id=game_id)
            rebuilt += 1
        self.stdout.write(f"rebuilt {rebuilt} games")
