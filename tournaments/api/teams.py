"""Team endpoints: register (with a partner to invite or a bot), bot teams, invitations
and withdrawals."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle
from rest_framework.views import APIView

from games.api.answers import player
from tournaments import selectors, services
from tournaments.api.problems import (
    BOT_TEAM_CONFLICT,
    INVITATION_CONFLICT,
    NOT_INVITED,
    NOT_MEMBER,
    NOT_ORGANISER,
    PLAYER_NOT_FOUND,
    REGISTER_REFUSED,
    REGISTRATION_CONFLICT,
    TEAM_NOT_FOUND,
    TOURNAMENT_NOT_FOUND,
    WITHDRAWAL_CONFLICT,
)
from tournaments.api.serializers import BotTeamSerializer, TeamRegisterSerializer, TeamSerializer
from tournaments.models import Team


def _team(team: Team, status_code: int = status.HTTP_200_OK) -> Response:
    return Response(TeamSerializer(selectors.team_line(team)).data, status=status_code)


class TeamRegisterApi(APIView):
    @extend_schema(
        tags=["tournaments"],
        operation_id="register_team",
        summary="Register a team: you and a partner",
        description=(
            "With `partner` (a username) the team is `invited` until they accept; with "
            "`partner_bot` (where the organiser allows it) it is `registered` at once."
        ),
        request=TeamRegisterSerializer,
        responses={
            201: OpenApiResponse(TeamSerializer, description="The team."),
            **PLAYER_NOT_FOUND,
            **REGISTRATION_CONFLICT,
            **REGISTER_REFUSED,
        },
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        data = TeamRegisterSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        team = services.team_register(
            tournament_id=tournament_id,
            user=player(request),
            name=data.validated_data["name"],
            partner_username=data.validated_data.get("partner"),
            partner_bot=data.validated_data.get("partner_bot"),
        )
        return _team(team, status.HTTP_201_CREATED)


class BotTeamApi(APIView):
    throttle_scope = "tournament_create"

    def get_throttles(self) -> list[BaseThrottle]:
        return [ScopedRateThrottle()]

    @extend_schema(
        tags=["tournaments"],
        operation_id="add_bot_team",
        summary="Add a team of two bots (organiser)",
        request=BotTeamSerializer,
        responses={
            201: OpenApiResponse(TeamSerializer, description="The team, registered."),
            **NOT_ORGANISER,
            **TOURNAMENT_NOT_FOUND,
            **BOT_TEAM_CONFLICT,
        },
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        data = BotTeamSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        first, second = data.validated_data["levels"]
        team = services.bot_team_add(
            tournament_id=tournament_id,
            user=player(request),
            name=data.validated_data["name"],
            levels=(first, second),
        )
        return _team(team, status.HTTP_201_CREATED)


INVITATION_ANSWERS: dict[Any, Any] = {
    200: TeamSerializer,
    **NOT_INVITED,
    **TEAM_NOT_FOUND,
    **INVITATION_CONFLICT,
}


def _invitation(request: Request, tournament_id: UUID, team_id: int, *, accept: bool) -> Response:
    team = services.invitation_answer(
        tournament_id=tournament_id, team_id=team_id, user=player(request), accept=accept
    )
    return _team(team)


class InvitationAcceptApi(APIView):
    @extend_schema(
        tags=["tournaments"],
        operation_id="accept_invitation",
        summary="Accept the invitation: the team is registered",
        request=None,
        responses=INVITATION_ANSWERS,
    )
    def post(self, request: Request, tournament_id: UUID, team_id: int) -> Response:
        return _invitation(request, tournament_id, team_id, accept=True)


class InvitationDeclineApi(APIView):
    @extend_schema(
        tags=["tournaments"],
        operation_id="decline_invitation",
        summary="Decline the invitation",
        request=None,
        responses=INVITATION_ANSWERS,
    )
    def post(self, request: Request, tournament_id: UUID, team_id: int) -> Response:
        return _invitation(request, tournament_id, team_id, accept=False)


class TeamWithdrawApi(APIView):
    @extend_schema(
        tags=["tournaments"],
        operation_id="withdraw_team",
        summary="Withdraw a team (a player of it, or the organiser)",
        description=(
            "Before the start in every format; in a Swiss also once started, from the "
            "next round on (the game being played plays on)."
        ),
        request=None,
        responses={200: TeamSerializer, **NOT_MEMBER, **TEAM_NOT_FOUND, **WITHDRAWAL_CONFLICT},
    )
    def post(self, request: Request, tournament_id: UUID, team_id: int) -> Response:
        team = services.team_withdraw(
            tournament_id=tournament_id, team_id=team_id, user=player(request)
        )
        return _team(team)
