"""Tournament endpoints: list, create, read, start; standings, rounds and progress."""

from __future__ import annotations

import functools
from typing import Any
from uuid import UUID

from django.http import HttpResponseBase
from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle
from rest_framework.views import APIView

from belote_project.pagination import CursorPage, page_response
from belote_project.query import query_values
from belote_project.schema import invalid_request, problem
from games.api import feed_base
from games.api.answers import player
from games.api.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from games.api.problems import IN_FLIGHT_CONFLICT
from tournaments import selectors, services
from tournaments.api.problems import (
    CREATE_REFUSED,
    NOT_ORGANISER,
    START_CONFLICT,
    TOURNAMENT_NOT_FOUND,
)
from tournaments.api.serializers import (
    ProgressSerializer,
    RoundSerializer,
    StandingSerializer,
    TournamentCreateSerializer,
    TournamentSerializer,
)
from tournaments.services.progress import feed_key as progress_feed_key

Serializer = serializers.Serializer[Any]
#: the most progress entries one read answers
PROGRESS_PAGE = 200


class TournamentListCreateApi(APIView):
    throttle_scope = "tournament_create"

    class FilterSerializer(Serializer):
        cursor = serializers.RegexField(
            r"^[A-Za-z0-9+/=]+$", required=False, help_text="Opaque: the `next` link's cursor."
        )
        page_size = serializers.IntegerField(
            min_value=1, max_value=CursorPage.max_page_size, required=False
        )

    @extend_schema_serializer(component_name="TournamentPage")
    class PageSerializer(Serializer):
        next = serializers.URLField(allow_null=True)
        previous = serializers.URLField(allow_null=True)
        results = TournamentSerializer(many=True)

    def get_throttles(self) -> list[BaseThrottle]:
        return [ScopedRateThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        tags=["tournaments"],
        operation_id="list_tournaments",
        summary="List tournaments",
        description="Newest first, a page at a time (follow `next`).",
        parameters=[FilterSerializer],
        responses={
            200: PageSerializer,
            **invalid_request("`cursor` or `page_size` is invalid (see `errors`)."),
            **problem(404, "NotFound", ["not_found"], "`cursor` is not one this list issued."),
        },
    )
    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=query_values(request))
        filters.is_valid(raise_exception=True)
        return page_response(
            selectors.tournament_list(), request, self, selectors.tournament_detail
        )

    @extend_schema(
        tags=["tournaments"],
        operation_id="create_tournament",
        summary="Create a tournament (you organise it)",
        parameters=[IDEMPOTENCY_PARAMETER],
        request=TournamentCreateSerializer,
        responses={
            **IN_FLIGHT_CONFLICT,
            **CREATE_REFUSED,
            201: OpenApiResponse(TournamentSerializer, description="The new tournament."),
        },
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = TournamentCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.tournament_create(
            organiser=player(request), settings=services.Settings(**data.validated_data)
        )
        response = Response(
            TournamentSerializer(selectors.tournament_detail(tournament)).data,
            status=status.HTTP_201_CREATED,
        )
        response["Location"] = reverse("tournament", kwargs={"tournament_id": tournament.pk})
        return response


def _detail(tournament_id: UUID) -> Response:
    tournament = selectors.tournament_get(tournament_id)
    return Response(TournamentSerializer(selectors.tournament_detail(tournament)).data)


class TournamentDetailApi(APIView):
    @extend_schema(
        tags=["tournaments"],
        operation_id="get_tournament",
        summary="A tournament and its teams",
        responses={200: TournamentSerializer, **TOURNAMENT_NOT_FOUND},
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        return _detail(tournament_id)


class TournamentStartApi(APIView):
    @extend_schema(
        tags=["tournaments"],
        operation_id="start_tournament",
        summary="Start: pair round 1 and seat everyone (organiser)",
        description=(
            "Invitations not yet accepted lapse. From then on the service runs the "
            "tournament: each round is paired when the last game of the one before ends."
        ),
        request=None,
        responses={
            200: TournamentSerializer,
            **NOT_ORGANISER,
            **TOURNAMENT_NOT_FOUND,
            **START_CONFLICT,
        },
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        services.tournament_start(tournament_id=tournament_id, user=player(request))
        return _detail(tournament_id)


class StandingsApi(APIView):
    @extend_schema(
        tags=["tournaments"],
        operation_id="get_tournament_standings",
        summary="Standings: match points, then the tie-breaks",
        description='docs/tournaments.md, "Standings", gives the order of the tie-breaks.',
        responses={200: StandingSerializer(many=True), **TOURNAMENT_NOT_FOUND},
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        tournament = selectors.tournament_get(tournament_id)
        return Response(StandingSerializer(selectors.standings_of(tournament), many=True).data)


class RoundsApi(APIView):
    @extend_schema(
        tags=["tournaments"],
        operation_id="list_tournament_rounds",
        summary="Rounds with their pairings and results",
        responses={200: RoundSerializer(many=True), **TOURNAMENT_NOT_FOUND},
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        tournament = selectors.tournament_get(tournament_id)
        return Response(RoundSerializer(selectors.rounds_of(tournament), many=True).data)


class ProgressApi(feed_base.FeedApi):
    """The progress entries after `after`, long-polled like a game's events."""

    class QuerySerializer(feed_base.LongPollQuery):
        after = serializers.IntegerField(
            min_value=0,
            max_value=2**31 - 1,
            required=False,
            default=0,
            help_text="The last `seq` you have; 0 for the start.",
        )
        limit = serializers.IntegerField(
            min_value=1, max_value=PROGRESS_PAGE, default=PROGRESS_PAGE, help_text="Page size."
        )

    @extend_schema(
        tags=["tournaments"],
        operation_id="list_tournament_progress",
        summary="The tournament's progress after `after`, optionally long-polled",
        description=(
            "Round started, game finished, tournament finished, numbered from 1: ask again "
            f"with the last `seq` you have. At most {PROGRESS_PAGE} entries an answer. With "
            "`wait` and nothing after `after`, the answer waits for the next entry, or "
            "`wait` seconds and then answers none; a finished tournament whose entries "
            "you have all read answers at once."
        ),
        parameters=[QuerySerializer],
        responses={
            200: ProgressSerializer(many=True),
            **feed_base.LONG_POLL_PROBLEMS,
            **TOURNAMENT_NOT_FOUND,
        },
    )
    async def get(self, request: Request, tournament_id: UUID) -> HttpResponseBase:
        query = self.QuerySerializer(data=query_values(request))
        query.is_valid(raise_exception=True)
        page = await feed_base.list_long_poll(
            request,
            progress_feed_key(tournament_id),
            functools.partial(
                selectors.progress_page,
                tournament_id,
                query.validated_data["after"],
                query.validated_data["limit"],
            ),
            answers=lambda page: bool(page.entries) or page.finished,
            wait=query.validated_data["wait"],
        )
        return Response(ProgressSerializer(page.entries, many=True).data)
