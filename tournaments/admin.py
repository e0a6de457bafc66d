"""Admin: watch tournaments (teams, rounds, results, ratings); changes go through the
services, so an operator's withdrawal follows the same rules as a player's."""

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from belote_project.admin_views import ReadOnly
from belote_project.errors import ApplicationError
from tournaments import services
from tournaments.models import Match, Rating, Team, Tournament, TournamentEvent


class TeamInline(ReadOnly, admin.TabularInline[Team, Tournament]):
    model = Team
    extra = 0
    fields = ("seed", "name", "captain", "captain_bot", "partner", "partner_bot", "status")
    readonly_fields = fields


@admin.register(Tournament)
class TournamentAdmin(ReadOnly, admin.ModelAdmin[Tournament]):
    list_display = ("name", "format", "status", "current_round", "total_rounds", "rated")
    list_filter = ("status", "format", "rated")
    search_fields = ("name", "id")
    inlines = (TeamInline,)


@admin.register(Team)
class TeamAdmin(ReadOnly, admin.ModelAdmin[Team]):
    list_display = ("name", "tournament", "seed", "status", "withdrawn_from_round")
    list_filter = ("status",)
    search_fields = ("name", "tournament__name")
    actions = ("withdraw",)

    @admin.action(description="Withdraw the selected teams (as their organiser would)")
    def withdraw(self, request: HttpRequest, queryset: QuerySet[Team]) -> None:
        for team in queryset.select_related("tournament__organiser"):
            try:
                services.team_withdraw(
                    tournament_id=team.tournament_id,
                    team_id=team.pk,
                    user=team.tournament.organiser,
                )
            except ApplicationError as error:
                self.message_user(request, f"{team}: {error}", messages.WARNING)


@admin.register(Match)
class MatchAdmin(ReadOnly, admin.ModelAdmin[Match]):
    list_display = ("round", "table", "home", "away", "outcome", "home_score", "away_score")
    list_filter = ("outcome",)
    list_select_related = ("round", "home", "away")


@admin.register(TournamentEvent)
class TournamentEventAdmin(ReadOnly, admin.ModelAdmin[TournamentEvent]):
    list_display = ("tournament", "seq", "type", "created_at")
    list_filter = ("type",)


@admin.register(Rating)
class RatingAdmin(ReadOnly, admin.ModelAdmin[Rating]):
    list_display = ("user", "mu", "sigma", "games", "updated_at")
    ordering = ("-mu",)
