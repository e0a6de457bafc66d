"""Reads: a game as one viewer may see it, the ETag of that view, lists of tables."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from django.db.models import Count, Q, QuerySet

from accounts.models import User
from games import rules, store
from games.errors import GameNotFoundError
from games.models import Game, GameStatus, Seat

SEAT_COUNT = 4


def game_get(game_id: UUID) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameNotFoundError()
    return game


def table_seats(game: Game) -> list[Seat]:
    return list(Seat.objects.filter(game=game).select_related("user").order_by("seat"))


def game_table(game_id: UUID) -> tuple[Game, list[Seat]]:
    """The game and its seats (with their users); GameNotFoundError.

    One query, the seats' with their game and users joined, on the hot path of every
    view and action; a table nobody sits at needs a second one for the game alone.
    """
    seats = list(
        Seat.objects.filter(game_id=game_id).select_related("game", "user").order_by("seat")
    )
    if not seats:
        return game_get(game_id), []
    game = seats[0].game
    for seat in seats:
        seat.game = game  # one instance of the game for all its seats
    return game, seats


@dataclass(frozen=True)
class TableState:
    """A game, its seats (with their users) and its current state, as one request read them."""

    game: Game
    seats: list[Seat]
    loaded: store.LoadedGame


def table_state(game_id: UUID) -> TableState:
    """A game, its seats and its current state; GameNotFoundError."""
    game, seats = game_table(game_id)
    return TableState(game=game, seats=seats, loaded=store.load(game.id))


def seat_of(seats: Iterable[Seat], user: User) -> int | None:
    """The viewer's seat, or None for a spectator."""
    return next((row.seat for row in seats if row.user_id == user.pk), None)


def seats_summary(seats: Iterable[Seat]) -> list[dict[str, Any]]:
    """All four seats: who sits there (a username, a bot level, or nobody)."""
    by_number = {row.seat: row for row in seats}
    summary = []
    for number in range(SEAT_COUNT):
        row = by_number.get(number)
        summary.append(
            {
                "seat": number,
                "username": row.user.get_username() if row and row.user else None,
                "bot_level": row.bot_level if row else None,
            }
        )
    return summary


def deadline_text(deadline: datetime | None) -> str | None:
    """ISO 8601 in UTC with milliseconds (`2026-12-01T10:00:05.250Z`), as views show it."""
    if deadline is None:
        return None
    return deadline.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def clock_view(game: Game) -> dict[str, Any]:
    """The turn clock of `game`'s row (docs/clocks.md): its deadline and every seat's bank."""
    full_bank = int(game.options.get("time_bank_seconds", 0)) * 1000
    return {
        "turn_deadline": deadline_text(game.turn_deadline),
        "time_banks_ms": list(game.time_banks_ms) or [full_bank] * SEAT_COUNT,
    }


def view_etag(game: Game, seats: Sequence[Seat]) -> str:
    """The version, quoted; while seats still change (no event yet) a digest of them too."""
    if game.status != GameStatus.WAITING:
        return f'"{game.version}"'
    layout = ",".join(f"{row.seat}:{row.user_id}:{row.bot_level}" for row in seats)
    return f'"{game.version}-{hashlib.sha256(layout.encode()).hexdigest()[:12]}"'


def game_view(
    *,
    game: Game,
    seats: Sequence[Seat],
    loaded: store.LoadedGame,
    seat: int | None,
    body: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """rules.view for `seat` (None: a spectator; legal_actions included) plus id, version, seats.

    `body`: that rules.view of `loaded.state` if the caller built it already (it is completed
    in place).
    """
    body = rules.view(loaded.state, seat) if body is None else body
    body.update(
        id=str(game.id),
        version=loaded.version,
        seat=seat,
        seats=seats_summary(seats),
        # Before game_started the state holds default options, not the table's.
        options=game.options,
        **clock_view(game),
    )
    return body


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


def game_view_for(
    *,
    game: Game,
    user: User,
    seats: Sequence[Seat] | None = None,
    loaded: store.LoadedGame | None = None,
) -> tuple[dict[str, Any], str]:
    """The game as `user` may see it (seated or spectator) and that view's ETag."""
    seats = table_seats(game) if seats is None else seats
    loaded = store.load(game.id) if loaded is None else loaded
    view = game_view(game=game, seats=seats, loaded=loaded, seat=seat_of(seats, user))
    return view, view_etag(game, seats)


def game_summary(game: Game) -> dict[str, Any]:
    """A row of the table list (from the read model; no event is read)."""
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
        "seats": seats_summary(game.seats.all()),
        "created_by": game.created_by.get_username(),
        "created_at": game.created_at.isoformat(),
    }
