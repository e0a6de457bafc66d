"""Play endpoints: a player's view of a game, and its actions."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from belote_project.problems import PROBLEM_CONTENT_TYPE
from belote_project.schema import ProblemSerializer, problem_responses
from belote_project.throttling import ScopedRedisRateThrottle
from games import selectors, services
from games.api.answers import player, view_headers
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
    GameViewSerializer,
)
from games.feed.events import visible_events

Serializer = serializers.Serializer[Any]


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
        read = selectors.table_state(game_id)
        etag = selectors.view_etag(read.table)
        if if_none_match_hits(request.headers.get("If-None-Match"), etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=view_headers(etag))
        view, etag = selectors.game_view_for(read, player(request))
        return Response(view, headers=view_headers(etag))


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
            user=player(request),
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
            headers=view_headers(f'"{result.after.version}"'),
        )
