"""Rating endpoints: the leaderboard and one player's history."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from belote_project.query import query_values
from belote_project.schema import invalid_request
from tournaments import selectors
from tournaments.api.problems import PLAYER_HAS_NO_RATING
from tournaments.api.serializers import RatingChangeSerializer, RatingSerializer
from tournaments.errors import PlayerNotFoundError

#: the longest leaderboard one answer carries
LEADERBOARD_MAX = 200


class LeaderboardApi(APIView):
    class QuerySerializer(serializers.Serializer[Any]):
        limit = serializers.IntegerField(
            min_value=1, max_value=LEADERBOARD_MAX, required=False, default=50
        )

    @extend_schema(
        tags=["ratings"],
        operation_id="get_leaderboard",
        summary="The best ratings first (provisional ones flagged)",
        description='Ranked by `rating`, mu - 3 sigma (docs/tournaments.md, "Ratings").',
        parameters=[QuerySerializer],
        responses={
            200: RatingSerializer(many=True),
            **invalid_request("`limit` is not from 1 to 200 (see `errors`)."),
        },
    )
    def get(self, request: Request) -> Response:
        query = self.QuerySerializer(data=query_values(request))
        query.is_valid(raise_exception=True)
        rows = selectors.leaderboard(query.validated_data["limit"])
        return Response(RatingSerializer(rows, many=True).data)


class RatingHistorySerializer(serializers.Serializer[Any]):
    rating = RatingSerializer()
    history = RatingChangeSerializer(many=True, help_text="Oldest first, a rated game each.")


class RatingHistoryApi(APIView):
    @extend_schema(
        tags=["ratings"],
        operation_id="get_rating",
        summary="A player's rating and its history",
        responses={200: RatingHistorySerializer, **PLAYER_HAS_NO_RATING},
    )
    def get(self, request: Request, username: str) -> Response:
        user = User.objects.filter(username=username).first()
        rating = None if user is None else selectors.rating_of(user)
        if user is None or rating is None:
            raise PlayerNotFoundError()
        body = {"rating": rating, "history": selectors.rating_history(user)}
        return Response(RatingHistorySerializer(body).data)
