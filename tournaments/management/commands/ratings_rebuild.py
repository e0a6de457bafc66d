"""`manage.py ratings_rebuild`: recompute every rating from the rated games."""

from typing import Any

from django.core.management.base import BaseCommand

from tournaments import services


class Command(BaseCommand):
    help = "Recompute every player's rating from the rated games, in the order they were rated."

    def handle(self, *args: Any, **options: Any) -> None:
        count = services.ratings_rebuild()
        self.stdout.write(f"ratings rebuilt from {count} rated games")
