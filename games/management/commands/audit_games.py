"""`manage.py audit_games`: run the verifier (docs/audit.md) over many stored games.

Prints each game that fails, with its first discrepancy, then a summary; exits 1 if any
game failed. A progress line on stderr counts the games (it is a single line rewritten
in place: not worth a dependency).
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any
from uuid import UUID

from django.core.management.base import BaseCommand, CommandError, CommandParser, OutputWrapper
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.timezone import make_aware

from games import selectors
from games.errors import GameNotFoundError
from games.models import Game, GameStatus

BAR_WIDTH = 30


def _since(text: str) -> datetime:
    moment = parse_datetime(text)
    if moment is None:
        day = parse_date(text)
        if day is None:
            raise ValueError(text)
        moment = datetime(day.year, day.month, day.day)
    return moment if moment.tzinfo else make_aware(moment)


class Progress:
    """`[#####     ] 120/1000 games, 3 failed` on a stream, redrawn in place."""

    def __init__(self, total: int, stream: OutputWrapper) -> None:
        self.total, self.stream, self.shown = total, stream, -1.0

    def show(self, done: int, failed: int, *, last: bool = False) -> None:
        share = done / self.total if self.total else 1.0
        if not last and share - self.shown < 0.01:  # a redraw per percent at most
            return
        self.shown = share
        filled = round(share * BAR_WIDTH)
        bar = "#" * filled + " " * (BAR_WIDTH - filled)
        end = "\n" if last else ""
        self.stream.write(f"\r[{bar}] {done}/{self.total} games, {failed} failed{end}", ending="")
        self.stream.flush()


class Command(BaseCommand):
    help = "Audit stored games: hash chain, deals, every move by the rules (docs/audit.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", action="append", type=UUID, default=[], help="a game id")
        parser.add_argument("--finished", action="store_true", help="only finished games")
        parser.add_argument(
            "--since", type=_since, help="only games created since (ISO date or date-time)"
        )
        parser.add_argument("--limit", type=int, help="at most this many games, newest first")
        parser.add_argument("--bots", action="store_true", help="re-derive bot moves too")
        parser.add_argument("--no-progress", action="store_true", help="no progress line")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.order_by("-created_at", "-id")
        if options["game"]:
            games = games.filter(pk__in=options["game"])
        if options["finished"]:
            games = games.filter(status=GameStatus.FINISHED)
        if options["since"] is not None:
            games = games.filter(created_at__gte=options["since"])
        ids = list(games.values_list("id", flat=True)[: options["limit"]])
        progress = None if options["no_progress"] else Progress(len(ids), self.stderr)
        failed, start = 0, time.perf_counter()
        for done, game_id in enumerate(ids, start=1):
            try:
                report = selectors.stored_audit(selectors.game_table(game_id), bots=options["bots"])
            except GameNotFoundError:  # deleted since the list was read
                continue
            found = report.discrepancy
            if found is not None:
                failed += 1
                self.stdout.write(f"game {game_id}: invalid at seq {found.seq}: {found.what}")
            if progress is not None:
                progress.show(done, failed, last=done == len(ids))
        spent = time.perf_counter() - start
        rate = len(ids) / spent if spent else 0.0
        self.stdout.write(
            f"audited {len(ids)} games in {spent:.1f} s ({rate:.0f} games/s): "
            f"{len(ids) - failed} valid, {failed} invalid"
        )
        if failed:
            raise CommandError(f"{failed} of {len(ids)} games failed their audit", returncode=1)
