"""A player's own games, from the read model: where they sit and whether it is their turn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery

from accounts.models import User
from games.models import Game, GameStatus, Seat
from games.selectors.views import deadline_text

#: the `status` filter of the list: games still waiting or playing, or games over
ACTIVE = "active"
FINISHED = "finished"
_STATUSES = {
    ACTIVE: (GameStatus.WAITING, GameStatus.PLAYING),
    FINISHED: (GameStatus.FINISHED,),
}


def my_games(*, user: User, status: str = ACTIVE) -> QuerySet[Game, dict[str, Any]]:
    """The games `user` sits at (as a player; a game they only created is not theirs to
    play), with their seat and whether a bot holds it: rows of plain values, which the
    cursor pages by `created_at` as they do models."""
    mine = Seat.objects.filter(game=OuterRef("pk"), user=user)
    rows: QuerySet[Game, dict[str, Any]] = (
        Game.objects.filter(status__in=_STATUSES[status], seats__user=user)
        .annotate(
            my_seat=Subquery(mine.values("seat")[:1]),
            my_seat_bot=Subquery(mine.values("bot_level")[:1]),
        )
        .values(*_COLUMNS, "my_seat", "my_seat_bot")
    )
    return rows


_COLUMNS = (
    "id", "status", "version", "phase", "turn", "turn_deadline", "scores", "winner", "created_at",
)  # fmt: skip


def my_game_summary(row: Mapping[str, Any]) -> dict[str, Any]:
    """One row of the list (the `MyGame` schema component)."""
    seat, absent = row["my_seat"], row["my_seat_bot"] is not None
    playing = row["status"] == GameStatus.PLAYING
    return {
        "id": str(row["id"]),
        "status": row["status"],
        "version": row["version"],
        "phase": row["phase"],
        "seat": seat,
        "absent": absent,
        "turn": row["turn"] if playing else None,
        "my_turn": playing and row["turn"] == seat and not absent,
        "turn_deadline": deadline_text(row["turn_deadline"]),
        "scores": row["scores"],
        "winner": row["winner"],
        "created_at": row["created_at"].isoformat(),
    }
