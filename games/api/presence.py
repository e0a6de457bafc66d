"""Presence endpoints: leave a running game to a bot, and take the seat back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from uuid import UUID

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import services
from games.api.answers import player, view_headers
from games.api.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from games.api.problems import PRESENCE_PROBLEMS
from games.api.serializers import GameViewSerializer
from games.services.tables import SEATS

F = TypeVar("F", bound=Callable[..., Any])
_SEAT = OpenApiParameter("seat", int, OpenApiParameter.PATH, enum=list(SEATS))


def _presence(request: Request, game_id: UUID, seat: int, *, absent: bool) -> Response:
    view = services.seat_absent_set(game_id=game_id, user=player(request), seat=seat, absent=absent)
    return Response(view, status=status.HTTP_200_OK, headers=view_headers(f'"{view["version"]}"'))


def _documented(operation_id: str, summary: str, description: str) -> Callable[[F], F]:
    return extend_schema(
        tags=["games"],
        operation_id=operation_id,
        summary=summary,
        description=f"{description} See docs/clocks.md.",
        parameters=[_SEAT, IDEMPOTENCY_PARAMETER],
        request=None,
        responses={200: GameViewSerializer, **PRESENCE_PROBLEMS},
    )


class SeatLeaveRunningApi(APIView):
    @_documented(
        "leave_running_game",
        "Leave a running game: a bot plays your seat from now on",
        "Appends `seat_absent` (reason `left`) at once; a `basic` bot plays the seat's "
        "turns until you return. Leaving a seat a bot already plays changes nothing.",
    )
    @idempotent
    def post(self, request: Request, game_id: UUID, seat: int) -> Response:
        return _presence(request, game_id, seat, absent=True)


class SeatReturnApi(APIView):
    @_documented(
        "return_to_seat",
        "Take your seat back from the bot that plays it",
        "Appends `seat_returned` at once: if it is your turn, it is yours to play now, "
        "with a fresh clock. Returning to a seat you play changes nothing.",
    )
    @idempotent
    def post(self, request: Request, game_id: UUID, seat: int) -> Response:
        return _presence(request, game_id, seat, absent=False)
