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

from belote_project.throttling import ScopedRedisRateThrottle
from games import selectors, services
from games.api.answers import player, view_headers
from games.api.conditions import (
    IF_MATCH_PATTERN,
    MAX_VERSION,
    expected_version,
    if_none_match_hits,
)
from games.api.event_serializers import events_field
from games.api.examples import ACT_EXAMPLES, VIEW_EXAMPLE
from games.api.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from games.api.problems import ACTION_PROBLEMS, GAME_NOT_FOUND
from games.api.request_bodies import ActionField
from games.api.serializers import GameViewSerializer
from games.feed.events import visible_events

Serializer = serializers.Serializer[Any]


class GameDetailApi(APIView):
    @extend_schema(
        tags=["games"],
        operation_id="get_game",
        summary="Your view of a game",
        description=(
            "Seated players see their own hand and `legal_actions`; anyone else gets the "
            "public view (`seat` null, `hand` and `legal_actions` empty). The `ETag` header "
            "names this view: send it back as `If-None-Match` to get a 304 while nothing "
            "changed, and as `If-Match` when you act on it."
        ),
        parameters=[
            OpenApiParameter(
                "If-None-Match",
                location=OpenApiParameter.HEADER,
                required=False,
                type=str,
                description="The `ETag` of the view you hold.",
            )
        ],
        responses={
            200: OpenApiResponse(GameViewSerializer, examples=[VIEW_EXAMPLE]),
            304: OpenApiResponse(description="Unchanged since the ETag you sent."),
            **GAME_NOT_FOUND,
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
        events = events_field("What your action caused, as you may see it.")
        game = GameViewSerializer(help_text="Your view of the game after it.")

    @extend_schema(
        tags=["games"],
        operation_id="act",
        summary="Act: bid, choose trump, declare or play a card",
        description=(
            "Send one entry of your view's `legal_actions` as `action`, with the `version` "
            "you decided on (`expected_version`, or `If-Match`). If someone acted first, "
            "the answer is 409 `version_conflict` with your current view: decide again."
        ),
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
        responses={201: OutputSerializer, **ACTION_PROBLEMS},
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
