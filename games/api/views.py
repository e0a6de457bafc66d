"""Game endpoints: parse, call a service or selector, answer. Nothing else lives here."""

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

from accounts.models import User
from belote_project.pagination import CursorPage
from belote_project.problems import PROBLEM_CONTENT_TYPE
from belote_project.query import query_values
from belote_project.schema import ProblemSerializer, problem_responses
from belote_project.throttling import ScopedRedisRateThrottle
from games import selectors, services
from games.api.conditions import (
    IF_MATCH_PATTERN,
    MAX_VERSION,
    expected_version,
    if_none_match_hits,
)
from games.api.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from games.api.serializers import (
    ACT_EXAMPLES,
    CONFLICT_EXAMPLE,
    VIEW_EXAMPLE,
    ActionField,
    EventSerializer,
    GameSummarySerializer,
    GameViewSerializer,
    OptionsField,
)
from games.feed.events import visible_events
from games.models import BotLevel, Game, GameStatus
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


def _player(request: Request) -> User:
    # IsAuthenticated (the default permission) ran before any handler.
    assert isinstance(request.user, User)
    return request.user


def _view_headers(etag: str) -> dict[str, str]:
    # Views differ per player: no shared cache may keep or mix them.
    return {"ETag": etag, "Cache-Control": "private, no-cache", "Vary": "Authorization"}


def _view_response(game: Game, request: Request, status_code: int) -> Response:
    view, etag = selectors.game_view_for(game=game, user=_player(request))
    return Response(view, status=status_code, headers=_view_headers(etag))


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
            user=_player(request),
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
            user=_player(request), options=data.validated_data["options"], seat=seat
        )
        response = _view_response(game, request, status.HTTP_201_CREATED)
        response["Location"] = reverse("game", kwargs={"game_id": game.id})
        return response


class GameDetailApi(APIView):
    @extend_schema(
        tags=["games"],
        operation_id="games_retrieve",
        summary="Your view of a game (spectators: the public view)",
        parameters=[
            OpenApiParameter(
                "If-None-Match", location=OpenApiParameter.HEADER, required=False, type=str
            )
        ],
        responses={
            200: OpenApiResponse(GameViewSerializer, examples=[VIEW_EXAMPLE]),
            304: OpenApiResponse(description="Unchanged since the ETag you sent."),
        },
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        table = selectors.table_state(game_id)
        etag = selectors.view_etag(table.game, table.seats)
        if if_none_match_hits(request.headers.get("If-None-Match"), etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=_view_headers(etag))
        view, etag = selectors.game_view_for(
            game=table.game, user=_player(request), seats=table.seats, loaded=table.loaded
        )
        return Response(view, headers=_view_headers(etag))


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
            game_id=game_id, user=_player(request), seat=data.validated_data.get("seat")
        )
        return _view_response(game, request, status.HTTP_201_CREATED)


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
        game = services.seat_leave(game_id=game_id, user=_player(request), seat=seat)
        return _view_response(game, request, status.HTTP_200_OK)


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
            user=_player(request),
            seat=data.validated_data.get("seat"),
            level=data.validated_data["level"],
        )
        return _view_response(game, request, status.HTTP_201_CREATED)


class GameActApi(APIView):
    throttle_classes = (ScopedRedisRateThrottle,)
    throttle_scope = "game_actions"

    @extend_schema_serializer(component_name="GameActInput")
    class InputSerializer(Serializer):
        action = ActionField(help_text="One entry of your view's `legal_actions`, as-is.")
        expected_version = serializers.IntegerField(
            min_value=0,
            max_value=MAX_VERSION,
            required=False,
            help_text='The `version` you decided on (or send `If-Match: "<version>"`).',
        )

    @extend_schema_serializer(component_name="GameActOutput")
    class OutputSerializer(Serializer):
        events = EventSerializer(many=True)
        game = GameViewSerializer()

    @extend_schema(
        tags=["games"],
        operation_id="games_actions_create",
        summary="Act: bid, choose trump, declare or play a card",
        parameters=[
            IDEMPOTENCY_PARAMETER,
            OpenApiParameter(
                "If-Match",
                {"type": "string", "pattern": IF_MATCH_PATTERN},
                OpenApiParameter.HEADER,
                required=False,
                description='The `ETag` of the view you decided on, e.g. `"12"`.',
            ),
        ],
        request=InputSerializer,
        examples=ACT_EXAMPLES,
        responses={
            201: OutputSerializer,
            (409, PROBLEM_CONTENT_TYPE): OpenApiResponse(
                ProblemSerializer,
                description=(
                    "`version_conflict` (the problem's `game` holds your current view and "
                    "`current_version`; resync and decide again), `game_not_started` or "
                    "`game_over`."
                ),
                examples=[CONFLICT_EXAMPLE],
            ),
            **problem_responses(
                {
                    403: "`not_seated`: you have no seat at this table.",
                    422: (
                        "Not allowed by the rules: `code` is the rule's (`not_your_turn`, "
                        "`must_follow_suit`, `invalid_action`, ...); or `idempotency_key_reused`."
                    ),
                    400: (
                        "Malformed JSON or invalid fields (see `errors`); `invalid_if_match`: "
                        "If-Match is malformed, names several versions or disagrees with "
                        "expected_version."
                    ),
                    412: "`precondition_failed`: If-Match names no version (weak, not digits).",
                    428: "`version_required`: neither expected_version nor If-Match was sent.",
                }
            ),
        },
    )
    @idempotent
    def post(self, request: Request, game_id: UUID) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        result = services.game_act(
            game_id=game_id,
            user=_player(request),
            action=data.validated_data["action"],
            expected_version=expected_version(
                body=data.validated_data.get("expected_version"),
                if_match=request.headers.get("If-Match"),
            ),
        )
        body = {
            "events": visible_events(result.before, result.appended, result.seat),
            "game": result.view,
        }
        return Response(
            body,
            status=status.HTTP_201_CREATED,
            headers=_view_headers(f'"{result.after.version}"'),
        )
