"""Table endpoints: list and create tables, take and leave seats, seat bots."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.urls import reverse
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle
from rest_framework.views import APIView

from belote_project.pagination import CursorPageQuery, page_response
from belote_project.query import query_values
from belote_project.schema import CURSOR_NOT_FOUND, invalid_request, problem
from belote_project.text_fields import TextPatternField
from games import selectors, services
from games.api.answers import player, view_response
from games.api.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from games.api.problems import (
    FOURTH_SEAT_REFUSED,
    GAME_NOT_FOUND,
    IN_FLIGHT_CONFLICT,
    seat_conflict,
    table_refused,
)
from games.api.request_bodies import OptionsField
from games.api.serializers import GameSummarySerializer, GameViewSerializer
from games.models import BotLevel, GameStatus
from games.rules.fairness import CLIENT_SEED_MAX
from games.services.tables import SEATS

#: printable ASCII, no space (games/rules/fairness.py, CLIENT_SEED_MAX)
CLIENT_SEED_PATTERN = rf"^[!-~]{{1,{CLIENT_SEED_MAX}}}$"

Serializer = serializers.Serializer[Any]


def _client_seed_field() -> TextPatternField:
    return TextPatternField(
        CLIENT_SEED_PATTERN,
        required=False,
        help_text=(
            "Your contribution to every deal (1 to 64 printable ASCII characters, e.g. "
            "random hex your client drew); omitted: the empty string. The table committed "
            "to its secrets before you sit, so nobody can choose deals (docs/fairness.md)."
        ),
    )


def _seat_field(help_text: str) -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=SEATS.start,
        max_value=SEATS.stop - 1,
        required=False,
        allow_null=True,
        help_text=help_text,
    )


class GameListCreateApi(APIView):
    throttle_scope = "game_create"

    class FilterSerializer(CursorPageQuery):
        open_seats = serializers.BooleanField(required=False, default=False)
        mine = serializers.BooleanField(required=False, default=False)
        status = serializers.ChoiceField(choices=GameStatus.choices, required=False)

    @extend_schema_serializer(component_name="GamePage")
    class PageSerializer(Serializer):
        next = serializers.URLField(allow_null=True, help_text="The following page's URL.")
        previous = serializers.URLField(allow_null=True, help_text="The preceding page's URL.")
        results = GameSummarySerializer(many=True)

    @extend_schema_serializer(component_name="GameCreateInput")
    class InputSerializer(Serializer):
        options = OptionsField(required=False, default=dict)
        seat = _seat_field("Your seat; omitted: the first free one; null: organise, not play.")
        client_seed = _client_seed_field()

    def get_throttles(self) -> list[BaseThrottle]:
        return [ScopedRateThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        tags=["games"],
        operation_id="list_games",
        summary="List tables",
        description=(
            "Newest first, a page at a time: follow `next` (or pass its `cursor`) for "
            "older tables. `open_seats`: only tables waiting with a free seat; `mine`: "
            "only tables you sit at or created."
        ),
        parameters=[FilterSerializer],
        responses={
            200: PageSerializer,
            **invalid_request("A filter, `cursor` or `page_size` is invalid (see `errors`)."),
            **CURSOR_NOT_FOUND,
        },
    )
    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=query_values(request))
        filters.is_valid(raise_exception=True)
        games = selectors.game_list(
            user=player(request),
            open_seats=filters.validated_data["open_seats"],
            mine=filters.validated_data["mine"],
            status=filters.validated_data.get("status"),
        )
        return page_response(games, request, self, selectors.game_summary)

    @extend_schema(
        tags=["games"],
        operation_id="create_game",
        summary="Create a table (and sit at it)",
        parameters=[IDEMPOTENCY_PARAMETER],
        request=InputSerializer,
        responses={
            201: OpenApiResponse(GameViewSerializer, description="Your view of the new table."),
            **IN_FLIGHT_CONFLICT,
            **table_refused("`invalid_options` (see `errors`), or an Idempotency-Key problem."),
        },
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seat = data.validated_data.get("seat", services.SeatChoice.FIRST_FREE)
        game = services.game_create(
            user=player(request),
            options=data.validated_data["options"],
            seat=seat,
            client_seed=data.validated_data.get("client_seed", ""),
        )
        response = view_response(game.id, request, status.HTTP_201_CREATED)
        response["Location"] = reverse("game", kwargs={"game_id": game.id})
        return response


class SeatJoinApi(APIView):
    @extend_schema_serializer(component_name="SeatJoinInput")
    class InputSerializer(Serializer):
        seat = _seat_field("Omitted or null: the first free seat.")
        client_seed = _client_seed_field()

    @extend_schema(
        tags=["games"],
        operation_id="take_seat",
        summary="Take a seat; the fourth seat starts the game",
        parameters=[IDEMPOTENCY_PARAMETER],
        request=InputSerializer,
        responses={
            201: OpenApiResponse(GameViewSerializer, description="Your view of the table."),
            **GAME_NOT_FOUND,
            **seat_conflict(
                "SeatJoinConflict",
                [
                    "seat_taken",
                    "table_full",
                    "already_seated",
                    "game_already_started",
                    "table_closed",
                ],
                "The seat or the table is not free.",
            ),
            **FOURTH_SEAT_REFUSED,
        },
    )
    @idempotent
    def post(self, request: Request, game_id: UUID) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.seat_join(
            game_id=game_id,
            user=player(request),
            seat=data.validated_data.get("seat"),
            client_seed=data.validated_data.get("client_seed", ""),
        )
        return view_response(game.id, request, status.HTTP_201_CREATED)


class SeatLeaveApi(APIView):
    @extend_schema(
        tags=["games"],
        operation_id="leave_seat",
        summary="Leave your seat, or remove a bot, before the game starts",
        parameters=[OpenApiParameter("seat", int, OpenApiParameter.PATH, enum=list(SEATS))],
        request=None,
        responses={
            200: OpenApiResponse(GameViewSerializer, description="Your view of the table."),
            **problem(
                403,
                "SeatLeaveForbidden",
                ["not_seated", "not_organiser"],
                "`not_seated`: someone else's seat; `not_organiser`: a bot, and you neither "
                "created the table nor sit at it.",
            ),
            **GAME_NOT_FOUND,
            **problem(
                409,
                "SeatLeaveConflict",
                ["seat_empty", "game_already_started", "table_closed"],
                "Nobody sits there, or the game has started.",
            ),
        },
    )
    def delete(self, request: Request, game_id: UUID, seat: int) -> Response:
        game = services.seat_leave(game_id=game_id, user=player(request), seat=seat)
        return view_response(game.id, request, status.HTTP_200_OK)


class BotSeatApi(APIView):
    @extend_schema_serializer(component_name="BotSeatInput")
    class InputSerializer(Serializer):
        seat = _seat_field("Omitted or null: the first free seat.")
        client_seed = _client_seed_field()
        level = serializers.ChoiceField(choices=BotLevel.choices)

    @extend_schema(
        tags=["games"],
        operation_id="add_bot",
        summary="Seat a bot (the table's creator or a seated player)",
        parameters=[IDEMPOTENCY_PARAMETER],
        request=InputSerializer,
        responses={
            201: OpenApiResponse(GameViewSerializer, description="Your view of the table."),
            **problem(
                403,
                "NotOrganiser",
                ["not_organiser"],
                "Only the table's creator or a seated player seats bots.",
            ),
            **GAME_NOT_FOUND,
            **seat_conflict(
                "BotSeatConflict",
                [
                    "seat_taken",
                    "table_full",
                    "game_already_started",
                    "table_closed",
                    "no_human_seated",
                ],
                "The seat or the table is not free, or this bot would fill the table with "
                "nobody playing (`no_human_seated`).",
            ),
            **FOURTH_SEAT_REFUSED,
        },
    )
    @idempotent
    def post(self, request: Request, game_id: UUID) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.bot_seat(
            game_id=game_id,
            user=player(request),
            seat=data.validated_data.get("seat"),
            level=data.validated_data["level"],
        )
        return view_response(game.id, request, status.HTTP_201_CREATED)
