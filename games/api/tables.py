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

from belote_project.pagination import CursorPage
from belote_project.query import query_values
from belote_project.schema import problem_responses
from games import selectors, services
from games.api.answers import player, view_response
from games.api.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from games.api.serializers import (
    GameSummarySerializer,
    GameViewSerializer,
    OptionsField,
)
from games.models import BotLevel, GameStatus
from games.services.tables import SEATS

Serializer = serializers.Serializer[Any]


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

    class FilterSerializer(Serializer):
        open_seats = serializers.BooleanField(required=False, default=False)
        mine = serializers.BooleanField(required=False, default=False)
        status = serializers.ChoiceField(choices=GameStatus.choices, required=False)
        # Read by CursorPage itself; checked here so that they are documented and a bad
        # value is a 400 rather than silently the default.
        cursor = serializers.RegexField(
            r"^[A-Za-z0-9+/=]+$",  # base64, as CursorPage encodes it
            required=False,
            help_text="Opaque: the `next` or `previous` link's cursor.",
        )
        page_size = serializers.IntegerField(
            min_value=1, max_value=CursorPage.max_page_size, required=False
        )

    @extend_schema_serializer(component_name="GameListCreatePage")
    class PageSerializer(Serializer):
        next = serializers.URLField(allow_null=True, help_text="The following page's URL.")
        previous = serializers.URLField(allow_null=True, help_text="The preceding page's URL.")
        results = GameSummarySerializer(many=True)

    @extend_schema_serializer(component_name="GameListCreateInput")
    class InputSerializer(Serializer):
        options = OptionsField(required=False, default=dict)
        seat = _seat_field("Your seat; omitted: the first free one; null: organise, not play.")

    def get_throttles(self) -> list[BaseThrottle]:
        return [ScopedRateThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        tags=["games"],
        operation_id="games_list",
        summary="List tables",
        parameters=[FilterSerializer],
        responses={
            200: PageSerializer,
            **problem_responses({404: "`cursor` is not one that this list issued."}),
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
        page = CursorPage()
        rows = page.paginate_queryset(games, request, view=self) or []
        return page.get_paginated_response([selectors.game_summary(game) for game in rows])

    @extend_schema(
        tags=["games"],
        operation_id="games_create",
        summary="Create a table (and sit at it)",
        parameters=[IDEMPOTENCY_PARAMETER],
        request=InputSerializer,
        responses={
            201: OpenApiResponse(GameViewSerializer, description="Your view of the new table."),
            **problem_responses({422: "Invalid options (`invalid_options`, see `errors`)."}),
        },
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seat = data.validated_data.get("seat", services.SeatChoice.FIRST_FREE)
        game = services.game_create(
            user=player(request), options=data.validated_data["options"], seat=seat
        )
        response = view_response(game.id, request, status.HTTP_201_CREATED)
        response["Location"] = reverse("game", kwargs={"game_id": game.id})
        return response


class SeatJoinApi(APIView):
    @extend_schema_serializer(component_name="SeatJoinInput")
    class InputSerializer(Serializer):
        seat = _seat_field("Omitted or null: the first free seat.")

    @extend_schema(
        tags=["games"],
        operation_id="games_seats_join",
        summary="Take a seat; the fourth seat starts the game",
        parameters=[IDEMPOTENCY_PARAMETER],
        request=InputSerializer,
        responses={
            201: GameViewSerializer,
            **problem_responses(
                {409: "`seat_taken`, `table_full`, `already_seated` or `game_already_started`."}
            ),
        },
    )
    @idempotent
    def post(self, request: Request, game_id: UUID) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.seat_join(
            game_id=game_id, user=player(request), seat=data.validated_data.get("seat")
        )
        return view_response(game.id, request, status.HTTP_201_CREATED)


class SeatLeaveApi(APIView):
    @extend_schema(
        tags=["games"],
        operation_id="games_seats_leave",
        summary="Leave your seat, or remove a bot, before the game starts",
        parameters=[OpenApiParameter("seat", int, OpenApiParameter.PATH, enum=list(SEATS))],
        request=None,
        responses={
            200: GameViewSerializer,
            **problem_responses(
                {
                    403: "`not_seated` (someone else's seat) or `not_organiser`.",
                    404: "No such game, or `seat` is not 0-3.",
                    409: "`seat_empty` or `game_already_started`.",
                }
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
        level = serializers.ChoiceField(choices=BotLevel.choices)

    @extend_schema(
        tags=["games"],
        operation_id="games_bots_add",
        summary="Seat a bot (the table's creator or a seated player)",
        parameters=[IDEMPOTENCY_PARAMETER],
        request=InputSerializer,
        responses={
            201: GameViewSerializer,
            **problem_responses(
                {
                    403: "`not_organiser`.",
                    409: "`seat_taken`, `table_full`, `game_already_started`, or "
                    "`no_human_seated` (this bot would fill the table with nobody playing).",
                }
            ),
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
