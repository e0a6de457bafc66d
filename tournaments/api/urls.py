"""The tournament and rating endpoints' URLs."""

from django.urls import URLPattern, URLResolver, path, register_converter

from tournaments.api.ratings import LeaderboardApi, RatingHistoryApi
from tournaments.api.teams import (
    BotTeamApi,
    InvitationAcceptApi,
    InvitationDeclineApi,
    TeamRegisterApi,
    TeamWithdrawApi,
)
from tournaments.api.views import (
    ProgressApi,
    RoundsApi,
    StandingsApi,
    TournamentDetailApi,
    TournamentListCreateApi,
    TournamentStartApi,
)


class TeamIdConverter:
    """A team id in a path: digits a database key can hold (a longer number is no team,
    404, before any query runs)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(TeamIdConverter, "team")

T = "tournaments/<uuid:tournament_id>"
urlpatterns: list[URLPattern | URLResolver] = [
    path("tournaments", TournamentListCreateApi.as_view(), name="tournaments"),
    path(T, TournamentDetailApi.as_view(), name="tournament"),
    path(f"{T}/start", TournamentStartApi.as_view(), name="tournament-start"),
    path(f"{T}/standings", StandingsApi.as_view(), name="tournament-standings"),
    path(f"{T}/rounds", RoundsApi.as_view(), name="tournament-rounds"),
    path(f"{T}/progress", ProgressApi.as_view(), name="tournament-progress"),
    path(f"{T}/teams", TeamRegisterApi.as_view(), name="tournament-teams"),
    path(f"{T}/bot-teams", BotTeamApi.as_view(), name="tournament-bot-teams"),
    path(f"{T}/teams/<team:team_id>/accept", InvitationAcceptApi.as_view(), name="team-accept"),
    path(f"{T}/teams/<team:team_id>/decline", InvitationDeclineApi.as_view(), name="team-decline"),
    path(f"{T}/teams/<team:team_id>/withdraw", TeamWithdrawApi.as_view(), name="team-withdraw"),
    path("ratings", LeaderboardApi.as_view(), name="ratings"),
    path("ratings/<str:username>", RatingHistoryApi.as_view(), name="rating"),
]
