"""Lists of tables, from the read model alone: no event is read."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q, QuerySet

from accounts.models import User
from games.models import Game, GameStatus, Seat
from games.selectors.table import SeatRow
from games.selectors.views import SEAT_COUNT, deadline_text, seats_summary


def game_list(
    *,
    user: User,
    open_seats: bool = False,
    mine: bool = False,
    status: str | None = None,
) -> QuerySet[Game]:
    games = Game.objects.all()
    if status is not None:
        games = games.filter(status=status)
    if open_seats:
        games = games.annotate(taken=Count("seats")).filter(
            status=GameStatus.WAITING, taken__lt=SEAT_COUNT
        )
    if mine:
        seated = Seat.objects.filter(user=user).values("game_id")
        games = games.filter(Q(created_by=user) | Q(pk__in=seated))
    return games.select_related("created_by").prefetch_related("seats__user")


def game_summary(game: Game) -> dict[str, Any]:
    """A row of the table list."""
    seats = (
        SeatRow(
            seat=row.seat,
            user_id=row.user_id,
            username=row.user.get_username() if row.user else None,
            bot_level=row.bot_level,
        )
        for row in game.seats.all()
    )
    return {
        "id": str(game.id),
        "status": game.status,
        "version": game.version,
        "phase": game.phase,
        "turn": game.turn,
        "scores": game.scores,
        "winner": game.winner,
        "turn_deadline": deadline_text(game.turn_deadline),
        "options": game.options,
        "seats": seats_summary(seats),
        "created_by": game.created_by.get_username(),
        "created_at": game.created_at.isoformat(),
    }
